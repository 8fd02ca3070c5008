import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isProcessAlive, startLoadWorkers } from '../../../src/io/load/load-workers.js';
import { REPO_ROOT } from '../../helpers/fixture.js';
import { sleep, survivors } from '../../helpers/processes.js';

describe('startLoadWorkers', () => {
  it('starts busy workers, measures them, and leaves none behind', async () => {
    const load = startLoadWorkers(2);
    expect(load.pids).toHaveLength(2);
    await sleep(600);
    expect(load.pids.every(isProcessAlive)).toBe(true);
    const summary = await load.stop();
    expect(await survivors(load.pids)).toEqual([]);
    expect(summary.workers).toBe(2);
    expect(summary.wallMs).toBeGreaterThan(500);
    // Measured where the machine tells a process's CPU time (/proc), null elsewhere; never assumed.
    if (existsSync(`/proc/${process.pid}/stat`)) {
      expect(summary.workerCpuMs).toBeGreaterThan(0);
      expect(summary.machineShare).toBeGreaterThan(0);
    } else {
      expect(summary.workerCpuMs).toBeNull();
    }
    expect(await load.stop()).toBe(summary);
  });

  it('a worker exits by itself when the process that started it is killed (SIGKILL)', async () => {
    // startLoadWorkers itself (the built module), in a plain parent that is then killed without cleanup.
    const script = `import { startLoadWorkers } from ${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'dist/io/load/load-workers.js')).href)};
const load = startLoadWorkers(2);
console.log(JSON.stringify(load.pids)); setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const pids = await new Promise<number[]>((resolve, reject) => {
      let out = '';
      parent.once('exit', (code) =>
        reject(new Error(`the parent exited (${code}) before printing its workers' pids; run npm run build first`)),
      );
      parent.stdout.on('data', (d: Buffer) => {
        out += String(d);
        if (out.includes('\n')) resolve(JSON.parse(out) as number[]);
      });
    });
    expect(pids).toHaveLength(2);
    expect(pids.every(isProcessAlive)).toBe(true);
    parent.kill('SIGKILL');
    expect(await survivors(pids)).toEqual([]);
  });
});
