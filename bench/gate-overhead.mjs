// Gate cost, side by side in one run at the same load (--load auto: one busy worker per CPU):
// `flakeguard gate` on a branch adding 10 tests in 5 files, against the naive script that gives
// every selected test the same number of cold tries as the gate did, each its own
// `vitest run <file>:<line>` process. Also the gate's loaded wall time against the sum of its
// tries' own durations (what the fresh workers and Vitest cost on top of the tests).
// Usage: npm run build && node bench/gate-overhead.mjs [--max-runs 10]     Target: ratio <= 0.5.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { CLI, fmt, numberArg, REPO, scratchRepo, timed, VITEST } from './gate-lib.mjs';

const { LOAD_WORKER_SOURCE } = await import(path.join(REPO, 'dist/io/load/load-worker-child.js'));
const TESTS_PER_FILE = 2;
const FILES = 5;
const maxRuns = numberArg('max-runs', 10);
const test = (f, i) => `it('computes value ${f}-${i}', () => {
  let x = 0;
  for (let k = 0; k < 200000; k += 1) x += Math.sqrt(k);
  expect(x).toBeGreaterThan(0);
});
`;

function startLoad(count) {
  const workers = Array.from({ length: count }, () => spawn(process.execPath, ['-e', LOAD_WORKER_SOURCE], { stdio: ['pipe', 'ignore', 'ignore'] }));
  return () => {
    for (const w of workers) w.kill('SIGKILL');
  };
}

const repo = scratchRepo({ 'test/base.test.ts': "import { it } from 'vitest';\nit('base', () => {});\n" });
try {
  repo.git('checkout', '-q', '-b', 'feature');
  for (let f = 0; f < FILES; f += 1) {
    const body = ["import { expect, it } from 'vitest';", ''];
    for (let i = 0; i < TESTS_PER_FILE; i += 1) body.push(test(f, i));
    repo.write(`test/new-${f}.test.ts`, body.join('\n'));
  }
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'ten new tests');

  const gate = timed(process.execPath, [CLI, 'gate', '--load', 'auto', '--runs', '5', '--max-runs', String(maxRuns), '--json'], repo.root);
  if (gate.status !== 0) throw new Error(`gate exited ${gate.status}: ${gate.stderr}`);
  const report = JSON.parse(gate.stdout);
  if (report.tests.length !== FILES * TESTS_PER_FILE) throw new Error(`gate selected ${report.tests.length} tests`);
  const naiveTries = report.tests.reduce((n, t) => n + t.runs + (t.alone?.runs ?? 0), 0);

  const stop = startLoad(os.availableParallelism());
  const naiveStart = performance.now();
  try {
    for (const t of report.tests) {
      for (let i = 0; i < t.runs + (t.alone?.runs ?? 0); i += 1) {
        const r = timed(process.execPath, [VITEST, 'run', `${t.file}:${t.line}`], repo.root);
        if (r.status !== 0) throw new Error(`naive run failed: ${r.stdout}${r.stderr}`);
      }
    }
  } finally {
    stop();
  }
  const naiveMs = performance.now() - naiveStart;
  const { loadedWallMs, triesMs } = report.cost;
  console.log(`machine: ${os.cpus().length} CPUs, load average ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}; load ${os.availableParallelism()} busy workers for both`);
  console.log(`gate (10 tests, ${report.tests.map((t) => t.runs).join('/')} cold tries + ${report.tests.filter((t) => t.alone).length} alone): ${fmt(gate.ms)}`);
  console.log(`naive (${naiveTries} x vitest run <file>:<line>, the same tries):  ${fmt(naiveMs)}`);
  console.log(`ratio gate / naive: ${(gate.ms / naiveMs).toFixed(3)} (target <= 0.5)`);
  console.log(`gate loaded phase ${fmt(loadedWallMs)} for ${report.tests.reduce((n, t) => n + t.runs, 0)} tries whose own durations sum to ${fmt(triesMs)}: wall / tries ${(loadedWallMs / Math.max(1, triesMs)).toFixed(1)}x (a fresh worker per try)`);
} finally {
  repo.remove();
}
