/**
 * Today's answers (flakeguard at 33a5a7f, schema 2): the report's inputs read from every raw result
 * in the window, and a test's newest runs and newest pass. Kept here, unchanged but for its imports,
 * as the reference the summaries' answers are compared with (history-summaries.test.ts).
 */
import type {
  HistoryInput,
  HistoryQuery,
  PlatformAggregate,
  SeriesPoint,
  TestAggregate,
  TestHistoryRun,
} from '../../../src/core/history/history-report.js';
import { selectTrendCandidates } from '../../../src/core/history/trend-candidates.js';
import type { HistoryStore, Queryable } from '../../../src/io/history/history-store.js';

export interface HistoryFilter {
  /** Only runs started at or after this moment (ms since the epoch). */
  readonly cutoffMs: number;
  readonly branch: string | null;
  /** Part of the full test name. */
  readonly fullNamePart: string | null;
  /** A test file, or a folder of them, relative to the root. */
  readonly file: string | null;
}

const FROM = `FROM flakeguard_results r
  JOIN flakeguard_runs u ON u.id = r.run_id
  JOIN flakeguard_tests t ON t.id = r.test_id
  WHERE u.started_at >= $1::timestamptz
    AND ($2::text IS NULL OR u.branch = $2)
    AND ($3::text IS NULL OR strpos(t.name, $3) > 0)
    AND ($4::text IS NULL OR t.file = $4 OR left(t.file, length($4) + 1) = $4 || '/')`;

const params = (f: HistoryFilter): unknown[] => [
  new Date(f.cutoffMs).toISOString(),
  f.branch,
  f.fullNamePart,
  f.file === null ? null : f.file.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, ''),
];

// Rows come in the order of the test's name (then platform): the report's lists keep that order
// among tests whose figures tie, and without ORDER BY each engine picks its own (PGlite hashes, a
// PostgreSQL server may walk an index), so the same records listed different tests on each store.
const TESTS_SQL = `SELECT t.id AS "testId", t.project, t.file, t.name AS "fullName",
    count(*) FILTER (WHERE r.state IN ('passed', 'failed'))::int AS runs,
    count(*) FILTER (WHERE r.state = 'failed')::int AS "failedRuns",
    count(*) FILTER (WHERE r.state = 'passed' AND r.flaky)::int AS "retriedRuns",
    count(*) FILTER (WHERE r.state = 'failed' AND u.commit_sha IS NOT NULL AND EXISTS (
      SELECT 1 FROM flakeguard_results r2 JOIN flakeguard_runs u2 ON u2.id = r2.run_id
      WHERE r2.test_id = r.test_id AND r2.state = 'passed' AND u2.commit_sha = u.commit_sha))::int AS "rerunPassedRuns"
  ${FROM}
  GROUP BY t.id, t.project, t.file, t.name
  HAVING count(*) FILTER (WHERE r.state IN ('passed', 'failed')) > 0
  ORDER BY t.project, t.file, t.name`;

const PLATFORMS_SQL = `SELECT t.id AS "testId", u.platform, count(*)::int AS runs,
    percentile_cont(0.5) WITHIN GROUP (ORDER BY r.duration_ms) AS "medianMs",
    percentile_cont(0.95) WITHIN GROUP (ORDER BY r.duration_ms) AS "p95Ms",
    (array_agg(r.limit_ms ORDER BY u.started_at DESC, u.id DESC))[1] AS "limitMs"
  ${FROM} AND r.state = 'passed' AND r.duration_ms IS NOT NULL
  GROUP BY t.id, u.platform
  ORDER BY t.project, t.file, t.name, u.platform`;

const SERIES_SQL = `SELECT r.test_id AS "testId", u.platform, (extract(epoch FROM u.started_at) * 1000)::float8 AS "atMs",
    r.duration_ms AS "durationMs", r.state
  ${FROM} AND r.test_id = ANY($5::int[]) AND r.state IN ('passed', 'failed') AND r.duration_ms IS NOT NULL
  ORDER BY u.started_at, u.id`;

// The runs of the flaky tests by platform and shard, with the first errors of those that failed a
// try: what their causes are inferred from (core/cause/history-cause.ts).
const OUTCOMES_SQL = `SELECT r.test_id AS "testId", u.platform, u.shard_index AS "shardIndex", u.shard_count AS "shardCount",
    count(*)::int AS runs,
    count(*) FILTER (WHERE r.state = 'failed' OR r.flaky)::int AS flaked,
    coalesce(array_agg(r.first_error ORDER BY u.started_at, u.id) FILTER (WHERE (r.state = 'failed' OR r.flaky) AND r.first_error IS NOT NULL), '{}') AS errors
  ${FROM} AND r.test_id = ANY($5::int[]) AND r.state IN ('passed', 'failed')
  GROUP BY r.test_id, u.platform, u.shard_index, u.shard_count
  ORDER BY r.test_id, u.platform, u.shard_index, u.shard_count`;

