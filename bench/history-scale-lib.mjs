/**
 * bench/history-scale.mjs's parts: the synthetic history built in SQL, and the queries each
 * command asks the store (through the same functions the commands call).
 */
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { syntheticRecord } from './synthetic-record.mjs';

const REPO = path.resolve(import.meta.dirname, '..');
const dist = (p) => import(path.join(REPO, 'dist', p));
const { readHistoryInput } = await dist('io/history/history-query.js');
const { readTestCounts } = await dist('io/history/history-counts.js');
const { computeHistoryReport } = await dist('core/history/history-report.js');
const { lastRunsOfTest, lastPassingRun, failedThenPassed } = await dist('io/history/test-history.js');
const { readCalibrationSample } = await dist('io/history/ci-speed-read.js');
const { computeCiSpeedReport } = await dist('core/calibration/ci-speed-report.js');
const { computeQuarantineProposals, DEFAULT_QUARANTINE_POLICY } = await dist('core/quarantine/quarantine-proposals.js');
const { SUMMARY_MIGRATIONS } = await dist('core/history/history-schema-summaries.js');
const { RUN_DURATIONS } = await dist('core/history/history-schema-run-durations.js');
const { readMachineIdentity } = await dist('io/machine.js');
// The runs without CI context are this machine's (issue 37: `auto` compares CI with this machine's runs only).
const MACHINE = readMachineIdentity();

