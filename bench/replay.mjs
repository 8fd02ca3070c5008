// The gate's replay row (issue 46 item 2): on the branch of test/e2e/gate-replay-fixtures.mjs (a
// Math.random flake at 1 in 5, an order-dependent test whose state is set three tests earlier, a
// deadline test that fails at x3 and passes at x1), `flakeguard gate --slowdown 3 --json` once;
// then, per kind: the replay the gate printed, run with --times 10 (its failures of 10), and 10
// plain reruns of the test's file with `vitest run` (the test's failures of 10), and the gate's
// time on the replay row (from its "replayed" step line to its end) against its whole wall time,
// with os.loadavg() beside each figure.
// --evidence: instead, the 21-test branch of test/e2e/gate-evidence.test.ts under the gate's
// defaults, every test with a flaky kind of verdict (its random flakes are counters on disk that
// fail on fixed tries, whatever the seed: their replays say which condition they could not make).
// Usage: npm run build && node bench/replay.mjs [--plain 10] [--evidence]
//   Target (2 cores, quiet): every replay fails >= 8 of 10; the row takes <= 15% of the gate.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EVIDENCE_BASE, EVIDENCE_BRANCH, EVIDENCE_TRUTH } from '../test/e2e/gate-evidence-fixtures.mjs';
import { REPLAY_BASE, REPLAY_BRANCH, REPLAY_TRUTH } from '../test/e2e/gate-replay-fixtures.mjs';
import { CLI, fmt, numberArg, scratchRepo, timed, VITEST } from './gate-lib.mjs';

const PLAIN = numberArg('plain', 10);
const evidence = process.argv.includes('--evidence');
const BASE = evidence ? EVIDENCE_BASE : REPLAY_BASE;
const BRANCH = evidence ? EVIDENCE_BRANCH : REPLAY_BRANCH;
const TRUTH = evidence
  ? EVIDENCE_TRUTH.filter((t) => t.cause !== undefined).map((t) => ({ ...t, kind: t.cause }))
  : REPLAY_TRUTH;
const GATE_ARGS = evidence ? ['gate', '--json'] : ['gate', '--slowdown', '3', '--json'];
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** The gate, with the time each stderr line came (ms from its start). */
function gateTimed(root) {
  return new Promise((resolve) => {
    const start = performance.now();
    const child = spawn(process.execPath, [CLI, ...GATE_ARGS], {
      cwd: root,
      env: { ...process.env, CI: '', GITHUB_ACTIONS: '', NO_COLOR: '1' },
    });
    let stdout = '';
    let pending = '';
    const lines = [];
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      pending += d;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      for (const text of parts) lines.push({ at: performance.now() - start, text });
    });
    child.on('close', (status) => resolve({ status, stdout, lines, ms: performance.now() - start }));
  });
}

/** The test's state in a `vitest run <file>` JSON report, 'failed' when it did not say. */
function plainRun(root, file, name) {
  const out = path.join(root, '.flakeguard', 'plain.json');
  timed(process.execPath, [VITEST, 'run', file, '--reporter=json', `--outputFile=${out}`], root, { CI: '' });
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const t = report.testResults.flatMap((f) => f.assertionResults).find((a) => a.fullName === name);
  return t?.status ?? 'failed';
}

const repo = scratchRepo(BASE);
try {
  repo.git('checkout', '-q', '-b', 'feature');
  for (const [rel, text] of Object.entries(BRANCH)) repo.write(rel, text);
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'branch');
  const loadBefore = load();
  const gate = await gateTimed(repo.root);
  const report = JSON.parse(gate.stdout);
  const step = gate.lines.find((l) => /^flakeguard gate: run: .* replayed/.test(l.text) || / replayed,/.test(l.text));
  const rowMs = step === undefined ? 0 : gate.ms - step.at;
  console.log(
    `gate: exit ${gate.status}, ${fmt(gate.ms)} wall; replay row ${fmt(rowMs)} (${((rowMs / gate.ms) * 100).toFixed(1)}% of the gate; without it ${fmt(gate.ms - rowMs)}, +${((rowMs / (gate.ms - rowMs)) * 100).toFixed(1)}%)  load ${loadBefore} -> ${load()}`,
  );
  for (const truth of TRUTH) {
    const t = report.tests.find((x) => x.file === truth.file && x.fullName === truth.name);
    const replay = t?.replay;
    if (!replay) {
      console.log(`${truth.kind} ${truth.name}: ${t?.verdict ?? 'not reported'}, no replay`);
      continue;
    }
    const loadAt = load();
    const rest = replay.command.replace(/^npx flakeguard /, '');
    const replayed = timed('sh', ['-c', `"${process.execPath}" "${CLI}" ${rest} --times 10`], repo.root, { CI: '' });
    const replayFailed = Number(/failed (\d+)\/10 tries/.exec(replayed.stdout)?.[1] ?? 0);
    const loadPlain = load();
    let plainFailed = 0;
    for (let i = 0; i < PLAIN; i += 1) if (plainRun(repo.root, truth.file, truth.name) !== 'passed') plainFailed += 1;
    console.log(
      `${truth.kind.padEnd(7)} ${evidence ? `${truth.name}: ` : ''}${t.verdict}, cause ${t.cause?.class}: gate replay ${replay.reproduced} (${replay.conditions}); replay ${replayFailed}/10 failed  load ${loadAt}; plain rerun ${plainFailed}/${PLAIN} failed  load ${loadPlain}\n        ${replay.command}`,
    );
  }
} finally {
  repo.remove();
}
