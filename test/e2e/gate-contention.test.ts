import { readdirSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateReportJson } from '../../src/core/gate/gate-report.js';
import { tryCeilingMs } from '../../src/core/gate/try-ceiling.js';
import { CLI_BUILT, createFixture, type Fixture } from '../helpers/fixture.js';
import { sleep, survivors } from '../helpers/processes.js';

// Needs `npm run build`. What only a whole gate shows about its own time and processes, in one
// gate at x2 over two changed files: the report's slowdown (how the workers were paced, every
// phase, each try's measured factor), a hanging test killed at its ceiling, a detached child, and
// the parent going away. How accurate the factors are is checked below the gate, against the
// tests' own clocks: test/io/vitest/try-factor.test.ts (a try through the runner) and
// test/io/load/pacer.test.ts (the pacer on a process tree).
//
// The tests are changed, not new, so the gate spends no alone tries on them (order dependence is
// test/e2e/gate.test.ts's subject). The CPU-bound test has a 60 s timeout so that it cannot break at
// the higher factors (x4, x8): it holds, so the report lists every phase.

const CPU_TEST = `import { expect, it } from 'vitest';
it('spins 100ms of cpu', () => {
  const start = process.cpuUsage();
  let x = 0;
  for (;;) { const u = process.cpuUsage(start); if (u.user + u.system > 100_000) break; x += Math.sqrt(x + 1); }
  expect(x).toBeGreaterThan(0);
}, 60_000);
`;

const HANG_TEST = `import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { it } from 'vitest';
it('starts a detached child', () => {
  const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
  c.unref();
  writeFileSync(\`pids/detached-\${c.pid}\`, '');
});
// Blocks its thread for good, as a busy loop would, without spinning a core until the gate's ceiling.
it('hangs', () => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); }, 500);
`;

/** The same tests on main, before the change: each passes at once. */
const BEFORE = {
  'test/cpu.test.ts': "import { it } from 'vitest';\nit('spins 100ms of cpu', () => {});\n",
  'test/hang.test.ts':
    "import { it } from 'vitest';\nit('starts a detached child', () => {});\nit('hangs', () => {});\n",
};

const detachedPids = (root: string): number[] =>
  readdirSync(path.join(root, 'pids')).flatMap((f) =>
    f.startsWith('detached-') ? [Number(f.slice('detached-'.length))] : [],
  );

describe('flakeguard gate: contention the gate controls and measures, a hanging test and a detached child', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await createFixture({
      git: true,
      files: { 'vitest.config.ts': 'export default {};\n', 'pids/.keep': '', ...BEFORE },
    });
    await fx.git(['checkout', '-q', '-b', 'feature']);
    fx.write('test/cpu.test.ts', CPU_TEST);
    fx.write('test/hang.test.ts', HANG_TEST);
    await fx.git(['commit', '-qam', 'change']);
  });
  afterAll(() => {
    for (const pid of detachedPids(fx.root)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    fx.remove();
  });

  it('one gate at x2: each try reports the factor its own tree got and the report every phase; the hanging try is killed and reported hung; no detached child survives', async () => {
    const r = await fx.flakeguard(['gate', '--slowdown', '2', '--tries', '1', '--max-tries', '1', '--json']);
    expect(r.exitCode, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as GateReportJson;
    expect(report.version).toBe(7);
    expect(report.tests.map((t) => t.selection)).toEqual(['changed', 'changed', 'changed']);
    const c = report.contention;
    expect(c?.target).toBe(2);
    expect(['cgroup-v2', 'cgroup-v1', 'signals']).toContain(c?.method);
    // Judged at what the reference tries measurably got.
    expect(c?.reference).toBe(c?.achieved ?? 2);
    // The hanging test failed its reference try: it is tried without slowdown (a must-have check).
    expect(c?.phases.map((p) => [p.phase, p.asked])).toEqual([
      ['reference', 2],
      ['x4', 4],
      ['x8', 8],
      ['unthrottled', 1],
    ]);
    const cpu = report.tests.find((x) => x.fullName === 'spins 100ms of cpu');
    expect(cpu?.verdict).toBe('stable');
    expect(cpu?.tries).toHaveLength(1);
    for (const x of cpu?.tries ?? []) {
      // Measured from the try's own tree (its CPU is the test's 100 ms and a little more).
      expect(x.cpuMs).toBeGreaterThan(80);
      expect(x.slowdownNote).toBeUndefined();
      expect(x.slowdown).toBeGreaterThanOrEqual(1);
    }
    const hang = report.tests.find((t) => t.fullName === 'hangs');
    expect(hang?.verdict, JSON.stringify({ reason: hang?.reason, missing: hang?.missing, idle: hang?.idle })).toBe(
      'failing',
    );
    expect(hang?.tries.map((t) => t.state)).toEqual(['hung']);
    expect(hang?.reason).toMatch(/^hung in 1\/1/);
    expect(hang?.error).toContain('its worker and the processes it started were killed');
    // Killed past its ceiling (its 500 ms timeout at the factor, plus the margin).
    expect(hang?.tries[0]?.durationMs).toBeGreaterThan(500);
    expect(tryCeilingMs(500, 2)).toBeLessThan(30_000);
    expect(report.tests.find((t) => t.fullName === 'starts a detached child')?.verdict).toBe('stable');
    const pids = detachedPids(fx.root);
    expect(pids.length).toBeGreaterThan(0);
    expect(await survivors(pids)).toEqual([]);
  });

  it('--slowdown outside 1..32 is a usage error naming the value', async () => {
    const r = await fx.flakeguard(['gate', '--slowdown', '0.5']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--slowdown "0.5" must be a factor from 1');
  });

  it('flakeguard stops when its parent goes away (an npx wrapper killed by SIGTERM): exit 130, nothing left', async () => {
    // A wrapper that starts the gate and is killed without passing the signal on.
    const wrapper = execa(
      process.execPath,
      [
        '-e',
        `const c = require('node:child_process').spawn(process.execPath, [${JSON.stringify(CLI_BUILT)}, 'gate', '--slowdown', '1', '--tries', '1', '--max-tries', '1'], { stdio: ['ignore', 'inherit', 'inherit'] }); console.log('child ' + c.pid); setInterval(() => {}, 1000);`,
      ],
      { cwd: fx.root, reject: false, env: { CI: 'true', NO_COLOR: '1' } },
    );
    let out = '';
    wrapper.stdout?.on('data', (d: Buffer) => {
      out += String(d);
    });
    let stderr = '';
    wrapper.stderr?.on('data', (d: Buffer) => {
      stderr += String(d);
    });
    for (let i = 0; i < 1200 && !stderr.includes('run: '); i += 1) await sleep(50);
    const gatePid = Number(/child (\d+)/.exec(out)?.[1]);
    expect(gatePid).toBeGreaterThan(0);
    wrapper.kill('SIGKILL');
    await wrapper;
    expect(await survivors([gatePid], 15_000)).toEqual([]);
  });
});
