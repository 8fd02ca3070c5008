import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateReportJson } from '../../src/core/gate/gate-report.js';
import { isProcessAlive } from '../../src/io/load/load-workers.js';
import { CLI_BUILT, DIST_AS_MODULES, type Fixture } from '../helpers/fixture.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import { countProcess } from '../helpers/process-budget.js';
import { sleep, survivors } from '../helpers/processes.js';
import { A_ADDS, A_ADDS_EMPTY, createGateFixture, gateAtNoSlowdown } from './gate-fixtures.js';

// Needs `npm run build`. The load workers and Vitest processes are gone after every ending.

/** Processes whose working directory is inside the fixture (the Vitest child and its workers). */
function processesIn(root: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`).startsWith(root)) pids.push(Number(entry));
    } catch {
      // gone or not ours
    }
  }
  return pids;
}

const startedPids = (stderr: string): number[] => {
  const m = /load: started \d+ busy workers? \(pids ([\d, ]+)\)/.exec(stderr);
  return m?.[1] ? m[1].split(', ').map(Number) : [];
};

describe('flakeguard gate: endings', () => {
  let fx: Fixture;
  beforeAll(async () => {
    // 'adds' exists on main with an empty body: changed, not new, so the success gate starts no
    // Vitest for an alone try (order dependence is gate.test.ts's subject, not the endings').
    fx = await createGateFixture({ 'test/a.test.ts': A_ADDS }, { 'test/a.test.ts': A_ADDS_EMPTY });
  });
  afterAll(() => fx.remove());

  it('a missing base ref stops with exit 2 and the fetch command', async () => {
    const r = await runCliInProcess(fx.root, ['gate', '--base', 'origin/main']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('git fetch --no-tags --depth=50 origin main');
  });

  it('a bad option is a usage error: exit 2, the accepted forms named', async () => {
    const r = await runCliInProcess(fx.root, ['gate', '--load', 'lots']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--load "lots" must be auto, 0 (no load) or a number of workers');
  });

  it('nothing new since the base: says so, exit 0', async () => {
    const r = await runCliInProcess(fx.root, ['gate', '--base', 'HEAD']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('no new or changed tests since HEAD');
  });

  it('success: exit 0, the load workers are gone', async () => {
    // At no slowdown: the subject is the load workers' end (Ctrl-C below keeps the default slowdown).
    // One worker: the subject is that it ends, not how many start (test/io/load/load-workers.test.ts
    // starts two and finds none left); a second one only spun a core the e2e file beside needs.
    // One try: the subject is the ending, not the verdict.
    const r = await fx.flakeguard(gateAtNoSlowdown(1, 1, '--json'));
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as GateReportJson;
    expect(report.tests.map((t) => [t.fullName, t.selection, t.verdict])).toEqual([['adds', 'changed', 'stable']]);
    expect(report.load.pids).toHaveLength(1);
    expect(await survivors(report.load.pids)).toEqual([]);
  });

  // The load workers' stop when the tries end in an error: Ctrl-C below (the abort is thrown from the tries).
  it('Vitest cannot run the tries or cannot start: exit 2, no load worker left', async () => {
    // A custom runner is refused from the listing, before the load workers and the tries' Vitest start.
    fx.write('vitest.config.ts', "export default { test: { runner: './my-runner.ts' } };\n");
    try {
      const r = await fx.flakeguard(['gate', '--load', '1']);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('sets test.runner (');
      expect(r.stderr).toContain('1 new or changed test');
      expect(startedPids(r.stderr)).toEqual([]);
      expect(r.stderr).not.toContain('run: ');
      fx.write('vitest.config.ts', "throw new Error('config boom');\n");
      const crash = await fx.flakeguard(['gate', '--load', '1']);
      expect(crash.exitCode).toBe(2);
      expect(crash.stderr).toContain('config boom');
      expect(await survivors(startedPids(crash.stderr))).toEqual([]);
    } finally {
      fx.write('vitest.config.ts', 'export default {};\n');
    }
  });

  it('Ctrl-C: exit 130, no load worker, no Vitest process and no cgroup of the gate left', async () => {
    fx.write(
      'test/slow.test.ts',
      "import { it } from 'vitest';\nit('waits', async () => { await new Promise((r) => setTimeout(r, 1500)); });\n",
    );
    countProcess('gate');
    const child = execa(process.execPath, [CLI_BUILT, 'gate', '--load', '1'], {
      cwd: fx.root,
      reject: false,
      env: { CI: 'true', NO_COLOR: '1', ...DIST_AS_MODULES },
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += String(d);
    });
    // Up to 60 s for Vitest to start on a loaded machine; the loop ends as soon as the line shows.
    for (let i = 0; i < 1200 && !stderr.includes('try 1 of at most'); i += 1) await sleep(50);
    expect(stderr).toContain('try 1 of at most');
    const pids = startedPids(stderr);
    expect(pids.every(isProcessAlive)).toBe(true);
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(await survivors(pids)).toEqual([]);
    expect(await survivors(processesIn(fx.root))).toEqual([]);
    // The paced workers' cgroups (io/load/cgroup.ts: flakeguard-<gate pid>-<n>) are gone too.
    const cpu = '/sys/fs/cgroup/cpu';
    const left = existsSync(cpu) ? readdirSync(cpu).filter((d) => d.startsWith(`flakeguard-${child.pid}-`)) : [];
    expect(left).toEqual([]);
  });
});
