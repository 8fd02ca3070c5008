import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LOAD_WORKER_SOURCE } from '../../../src/io/load/load-worker-child.js';
import { isProcessAlive, startLoadWorkers } from '../../../src/io/load/load-workers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitGone(pids: readonly number[], ms = 3000): Promise<number[]> {
  const end = Date.now() + ms;
  let alive = pids.filter(isProcessAlive);
  while (alive.length > 0 && Date.now() < end) {
    await sleep(50);
    alive = alive.filter(isProcessAlive);
  }
  return alive;
}

describe('startLoadWorkers', () => {
  it('starts busy workers, measures them, and leaves none behind', async () => {
    const load = startLoadWorkers(2);
    expect(load.pids).toHaveLength(2);
    await sleep(600);
    expect(load.pids.every(isProcessAlive)).toBe(true);
    const summary = await load.stop();
    expect(await waitGone(load.pids)).toEqual([]);
    expect(summary.workers).toBe(2);
    expect(summary.wallMs).toBeGreaterThan(500);
    if (process.platform === 'linux') {
      expect(summary.workerCpuMs).toBeGreaterThan(100);
      expect(summary.machineShare).toBeGreaterThan(0);
    }
    expect(await load.stop()).toBe(summary);
  });

  it('a worker exits by itself when the process that started it is killed (SIGKILL)', async () => {
    // The same spawn as startLoadWorkers, from a plain parent that is then killed without cleanup.
    const script = `const { spawn } = require('node:child_process');
const c = spawn(process.execPath, ['-e', process.env.SRC], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
console.log(JSON.stringify([c.pid])); setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, SRC: LOAD_WORKER_SOURCE } });
    const pids = await new Promise<number[]>((resolve) => {
      let out = '';
      parent.stdout.on('data', (d: Buffer) => {
        out += String(d);
        if (out.includes('\n')) resolve(JSON.parse(out) as number[]);
      });
    });
    await sleep(200);
    expect(pids.every(isProcessAlive)).toBe(true);
    parent.kill('SIGKILL');
    expect(await waitGone(pids)).toEqual([]);
  });
});
