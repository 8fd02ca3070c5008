import { readdirSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateReport } from '../../src/core/gate/gate-report.js';
import { tryCeilingMs } from '../../src/core/gate/try-ceiling.js';
import { CLI_BUILT, createFixture, type Fixture } from '../helpers/fixture.js';
import { sleep, survivors } from '../helpers/processes.js';

// Needs `npm run build`. The gate's own time and processes: a CPU-bound try's measured slowdown, a
// hanging test, a detached child, the parent going away.
//
// The CPU-bound test has a 60 s timeout so that it cannot break at the gate's higher factors (x4,
// x8): what breaks where is the verdict's subject, not this test's. Only the test workers are
// paced (Vitest's main process runs at full speed), so the gate's own start-up is not slowed.

const CPU_TEST = `import { expect, it } from 'vitest';
it('spins 200ms of cpu', () => {
  const start = process.cpuUsage();
  let x = 0;
  for (;;) { const u = process.cpuUsage(start); if (u.user + u.system > 200_000) break; x += Math.sqrt(x + 1); }
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
it('hangs', () => { for (;;) {} }, 500);
`;

const detachedPids = (root: string): number[] =>
  readdirSync(path.join(root, 'pids')).flatMap((f) =>
    f.startsWith('detached-') ? [Number(f.slice('detached-'.length))] : [],
  );

async function branch(files: Record<string, string>): Promise<Fixture> {
  const fx = await createFixture({
    git: true,
    files: {
      'vitest.config.ts': 'export default {};\n',
      'pids/.keep': '',
      'test/a.test.ts': "import { it } from 'vitest';\nit('old', () => {});\n",
    },
  });
  await fx.git(['checkout', '-q', '-b', 'feature']);
  for (const [f, text] of Object.entries(files)) fx.write(f, text);
  await fx.git(['add', '-A']);
  await fx.git(['commit', '-qm', 'change']);
  return fx;
}

describe('flakeguard gate: contention the gate controls and measures', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await branch({ 'test/cpu.test.ts': CPU_TEST });
  });
  afterAll(() => fx.remove());

  it('a CPU-bound try reports the factor its own tree got; the report says how the workers were paced and every phase', async () => {
    const r = await fx.flakeguard([
      'gate',
      '--slowdown',
      '2',
      '--runs',
      '2',
      '--max-runs',
      '2',
      '--time-budget',
      '30s',
      '--json',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as GateReport;
    expect(report.version).toBe(3);
    const c = report.contention;
    expect(c?.target).toBe(2);
    expect(['cgroup-v2', 'cgroup-v1', 'signals']).toContain(c?.method);
    // Judged at what the reference tries measurably got (the accuracy itself: test/io/load/pacer.test.ts).
    expect(c?.reference).toBe(c?.achieved ?? 2);
    expect(c?.phases.map((p) => p.phase)[0]).toBe('reference');
    const t = report.tests.find((x) => x.name === 'spins 200ms of cpu');
    expect(t?.verdict).toBe('stable');
    for (const x of t?.tries ?? []) {
      // Measured from the try's own tree, in a wide band: clearly slowed, not wildly off the target.
      expect(x.slowdown).toBeGreaterThan(1.3);
      expect(x.slowdown).toBeLessThan(2 * 4);
    }
  });

  it('--slowdown outside 1..32 is a usage error naming the value', async () => {
    const r = await fx.flakeguard(['gate', '--slowdown', '0.5']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--slowdown "0.5" must be a factor from 1');
  });
});

describe('flakeguard gate: a hanging test and a detached child', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await branch({ 'test/hang.test.ts': HANG_TEST });
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

  it('the hanging try is killed and reported hung; the gate ends and prints its report; no detached child survives', async () => {
    const r = await fx.flakeguard([
      'gate',
      '--slowdown',
      '1',
      '--runs',
      '1',
      '--max-runs',
      '1',
      '--time-budget',
      '30s',
      '--json',
    ]);
    expect(r.exitCode, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as GateReport;
    const hang = report.tests.find((t) => t.name === 'hangs');
    expect(hang?.verdict).toBe('failing');
    expect(hang?.tries.map((t) => t.state)).toEqual(['hung']);
    expect(hang?.reason).toMatch(/^hung in 1\/1/);
    expect(hang?.error).toContain('its worker and the processes it started were killed');
    // Killed past its ceiling, well before any second one (the ceiling at the measured factor).
    expect(hang?.tries[0]?.durationMs).toBeGreaterThan(500);
    expect(report.tests.find((t) => t.name === 'starts a detached child')?.verdict).toBe('stable');
    const pids = detachedPids(fx.root);
    expect(pids.length).toBeGreaterThan(0);
    expect(await survivors(pids)).toEqual([]);
    expect(tryCeilingMs(500, 1)).toBeLessThan(30_000);
  });

  it('flakeguard stops when its parent goes away (an npx wrapper killed by SIGTERM): exit 130, nothing left', async () => {
    // A wrapper that starts the gate and is killed without passing the signal on.
    const wrapper = execa(
      process.execPath,
      [
        '-e',
        `const c = require('node:child_process').spawn(process.execPath, [${JSON.stringify(CLI_BUILT)}, 'gate', '--slowdown', '1', '--runs', '1', '--max-runs', '1'], { stdio: ['ignore', 'inherit', 'inherit'] }); console.log('child ' + c.pid); setInterval(() => {}, 1000);`,
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