const RUNS_SQL = `SELECT count(*)::int AS runs FROM flakeguard_runs u
  WHERE u.started_at >= $1::timestamptz AND ($2::text IS NULL OR u.branch = $2)`;

/** Everything computeHistoryReport needs, read in one snapshot. */
export async function readHistoryInputReference(
  store: HistoryStore,
  filter: HistoryFilter,
  query: HistoryQuery,
  keep: ((t: TestAggregate) => boolean) | null = null,
): Promise<HistoryInput> {
  return store.transaction(async (q: Queryable) => {
    const p = params(filter);
    const [{ runs } = { runs: 0 }] = await q.query<{ runs: number }>(RUNS_SQL, p.slice(0, 2));
    // --owner: CODEOWNERS is matched here, before the lists are chosen, not in SQL.
    const tests = (await q.query<TestAggregate>(TESTS_SQL, p)).filter((t) => keep === null || keep(t));
    const kept = new Set(tests.map((t) => t.testId));
    const platforms = (await q.query<PlatformAggregate>(PLATFORMS_SQL, p)).filter(
      (pl) => keep === null || kept.has(pl.testId),
    );
    const ids = selectTrendCandidates(tests, platforms, query);
    const series = ids.length === 0 ? [] : await q.query<SeriesPoint>(SERIES_SQL, [...p, ids]);
    const flaky = tests.filter((t) => t.retriedRuns + t.rerunPassedRuns > 0).map((t) => t.testId);
    const outcomes = flaky.length === 0 ? [] : await q.query<OutcomeGroup>(OUTCOMES_SQL, [...p, flaky]);
    return { query, runs, tests, platforms, series, outcomes: outcomes.flatMap(runsOfGroup) };
  });
}

interface OutcomeGroup {
  readonly testId: number;
  readonly platform: string;
  readonly shardIndex: number | null;
  readonly shardCount: number | null;
  readonly runs: number;
  readonly flaked: number;
  readonly errors: readonly string[];
}

/** One group's runs as the cause rules read them: its flaked runs (with their errors), then its clean passes. */
function runsOfGroup(g: OutcomeGroup): TestHistoryRun[] {
  const shard = g.shardIndex === null || g.shardCount === null ? null : `${g.shardIndex}/${g.shardCount}`;
  const run = (flaked: boolean, error: string | null): TestHistoryRun => ({
    testId: g.testId,
    platform: g.platform,
    shard,
    state: flaked ? 'failed' : 'passed',
    flaky: false,
    error,
  });
  return [
    ...Array.from({ length: g.flaked }, (_, i) => run(true, g.errors[i] ?? null)),
    ...Array.from({ length: g.runs - g.flaked }, () => run(false, null)),
  ];
}

const SELECT_RUNS = `SELECT u.run_id AS "runId", to_char(u.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "startedAt",
    u.branch, u.commit_sha AS "commit", u.ci_job AS "job", u.ci, u.platform,
    u.shard_index AS "shardIndex", u.shard_count AS "shardCount", r.state, r.duration_ms AS "durationMs",
    r.retries, r.flaky, r.limit_ms AS "limitMs", r.first_error AS "firstError"
  FROM flakeguard_results r
  JOIN flakeguard_runs u ON u.id = r.run_id
  JOIN flakeguard_tests t ON t.id = r.test_id
  WHERE t.project = $1 AND t.file = $2 AND t.name = $3 AND ($4::text IS NULL OR u.branch = $4)`;

type TestRef = { readonly project?: string; readonly file: string; readonly fullName: string };
const ref = (test: TestRef, branch: string | null): unknown[] => [test.project ?? '', test.file, test.fullName, branch];

export function lastRunsOfTestReference(store: Queryable, test: TestRef, branch: string | null, limit: number) {
  return store.query(`${SELECT_RUNS} ORDER BY u.started_at DESC, u.id DESC LIMIT $5`, [...ref(test, branch), limit]);
}

export async function lastPassingRunReference(store: Queryable, test: TestRef, branch: string | null) {
  const rows = await store.query(
    `${SELECT_RUNS} AND r.state = 'passed' ORDER BY u.started_at DESC, u.id DESC LIMIT 1`,
    ref(test, branch),
  );
  return rows[0] ?? null;
}