export const uptime = () =>
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`;

const DAY = 86_400_000;
const PLATFORM_FACTOR = "CASE u.platform WHEN 'win32' THEN 1.5 WHEN 'darwin' THEN 1.2 ELSE 1 END";

/** A test's properties from its id (the same on every engine and run). */
const H = '((t.id * 7919) % 1000)';
const FLAKE = `CASE WHEN ${H} < 25 THEN 0.05 WHEN ${H} < 100 THEN 0.005 ELSE 0 END`;
const BASE = `CASE WHEN ${H} >= 990 THEN 4000 ELSE 5 + ((t.id * 104729) % 997) * ((t.id % 7) + 1) / 2.0 END`;
const SLOPE = `CASE WHEN ${H} >= 990 THEN 20 ELSE 0 END`;

const runsSql = (
  perDay,
  startMs,
) => `INSERT INTO flakeguard_runs (run_id, started_at, ended_at, platform, arch, node_version,
    vitest_version, branch, commit_sha, ci_job, shard_index, shard_count, exit_reason, red, test_count, ci, machine)
  SELECT 'syn-' || r, s.at, s.at + interval '10 minutes', s.platform, 'x64', 'v20.0.0', '4.1.12',
    CASE WHEN r % 10 < 6 THEN 'main' WHEN r % 10 < 9 THEN 'feat-' || (r / (${perDay} * 2)) END,
    'c' || (r / 2), CASE WHEN r % 20 <> 0 THEN 'gh-' || r END,
    CASE WHEN r % 5 = 4 THEN 1 + (r / 5) % 2 END, CASE WHEN r % 5 = 4 THEN 2 END, 'passed', false, 0,
    CASE WHEN r % 20 <> 0 THEN jsonb_build_object('provider', 'github', 'workflow', 'ci', 'job', 'test', 'runId', r::text,
      'attempt', 1, 'runUrl', null, 'branch', null, 'commit', null, 'runnerOs', s.platform, 'shard', null) END,
    CASE WHEN r % 20 = 0 THEN $3::jsonb END
  FROM generate_series($1::int, $2::int) r
  CROSS JOIN LATERAL (SELECT to_timestamp((${startMs} + r * (${DAY} / ${perDay}.0) + (r * 7907) % 60000) / 1000.0) AS at,
    CASE WHEN r % 20 = 0 THEN 'linux' ELSE (ARRAY['linux', 'darwin', 'win32'])[1 + r % 3] END AS platform) s`;

const resultsSql = (
  startMs,
) => `INSERT INTO flakeguard_results (test_id, run_id, state, duration_ms, retries, flaky, limit_ms,
    first_error, started_at, platform, branch)
  SELECT t.id, u.id, o.state, CASE WHEN o.state <> 'skipped' THEN round((${BASE} * ${PLATFORM_FACTOR}
      * CASE WHEN u.ci IS NULL THEN 0.5 ELSE 1 END + ${SLOPE} * (extract(epoch FROM u.started_at) * 1000 - ${startMs}) / ${DAY})
      * (0.95 + random() * 0.1)) END,
    CASE WHEN o.flaky THEN 1 ELSE 0 END, o.flaky, 5000,
    CASE WHEN o.state = 'failed' OR o.flaky THEN (ARRAY['Test timed out in 5000ms', 'connect ECONNREFUSED 127.0.0.1:5432',
      'expected 1 to be 2'])[1 + t.id % 3] END, u.started_at, u.platform, u.branch
  FROM flakeguard_runs u JOIN flakeguard_tests t ON u.shard_count IS NULL OR t.id % 2 = u.shard_index - 1
  CROSS JOIN LATERAL (SELECT random() + 0 * t.id AS x) x
  CROSS JOIN LATERAL (SELECT CASE WHEN x.x < ${FLAKE} * 0.6 THEN 'failed' WHEN x.x > 0.995 THEN 'skipped' ELSE 'passed' END AS state,
    x.x >= ${FLAKE} * 0.6 AND x.x < ${FLAKE} AS flaky) o
  WHERE u.id BETWEEN $1 AND $2`;

/**
 * Builds a history of about `results` results: 0.9 x tests results a run on average (a fifth of
 * the runs are half-size shards), `perDay` runs a day ending now. Returns what the queries pick from.
 */
export async function buildSynthetic(storeIn, { results, tests, perDay }, out) {
  const t0 = performance.now();
  // Each statement in its own transaction without the store's statement timeout (the 20 M backfill takes minutes).
  const store = {
    query: (sql, params) =>
      storeIn.transaction(async (q) => {
        await q.query('SET LOCAL statement_timeout = 0');
        return q.query(sql, params);
      }),
  };
  const runs = Math.round(results / (tests * 0.9));
  const startMs = Date.now() - Math.ceil(runs / perDay) * DAY - DAY / 2;
  // The summaries' migrations (history-schema-summaries.ts): results with their run's start, then the summaries.
  const [withRun, summaries, keyTotals] = SUMMARY_MIGRATIONS.map((m) => m.statements);
  const indexes = withRun.filter((s) => s.startsWith('CREATE INDEX'));
  for (const s of indexes) await store.query(`DROP INDEX IF EXISTS ${s.split(' ')[2]}`);
  await store.query('SELECT setseed(0.38)');
  await store.query(`INSERT INTO flakeguard_tests (project, file, name)
    SELECT CASE WHEN i % 5 = 0 THEN 'edge' ELSE '' END, 'test/m' || (i % 400) || '.test.ts', 'group ' || (i % 7) || ' > case ' || i
    FROM generate_series(0, ${tests - 1}) i`);
  const SLICE = 200;
  for (let a = 0; a < runs; a += SLICE) {
    const b = Math.min(runs, a + SLICE) - 1;
    const [{ first }] = await store.query('SELECT coalesce(max(id), 0) + 1 AS first FROM flakeguard_runs');
    await store.query(runsSql(perDay, startMs), [a, b, JSON.stringify(MACHINE)]);
    await store.query(resultsSql(startMs), [first, first + (b - a)]);
    if ((a / SLICE) % 10 === 0)
      out(`  loading: ${b + 1} of ${runs} runs (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  const loaded = performance.now();
  for (const s of indexes) await store.query(s);
  await store.query('ANALYZE');
  const indexed = performance.now();
  // Schema 4's backfill, as a store written before runs it (the tables exist: empty them first).
  await store.query('TRUNCATE flakeguard_test_days, flakeguard_test_keys, flakeguard_open_failures');
  await store.query("DELETE FROM flakeguard_meta WHERE key = 'summary_newest_day'");
  // Schema 5's backfill writes the durations into the day rows, where a store of schema 5 has them.
  await store.query('ALTER TABLE flakeguard_test_days ADD COLUMN recent_ms float8[], ADD COLUMN recent_at float8[]');
  for (const s of summaries.slice(3)) await store.query(s);
  // Schema 6's backfill: each key's totals and durations from its newest day row, then the day rows' durations go.
  for (const s of keyTotals.filter((s) => s.startsWith('UPDATE') || s.includes('DROP COLUMN'))) await store.query(s);
  // Schema 7's backfill: each run's passed durations in one row.
  await store.query('TRUNCATE flakeguard_run_durations');
  for (const s of RUN_DURATIONS.statements.filter((s) => s.startsWith('INSERT'))) await store.query(s);
  // What autovacuum does on a live store: the visibility map lets the series read from the index alone.
  await storeIn.query('VACUUM ANALYZE').catch(async (error) => {
    out(`  VACUUM did not finish (${error.message}): ANALYZE only`);
    await store.query('ANALYZE');
  });
  const [{ n }] = await store.query('SELECT count(*)::int AS n FROM flakeguard_results');
  const [{ days }] = await store.query('SELECT count(*)::int AS days FROM flakeguard_test_days');
  const done = performance.now();
  out(
    `built ${n} results in ${runs} runs (${(runs / perDay).toFixed(1)} days): load ${((loaded - t0) / 1000).toFixed(0)} s` +
      ` (${(n / ((loaded - t0) / 1000)).toFixed(0)} results/s), indexes ${((indexed - loaded) / 1000).toFixed(0)} s,` +
      ` summaries backfilled in ${((done - indexed) / 1000).toFixed(0)} s (${days} day rows); ${uptime()}`,
  );
  const names = await store.query('SELECT project, file, name AS "fullName" FROM flakeguard_tests ORDER BY id');
  return {
    results: n,
    runs,
    tests: names,
    makeRecord: (count, k) => ingestRecord(count, k, runs),
  };
}

