// bench/gate-contention.mjs --selection 20: the gate under its defaults on the 21-test branch of
// test/e2e/gate-evidence.test.ts (9 files: 3 deadline tests that pass at x1 and fail at x2, 2 random
// flakes, an order-dependent test, a cold-start flake, near and over budget, stable), quiet and with
// 2 busy loops per core. Per call: the gate's wall time over one `vitest run` of the same files in
// the same condition (a ratio measured in the same run), verdicts and causes right against the
// truth, and how many tests ended inconclusive (with what was missing).
import os from 'node:os';
import { EVIDENCE_BASE, EVIDENCE_BRANCH, EVIDENCE_TRUTH } from '../test/e2e/gate-evidence-fixtures.mjs';
import { CLI, fmt, median, scratchRepo, timed, VITEST } from './gate-lib.mjs';

const loadavg = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

function freshRepo() {
  const repo = scratchRepo(EVIDENCE_BASE);
  repo.git('checkout', '-q', '-b', 'feature');
  for (const [f, text] of Object.entries(EVIDENCE_BRANCH)) repo.write(f, text);
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'branch');
  return repo;
}

function judge(report) {
  let verdicts = 0;
  let causes = 0;
  const wrong = [];
  for (const truth of EVIDENCE_TRUTH) {
    const t = report.tests.find((x) => x.file === truth.file && x.fullName === truth.name);
    if (t?.verdict === truth.verdict) verdicts += 1;
    else wrong.push(`${truth.name}: ${t?.verdict ?? 'missing'} (truth ${truth.verdict})`);
    if (truth.verdict === 'stable' || (t?.cause && (!truth.cause || t.cause.class === truth.cause))) causes += 1;
  }
  const inconclusive = report.tests.filter((t) => t.verdict === 'inconclusive');
  return { verdicts, causes, inconclusive, wrong };
}

export async function runSelectionBench({ calls, startLoad }) {
  const rows = [];
  for (const condition of ['quiet', '2 loops/core']) {
    for (let i = 0; i < calls; i += 1) {
      // A fresh branch each call: the fixture's counters on disk start from 1.
      const repo = freshRepo();
      const before = loadavg();
      const stop = condition === 'quiet' ? () => {} : startLoad(2 * os.availableParallelism());
      let gate;
      let suite;
      try {
        suite = timed(process.execPath, [VITEST, 'run', '--reporter', 'dot'], repo.root);
        gate = timed(process.execPath, [CLI, 'gate', '--json'], repo.root);
      } finally {
        stop();
        repo.remove();
      }
      const report = JSON.parse(gate.stdout);
      const j = judge(report);
      rows.push({ condition, call: i + 1, before, gate, suite, report, ...j });
      console.error(
        `${condition} call ${i + 1} (load ${before}): gate ${fmt(gate.ms)}, vitest run ${fmt(suite.ms)}; verdicts ${j.verdicts}/${EVIDENCE_TRUTH.length}, causes ${j.causes}/${EVIDENCE_TRUTH.length}, inconclusive ${j.inconclusive.length}${j.wrong.length > 0 ? `; wrong: ${j.wrong.join('; ')}` : ''}`,
      );
      for (const t of j.inconclusive) console.error(`  inconclusive ${t.fullName}: ${(t.missing ?? []).join('; ')}`);
    }
  }
  console.log(
    `\n${os.cpus().length} CPUs; the gate under its defaults on ${EVIDENCE_TRUTH.length} selected tests in 9 files; ${calls} calls quiet, ${calls} with 2 busy loops per core\n`,
  );
  console.log(
    '| condition | call | load avg before | gate wall | `vitest run` wall | ratio | verdicts right | causes right | inconclusive |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows)
    console.log(
      `| ${r.condition} | ${r.call} | ${r.before} | ${fmt(r.gate.ms)} | ${fmt(r.suite.ms)} | ${(r.gate.ms / r.suite.ms).toFixed(1)} | ${r.verdicts}/${EVIDENCE_TRUTH.length} | ${r.causes}/${EVIDENCE_TRUTH.length} | ${r.inconclusive.length} |`,
    );
  for (const condition of ['quiet', '2 loops/core']) {
    const of = rows.filter((r) => r.condition === condition);
    console.log(
      `${condition}: median gate/vitest-run ratio ${median(of.map((r) => r.gate.ms / r.suite.ms)).toFixed(1)}, verdicts right ${of.reduce((s, r) => s + r.verdicts, 0)}/${of.length * EVIDENCE_TRUTH.length}, inconclusive ${of.reduce((s, r) => s + r.inconclusive.length, 0)}`,
    );
  }
}
