// Does the gate give the same verdicts whatever else the machine runs, and is the factor it
// reports the one the tries got? Fixtures of each kind (a timing assertion with 3x headroom idle, a
// deadline race, a cold-start race, a random 30% flake, a near-budget test, 1 s of CPU in a child
// process, stable tests) and three that time their own work (250 ms and 20 ms of CPU in the
// worker, 250 ms in a child process: wall over CPU, each try appending what it got to
// self-<name>.jsonl with the factor its call asked, FLAKEGUARD_SLOWDOWN), the gate called --calls
// times on the machine as it is and --calls times with 2 busy loops per core started by this
// script. Prints per call each self-timing fixture's verdict, self-measured median (tries of the
// reference phase), the gate's reported factor (median of its reference tries) and the load
// average before the call; then each fixture's verdicts across all calls. Run it with nothing
// else on the machine. --only <text> keeps the fixture files whose path contains it (e.g. self-20:
// the 20 ms fixture alone, a short check of one fixture; the figures need all of them).
// --selection 20: instead, the 21-test branch of test/e2e/gate-evidence.test.ts (9 files, known
// truths), the gate under its defaults (no --time-budget) --calls times quiet and with 2 busy loops
// per core: per call the wall time against one `vitest run` of the same files in the same
// condition (the ratio), verdicts and causes right against the truth, and the tests inconclusive.
// Usage: npm run build && node bench/gate-contention.mjs [--calls 5] [--slowdown 2] [--only self-20] [--selection 20]
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, fmt, median, numberArg, REPO, scratchRepo, timed } from './gate-lib.mjs';

const { LOAD_WORKER_SOURCE } = await import(path.join(REPO, 'dist/io/load/load-worker-child.js'));
const calls = numberArg('calls', 5);
const slowdown = numberArg('slowdown', 2);
const selection = process.argv.includes('--selection');
if (selection) {
  const { runSelectionBench } = await import('./gate-selection-bench.mjs');
  await runSelectionBench({ calls, startLoad: (n) => startLoadWith(LOAD_WORKER_SOURCE, n) });
  process.exit(0);
}
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt === -1 ? '' : (process.argv[onlyAt + 1] ?? '');

/** Source that spins `ms` of CPU and sets wall and cpu (ms) as it measured them. */
function spinSource(ms) {
  return `const c0 = process.cpuUsage(); const t0 = performance.now(); let x = 0; let cpu = 0; while (cpu < ${ms}) { for (let k = 0; k < 1e4; k += 1) x += Math.sqrt(k + x % 7); const u = process.cpuUsage(c0); cpu = (u.user + u.system) / 1000; } const wall = performance.now() - t0`;
}

/** A test that times its own CPU-bound work and appends the factor it got. */
function selfTiming(name, ms) {
  const file = `self-${ms}.jsonl`;
  return `import { appendFileSync } from 'node:fs';
import { it } from 'vitest';
it('${name}', () => {
  ${spinSource(ms)};
  appendFileSync('${file}', JSON.stringify({ asked: Number(process.env.FLAKEGUARD_SLOWDOWN), got: wall / cpu }) + '\\n');
});
`;
}
const SELF = {
  'self: 250 ms of CPU in the worker': 'self-250.jsonl',
  'self: 20 ms of CPU in the worker': 'self-20.jsonl',
  'self: 250 ms of CPU in a child process': 'self-child.jsonl',
};