/** A run record of `count` tests (beyond the synthetic ones: new tests), started now. */
function ingestRecord(count, k, runs) {
  const startedAt = new Date(Date.now() - 60_000 + k).toISOString();
  const tests = Array.from({ length: count }, (_, i) => {
    const state = i % 97 === 0 ? 'failed' : 'passed';
    const flaky = state === 'passed' && i % 53 === 0;
    return {
      key: `test/m${i % 400}.test.ts::group ${i % 7} > case ${i}`,
      file: `test/m${i % 400}.test.ts`,
      fullName: `group ${i % 7} > case ${i}`,
      project: i % 5 === 0 ? 'edge' : '',
      line: null,
      state,
      durationMs: 5 + ((i * 104729) % 997),
      retries: flaky ? 1 : 0,
      flaky,
      errors: state === 'failed' || flaky ? [{ message: 'expected 1 to be 2', frame: null }] : [],
      limitMs: 5000,
      limitSource: 'budget',
    };
  });
  return syntheticRecord({
    runId: `ingest-${runs}-${k}-${Date.now()}`,
    startedAt,
    commit: `c${Math.floor(runs / 2) - 1}`,
    tests,
    exitReason: 'failed',
    exitCode: 1,
  });
}

const QUERY = { since: '', branch: null, fullNamePart: null, file: null, top: 10, warnAt: 0.8 };

/** Each command's question to the store; `run(i)` asks it for the i-th sample (a different test each time). */
export function queryCases(store, built) {
  const pick = (i) => built.tests[(i * 7919) % built.tests.length];
  const report = async (over, keep = null, days = 30) => {
    const cutoffMs = Date.now() - days * DAY;
    const query = { ...QUERY, since: new Date(cutoffMs).toISOString().slice(0, 10), ...over };
    const filter = { cutoffMs, branch: query.branch, fullNamePart: query.fullNamePart, file: query.file };
    const t0 = performance.now();
    const input = await readHistoryInput(store, filter, query, keep);
    const read = performance.now() - t0;
    computeHistoryReport(input);
    return read;
  };
  return [
    { name: 'history (default list, 30d)', run: () => report({}) },
    { name: 'history --branch main', run: () => report({ branch: 'main' }) },
    { name: 'history --since 7d', run: () => report({}, null, 7) },
    { name: 'history --test <name> (trend and interval)', run: (i) => report({ fullNamePart: pick(i).fullName }) },
    { name: 'history --file <file>', run: (i) => report({ file: pick(i).file }) },
    {
      name: 'history --owner (a quarter of the files)',
      run: () => report({}, (t) => Number(t.file.slice(6, -8)) % 4 === 0),
    },
    {
      name: 'triage look-ups (one test)',
      run: async (i) => {
        const test = pick(i);
        await lastRunsOfTest(store, test, { branch: 'main', limit: 200 });
        await failedThenPassed(store, test, { branch: 'main', limit: 200 });
        await lastPassingRun(store, test, { branch: 'main' });
      },
    },
    { name: 'gate history (one test, last 20 runs)', run: (i) => lastRunsOfTest(store, pick(i), { limit: 20 }) },
    { name: 'reporter quarantine (one test, last 9 runs)', run: (i) => lastRunsOfTest(store, pick(i), { limit: 9 }) },
    {
      name: 'gate --slowdown auto (calibration)',
      run: async () =>
        computeCiSpeedReport(await readCalibrationSample(store, { platform: 'linux', machine: MACHINE })),
    },
    {
      name: 'quarantine proposals (main, 10 quarantined tests)',
      // readQuarantineProposals: the tests' counts on the branch and each quarantined test's last
      // runs, then the proposals (each flaky test's lower bound of its flake rate).
      run: async (i) => {
        const cutoffMs = Date.now() - 30 * DAY;
        const counts = await readTestCounts(store, { cutoffMs, branch: 'main', fullNamePart: null, file: null });
        const quarantined = [];
        for (let k = 0; k < 10; k += 1) {
          const test = pick(i * 10 + k);
          const lastRuns = await lastRunsOfTest(store, test, { branch: 'main', limit: 20 });
          quarantined.push({ id: `q${k}`, file: test.file, fullName: test.fullName, lastRuns });
        }
        const tests = counts.map((t) => ({ ...t, flakyRuns: t.retriedRuns + t.rerunPassedRuns }));
        computeQuarantineProposals({ branch: 'main', policy: DEFAULT_QUARANTINE_POLICY, tests, quarantined });
      },
    },
  ];
}
