// Gate cost, side by side in one run at the same slowdown (the gate's pacer, the default
// --slowdown, and the same pacer around each naive process's whole tree): `flakeguard gate` on a branch
// adding 10 tests in 5 files, against the naive script that gives every selected test the same
// tries as the gate did (the reference tries, the tries at 2x and 4x it, alone), each its own
// `vitest run <file>:<line>` process paced to the factor of that try. Also the gate's wall
// time at the reference against the sum of its tries' own durations.
// Usage: npm run build && node bench/gate-overhead.mjs [--max-tries 10]     Target: ratio <= 0.25.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { CLI, fmt, numberArg, REPO, scratchRepo, timed, VITEST } from './gate-lib.mjs';

const { startPacer } = await import(path.join(REPO, 'dist/io/load/pacer.js'));
const { escalationFactors } = await import(path.join(REPO, 'dist/core/gate/breaking-point.js'));
const { TRIES_PER_HIGHER_FACTOR } = await import(path.join(REPO, 'dist/core/gate/check-rules.js'));
const TESTS_PER_FILE = 2;
const FILES = 5;
const maxTries = numberArg('max-tries', 10);
const test = (f, i) => `it('computes value ${f}-${i}', () => {
  let x = 0;
  for (let k = 0; k < 200000; k += 1) x += Math.sqrt(k);
  expect(x).toBeGreaterThan(0);
});
`;

/** One naive try: `vitest run <file>:<line>`, its whole process tree paced to `factor`. */
function naiveTry(spec, root, factor) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST, 'run', spec], {
      cwd: root,
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, CI: 'true' },
    });
    const pacer = factor > 1 ? startPacer(factor) : null;
    pacer?.addWorker(child.pid, child.pid);
    child.on('exit', (code) => {
      pacer?.stop();
      if (code === 0) resolve();
      else reject(new Error(`naive run of ${spec} exited ${code}`));
    });
  });
}

/** The tries the gate gave a test at each factor: the reference ones, then 2 per higher factor it was tried at. */
function triesOf(t, reference) {
  const out = [{ factor: reference, count: t.tryCount }];
  // holdsAt/breaksAt are measured factors: the asked ones within 25% of them were tried.
  const top = (t.breaksAt ?? t.holdsAt ?? reference) * 1.25;
  for (const f of escalationFactors(reference))
    if (f <= top && t.verdict !== 'flaky') out.push({ factor: f, count: TRIES_PER_HIGHER_FACTOR });
  if (t.alone) out.push({ factor: 1, count: t.alone.tryCount });
  return out;
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

  const gate = timed(
    process.execPath,
    [CLI, 'gate', '--tries', '5', '--max-tries', String(maxTries), '--json'],
    repo.root,
  );
  if (gate.status !== 0) throw new Error(`gate exited ${gate.status}: ${gate.stderr}`);
  const report = JSON.parse(gate.stdout);
  if (report.tests.length !== FILES * TESTS_PER_FILE) throw new Error(`gate selected ${report.tests.length} tests`);
  // The factors the gate asked for (the naive script asks the same; both measure what they got).
  const { target } = report.contention;
  const plan = report.tests.flatMap((t) => triesOf(t, target).map((p) => ({ ...p, spec: `${t.file}:${t.line}` })));
  const naiveTries = plan.reduce((n, p) => n + p.count, 0);

  const naiveStart = performance.now();
  for (const p of plan) for (let i = 0; i < p.count; i += 1) await naiveTry(p.spec, repo.root, p.factor);
  const naiveMs = performance.now() - naiveStart;
  const { loadedWallMs, triesMs } = report.cost;
  console.log(
    `machine: ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(
        ' ',
      )}; the gate asked x${target} (${report.contention.method}), its reference tries got x${report.contention.achieved}`,
  );
  console.log(`gate (10 tests, ${naiveTries} tries: reference, higher factors, alone): ${fmt(gate.ms)}`);
  console.log(`naive (${naiveTries} x vitest run <file>:<line>, the same tries at the same factors):  ${fmt(naiveMs)}`);
  console.log(`ratio gate / naive: ${(gate.ms / naiveMs).toFixed(3)} (target <= 0.25)`);
  console.log(
    `gate loaded phase ${fmt(loadedWallMs)} for ${report.tests.reduce((n, t) => n + t.tryCount, 0)} tries whose own durations sum to ${fmt(triesMs)}: wall / tries ${(loadedWallMs / Math.max(1, triesMs)).toFixed(1)}x (a fresh worker per try)`,
  );
} finally {
  repo.remove();
}