// Each: file -> source. Calibrated on an idle core: the timing test has 3x headroom over the target,
// so it holds at x4 and breaks at x8: one truthful verdict (fragile). With 4x headroom its limit was
// the x8 escalation step itself (tries got x7.98-x8.02 there), a coin toss: stable 2, fragile 7,
// flaky 1 in 10 calls of the quiet bench at 1e818b8.
const FIXTURES = {
  'test/timing.test.ts': `import { expect, it } from 'vitest';
it('timing: 3x headroom idle', () => {
  const work = () => { let x = 0; for (let k = 0; k < 2e6; k += 1) x += Math.sqrt(k); return x; };
  const c0 = process.cpuUsage(); const t0 = performance.now(); work();
  const cpu = (process.cpuUsage(c0).user + process.cpuUsage(c0).system) / 1000; const wall = performance.now() - t0;
  expect(wall).toBeLessThan(Math.max(cpu, 1) * 3 * ${slowdown});
});
`,
  'test/deadline.test.ts': `import { expect, it } from 'vitest';
it('deadline race', async () => {
  const t0 = performance.now(); let x = 0; for (let k = 0; k < 3e6; k += 1) x += Math.sqrt(k);
  await new Promise((r) => setTimeout(r, 10));
  expect(performance.now() - t0).toBeLessThan(1000);
});
`,
  'test/cold.test.ts': `import { expect, it } from 'vitest';
const started = performance.now();
it('cold-start race', () => { expect(performance.now() - started).toBeLessThan(2000); });
`,
  'test/random.test.ts': `import { expect, it } from 'vitest';
it('random 30% flake', () => { expect(Math.random()).toBeGreaterThan(0.3); });
`,
  'test/near.test.ts': `import { it } from 'vitest';
it('near budget', async () => { await new Promise((r) => setTimeout(r, 850)); });
`,
  'test/child.test.ts': `import { execFileSync } from 'node:child_process';
import { it } from 'vitest';
it('1 s of CPU in a child process', () => {
  // process.cpuUsage() on every turn of the loop would spend ~3.5 s of system time in getrusage for
  // 1 s of user time (4.6 s of CPU, past Vitest's 5 s timeout at x2): it is read every 10,000 turns.
  execFileSync(process.execPath, ['-e', 'const s = process.cpuUsage(); let x = 0; for (;;) { for (let k = 0; k < 1e4; k += 1) x += Math.sqrt(x + 1); const u = process.cpuUsage(s); if (u.user + u.system >= 1e6) break; }']);
});
`,
  'test/self-250.test.ts': selfTiming('self: 250 ms of CPU in the worker', 250),
  'test/self-20.test.ts': selfTiming('self: 20 ms of CPU in the worker', 20),
  'test/self-child.test.ts': `import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { it } from 'vitest';
it('self: 250 ms of CPU in a child process', () => {
  const out = execFileSync(process.execPath, ['-e', ${JSON.stringify(spinSource(250))} + '; console.log(wall / cpu)']);
  appendFileSync('self-child.jsonl', JSON.stringify({ asked: Number(process.env.FLAKEGUARD_SLOWDOWN), got: Number(String(out).trim()) }) + '\\n');
});
`,
  // The child fixture's try is 250 ms of CPU x2 plus a paced node start-up: 700-870 ms at x2 on
  // this 2-core machine (a 4 ms cgroup period: median 787 ms against 733 ms at 10 ms, 12 tries
  // each interleaved, load 5-7), right at the near-budget line of the 1 s budget (80%). Its limit is
  // 1.5 s, so its durations sit at 60% or less of it and its verdict says what the tries got.
  'allowances/test/self-child.test.ts.yaml': `- id: 5e1fc41d
  test: "self: 250 ms of CPU in a child process"
  file: test/self-child.test.ts
  budget: 1.5s
  reason: 250 ms of CPU at x2 and a node start-up
  added: 2026-12-03
`,
  'test/stable.test.ts': `import { expect, it } from 'vitest';
it('stable a', () => { expect([1, 2].length).toBe(2); });
it('stable b', () => { expect('x'.repeat(3)).toBe('xxx'); });
`,
};

function startLoadWith(source, count) {
  const workers = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', source], { stdio: ['pipe', 'ignore', 'ignore'] }),
  );
  return () => {
    for (const w of workers) w.kill('SIGKILL');
  };
}
const startLoad = (count) => startLoadWith(LOAD_WORKER_SOURCE, count);

const repo = scratchRepo({
  'flakeguard.yaml': 'budget:\n  test: 1s\n',
  'vitest.config.ts': 'export default {};\n',
  'test/base.test.ts': "import { it } from 'vitest';\nit('base', () => {});\n",
});
const rows = new Map();
const calls_ = [];

/** The self-timed factors of the reference tries (asked = the target), by fixture name. */
function readSelf(root) {
  const out = {};
  for (const [name, file] of Object.entries(SELF)) {
    const f = path.join(root, file);
    const got = existsSync(f)
      ? readFileSync(f, 'utf8')
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l))
          .filter((x) => x.asked === slowdown)
          .map((x) => x.got)
      : [];
    out[name] = got;
    rmSync(f, { force: true });
  }
  return out;
}

