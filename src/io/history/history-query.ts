/**
 * The report's inputs from the store: counts per test, duration percentiles per test and platform
 * (computed by the database), and the series of the tests whose trend is fitted. One SQL text for
 * both engines. Also retention (`history prune`).
 */

import type { TestMachine } from '../../core/history/history-machines.js';
import type {
  HistoryInput,
  HistoryQuery,
  PlatformAggregate,
  SeriesPoint,
  TestAggregate,
  TestHistoryRun,
} from '../../core/history/history-report.js';
import { selectTrendCandidates } from '../../core/history/history-report.js';
import { isMachineIdentity } from '../../core/record/machine.js';
import { type TestId, testKey } from '../../core/test-id.js';
import type { HistoryStore, Queryable } from './history-store.js';

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
export async function readHistoryInput(
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

// The machines the listed tests ran on (runs stored before machines were recorded: machine null).
const MACHINES_SQL = `SELECT t.project, t.file, t.name AS "fullName", u.machine, count(*)::int AS runs,
    count(*) FILTER (WHERE u.ci IS NOT NULL OR u.ci_job IS NOT NULL)::int AS "ciRuns"
  ${FROM} AND r.test_id = ANY($5::int[]) AND r.state IN ('passed', 'failed')
  GROUP BY t.id, t.project, t.file, t.name, u.machine`;

/** Per test (testKey) of `tests`, the machines it ran on in the window. */
export async function readTestMachines(
  store: HistoryStore,
  filter: HistoryFilter,
  tests: readonly Pick<TestAggregate, 'testId'>[],
): Promise<Map<string, TestMachine[]>> {
  const found = new Map<string, TestMachine[]>();
  if (tests.length === 0) return found;
  const rows = await store.query<TestId & { machine: unknown; runs: number; ciRuns: number }>(MACHINES_SQL, [
    ...params(filter),
    tests.map((t) => t.testId),
  ]);
  for (const row of rows) {
    const m = isMachineIdentity(row.machine) ? row.machine : null;
    const list = found.get(testKey(row)) ?? [];
    list.push({
      id: m?.id ?? null,
      cpuModel: m?.cpuModel ?? null,
      cores: m?.cores ?? null,
      runs: row.runs,
      ciRuns: row.ciRuns,
    });
    found.set(testKey(row), list);
  }
  // Rows of a malformed machine and of none are one "no machine recorded" entry.
  for (const [key, list] of found) {
    const none = list.filter((m) => m.id === null);
    if (none.length > 1)
      found.set(key, [
        ...list.filter((m) => m.id !== null),
        { ...NO_MACHINE, runs: none.reduce((n, m) => n + m.runs, 0), ciRuns: none.reduce((n, m) => n + m.ciRuns, 0) },
      ]);
  }
  return found;
}

const NO_MACHINE = { id: null, cpuModel: null, cores: null } as const;

export interface PruneResult {
  readonly runs: number;
  readonly tests: number;
}

/** Deletes the runs started before `cutoffMs`, their results, and the tests left with no result. */
export async function pruneHistory(store: HistoryStore, cutoffMs: number, dryRun = false): Promise<PruneResult> {
  const cutoff = new Date(cutoffMs).toISOString();
  if (dryRun) {
    const [row] = await store.query<{ runs: number }>(
      'SELECT count(*)::int AS runs FROM flakeguard_runs WHERE started_at < $1::timestamptz',
      [cutoff],
    );
    return { runs: row?.runs ?? 0, tests: 0 };
  }
  return store.transaction(async (q) => {
    // Waits for ingests in flight and holds new ones back, so no test is deleted while a run is
    // being stored against it.
    await q.query('LOCK TABLE flakeguard_tests IN SHARE ROW EXCLUSIVE MODE');
    const runs = await q.query('DELETE FROM flakeguard_runs WHERE started_at < $1::timestamptz RETURNING id', [cutoff]);
    await q.query('DELETE FROM flakeguard_results WHERE run_id = ANY($1::int[])', [
      runs.map((r) => (r as { id: number }).id),
    ]);
    const tests = await q.query(
      'DELETE FROM flakeguard_tests t WHERE NOT EXISTS (SELECT 1 FROM flakeguard_results r WHERE r.test_id = t.id) RETURNING id',
    );
    return { runs: runs.length, tests: tests.length };
  });
}
