// Rare flakes (issue 45): a branch adds 30 fast tests (about 5 ms each) in 6 files: 10 fail at random
// 1 time in 10, 10 fail 1 time in 50, 10 never fail. In one run, alternating, on the same machine:
// `flakeguard gate --base main` with its defaults against 11 plain `vitest run` of the six files.
// Prints, per rate, how many of the 10 tests each caught (the gate: verdict `flaky`; the loop: at
// least one failure in its 11 runs), the false alarms (a steady test not `stable`), the wall times and
// their ratio, with the load average beside them.
// Usage: npm run build && node bench/gate-rare-flakes.mjs [--rounds 1] [--keep] [--no-runs]
//   (--keep leaves the branch's repo and prints where; --no-runs only makes it)
//   Target (2 cores, quiet): >= 9 of 10 (1 in 10) and >= 5 of 10 (1 in 50) flaky, 0 false alarms,
//   gate wall time <= the 11 plain runs'.
import os from 'node:os';

import { CLI, fmt, numberArg, scratchRepo, timed, VITEST } from './gate-lib.mjs';

const RATES = { '1 in 10': 10, '1 in 50': 50, steady: 0 };
const KINDS = Object.keys(RATES);
const FILES = 6;
const PER_FILE = 5;
const PLAIN_RUNS = 11;

/** Test k of 30: its kind round-robin, so each file mixes the three. */
const kindOf = (k) => KINDS[k % KINDS.length];
const nameOf = (k) => `case ${String(k).padStart(2, '0')} (${kindOf(k)})`;

function fileText(f) {
  const tests = [];
  for (let j = 0; j < PER_FILE; j += 1) {
    const k = f * PER_FILE + j;
    const rate = RATES[kindOf(k)];
    const check = rate === 0 ? '' : `\n  expect(Math.random() < 1 / ${rate}, 'a rare race').toBe(false);`;
    tests.push(
      `it(${JSON.stringify(nameOf(k))}, async () => {\n  await new Promise((r) => setTimeout(r, 5));${check}\n});`,
    );
  }
  return `import { expect, it } from 'vitest';\n\n${tests.join('\n\n')}\n`;
}

const files = Array.from({ length: FILES }, (_, f) => `test/rare-${f + 1}.test.mjs`);
const load = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');

function plainLoop(root) {
  const failedOnce = new Set();
  let ms = 0;
  for (let run = 0; run < PLAIN_RUNS; run += 1) {
    const r = timed(process.execPath, [VITEST, 'run', '--reporter=json', ...files], root);
    ms += r.ms;
    const report = JSON.parse(r.stdout);
    for (const file of report.testResults)
      for (const t of file.assertionResults) if (t.status === 'failed') failedOnce.add(t.title);
  }
  return { ms, failed: failedOnce };
}

function gate(root) {
  const r = timed(process.execPath, [CLI, 'gate', '--base', 'main', '--json'], root);
  if (r.status !== 0 && r.status !== 1) throw new Error(`gate exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const report = JSON.parse(r.stdout);
  const verdicts = new Map(report.tests.map((t) => [t.fullName, t]));
  return { ms: r.ms, verdicts };
}

const rounds = numberArg('rounds', 1);
const gateOnly = process.argv.includes('--no-runs');
const repo = scratchRepo({ 'test/base.test.mjs': "import { it } from 'vitest';\nit('base', () => {});\n" });
try {
  repo.git('checkout', '-q', '-b', 'feature');
  for (const [f, file] of files.entries()) repo.write(file, fileText(f));
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'thirty fast tests');
  console.log(`machine: ${os.cpus().length} CPUs; ${rounds} round(s); gate defaults vs ${PLAIN_RUNS} plain runs`);
  for (let round = 1; round <= rounds && !gateOnly; round += 1) {
    const before = load();
    const plain = plainLoop(repo.root);
    const g = gate(repo.root);
    const rows = [];
    for (const kind of KINDS) {
      const names = Array.from({ length: FILES * PER_FILE }, (_, k) => k)
        .filter((k) => kindOf(k) === kind)
        .map(nameOf);
      const gateFlaky = names.filter((n) => g.verdicts.get(n)?.verdict === 'flaky').length;
      const notStable = names.filter((n) => g.verdicts.get(n)?.verdict !== 'stable').length;
      const loop = names.filter((n) => plain.failed.has(n)).length;
      const tries = names.map((n) => g.verdicts.get(n)?.tryCount ?? 0);
      const triesText = `tries ${Math.min(...tries)}-${Math.max(...tries)}`;
      rows.push(
        kind === 'steady'
          ? `  ${kind.padEnd(8)} gate: ${10 - notStable}/10 stable (${notStable} false alarms: ${
              names
                .filter((n) => g.verdicts.get(n)?.verdict !== 'stable')
                .map((n) => `${n} ${g.verdicts.get(n)?.verdict}`)
                .join(', ') || 'none'
            }), ${triesText}; loop: ${loop}/10 failed once`
          : `  ${kind.padEnd(8)} gate: ${gateFlaky}/10 flaky (${notStable - gateFlaky} other non-stable), ${triesText}; loop: ${loop}/10 failed once`,
      );
    }
    console.log(`round ${round} (load before ${before}, after ${load()}):`);
    for (const row of rows) console.log(row);
    console.log(
      `  wall: gate ${fmt(g.ms)}, ${PLAIN_RUNS} plain runs ${fmt(plain.ms)}; ratio gate/plain ${(g.ms / plain.ms).toFixed(2)}`,
    );
    const others = [...g.verdicts.values()].filter((t) => t.verdict !== 'stable' && t.verdict !== 'flaky');
    for (const t of others) console.log(`  note: ${t.fullName}: ${t.verdict} (${t.reason ?? ''})`.slice(0, 300));
  }
} finally {
  if (process.argv.includes('--keep')) console.log(`kept the branch at ${repo.root}`);
  else repo.remove();
}