try {
  repo.git('checkout', '-q', '-b', 'feature');
  for (const [f, text] of Object.entries(FIXTURES)) if (f.includes(only)) repo.write(f, text);
  repo.write('.gitignore', 'node_modules\n.flakeguard\nself-*.jsonl\n');
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'fixtures');
  for (const condition of ['quiet', '2 loops/core']) {
    for (let i = 0; i < calls; i += 1) {
      const loadavg = os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ');
      const stop = condition === 'quiet' ? () => {} : startLoad(2 * os.availableParallelism());
      let r;
      try {
        const args = [
          'gate',
          '--slowdown',
          String(slowdown),
          '--tries',
          '5',
          '--max-tries',
          '5',
          '--time-budget',
          '3m',
          '--json',
        ];
        r = timed(process.execPath, [CLI, ...args], repo.root);
      } finally {
        stop();
      }
      const report = JSON.parse(r.stdout);
      const self = readSelf(repo.root);
      for (const t of report.tests) {
        const row = rows.get(t.fullName) ?? [];
        row.push(t.verdict);
        rows.set(t.fullName, row);
      }
      calls_.push({ condition, call: i + 1, loadavg, report, self, ms: r.ms });
      console.error(`${condition} call ${i + 1}: ${fmt(r.ms)}, contention ${JSON.stringify(report.contention)}`);
      for (const [name, got] of Object.entries(self)) {
        const tries = report.tests.find((y) => y.fullName === name)?.tries ?? [];
        if (got.length === 0 && tries.length === 0) continue;
        const list = (xs) => xs.map((v) => (typeof v === 'number' ? v.toFixed(2) : '-')).join(' ');
        console.error(`  ${name}: self ${list(got)}; gate ${list(tries.map((y) => y.slowdown))}`);
      }
    }
  }
} finally {
  repo.remove();
}

const x = (v) => (v === null || v === undefined || Number.isNaN(v) ? '-' : `x${v.toFixed(2)}`);
console.log(
  `\n${os.cpus().length} CPUs; --slowdown ${slowdown}; ${calls} calls quiet, ${calls} with 2 busy loops per core\n`,
);
console.log(
  '| condition | call | load avg before | method | reference got | fixture | verdict | self-measured median | gate-reported median | self within 10% of target (20% for 20 ms) | gate within 10% of self |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const c of calls_) {
  for (const name of Object.keys(SELF)) {
    const t = c.report.tests.find((y) => y.fullName === name);
    if (!t) continue;
    const selfMedian = c.self[name].length > 0 ? median(c.self[name]) : null;
    const gate = (t?.tries ?? []).map((y) => y.slowdown).filter((y) => typeof y === 'number');
    const gateMedian = gate.length > 0 ? median(gate) : null;
    const band = name.includes('20 ms') ? 0.2 : 0.1;
    const selfOk = selfMedian !== null && Math.abs(selfMedian / slowdown - 1) <= band;
    const gateOk = selfMedian !== null && gateMedian !== null && Math.abs(gateMedian / selfMedian - 1) <= 0.1;
    console.log(
      `| ${c.condition} | ${c.call} | ${c.loadavg} | ${c.report.contention?.method ?? '-'} | ${x(c.report.contention?.achieved)} | ${name} | ${t?.verdict ?? '-'} | ${x(selfMedian)} (${c.self[name].length}) | ${x(gateMedian)} | ${selfOk ? 'yes' : 'NO'} | ${gateOk ? 'yes' : 'NO'} |`,
    );
  }
}
console.log('\n| fixture | verdicts (quiet ... / loaded ...) | agree |');
console.log('| --- | --- | --- |');
let agree = 0;
for (const [name, verdicts] of rows) {
  const same = new Set(verdicts).size === 1;
  if (same) agree += 1;
  console.log(`| ${name} | ${verdicts.join(' ')} | ${same ? 'yes' : 'NO'} |`);
}
console.log(`\n${agree}/${rows.size} fixtures got one verdict across all ${2 * calls} calls`);
