/**
 * The report's inputs from the store, at a cost that does not grow with the history: the counts
 * per test, platform and shard from the summaries (a key's totals less its newest day row before
 * the window: one index probe a key, history-schema-key-totals.ts), then, for the few tests the report
 * fits a trend for or lists, their newest results in the window (a bounded index range each). One
 * SQL text for both engines. The window starts at the start of its first UTC day (`since`).
 */
import { isoDayOf } from '../../core/calendar.js';
import { causeCandidates } from '../../core/history/cause-candidates.js';
import { durationsNeeded, withReadPlatforms } from '../../core/history/durations-needed.js';
import type { HistoryInput, HistoryQuery, TestAggregate } from '../../core/history/history-report.js';
import { selectTrendCandidates } from '../../core/history/history-report.js';
import { ALL_BRANCHES } from '../../core/history/history-schema-summaries.js';
import {
  type FlakedError,
  outcomesOf,
  type SummaryRow,
  summarizeWindow,
  withSeriesDurations,
} from '../../core/history/history-summary.js';
import { numbersOfArrayText } from './array-text.js';
import { readSeries } from './history-series.js';
import type { HistoryStore, Queryable } from './history-store.js';

export { pruneHistory } from './history-prune.js';

export interface HistoryFilter {
  /** Only runs started on or after the UTC day of this moment (ms since the epoch). */
  readonly cutoffMs: number;
  readonly branch: string | null;
  /** Part of the full test name. */
  readonly fullNamePart: string | null;
  /** A test file, or a folder of them, relative to the root. */
  readonly file: string | null;
}

/** The start of the window: the start of the cutoff's UTC day. */
export const windowStartMs = (cutoffMs: number): number => Date.parse(`${isoDayOf(cutoffMs)}T00:00:00Z`);

/** A key's newest durations as array text (array-text.ts). */
interface DurationsText {
  readonly testId: number;
  readonly platform: string;
  readonly shard: string;
  readonly recentMs: string | null;
  readonly recentAt: string | null;
}

const keyOf = (r: { testId: number; platform: string; shard: string }) =>
  `${r.testId}\u0000${r.platform}\u0000${r.shard}`;

/**
 * The platforms of the tests `ids` with their durations read: the summary rows of those tests
 * with the durations the store gives, folded again (the other tests keep their bounds).
 */
async function readDurations(
  q: Queryable,
  scope: string,
  rows: readonly SummaryRow[],
  ids: readonly number[],
  startMs: number,
) {
  if (ids.length === 0) return [];
  const read = new Map(
    (await q.query<DurationsText>(DURATIONS_SQL, [scope, ids])).map((d) => [
      keyOf(d),
      { recentMs: numbersOfArrayText(d.recentMs), recentAt: numbersOfArrayText(d.recentAt) },
    ]),
  );
  const wanted = new Set(ids);
  const withDurations = rows
    .filter((r) => wanted.has(r.testId))
    .map((r) => ({ ...r, ...(read.get(keyOf(r)) ?? { recentMs: null, recentAt: null }) }));
  return summarizeWindow(withDurations, startMs).platforms;
}

/** Key k's newest day row before the window's first day ($2), as b: what the window subtracts. */
export const WINDOW_FLOOR = `LEFT JOIN LATERAL (SELECT d.runs, d.failed_runs, d.retried_runs, d.rerun_passed_runs, d.flaked_runs,
      d.passed_runs
    FROM flakeguard_test_days d WHERE d.scope = k.scope AND d.test_id = k.test_id AND d.platform = k.platform
      AND d.shard = k.shard AND d.day < $2::date
    ORDER BY d.day DESC LIMIT 1) b ON true`;

// Rows unsorted: core puts them in the order of the tests' names in code points
// (summarizeWindow), the same on both engines whatever the locale; sorting 12,000 rows here took
// 45 of 125 ms at 20 M results. A key's totals (schema 6) less its newest day row
// before the window, read from the day table's index alone (it holds the counts); the bounds of
// its durations, not the durations (read after, for the tests that need them: DURATIONS_SQL).
const SUMMARY_SQL = `SELECT k.test_id AS "testId", t.project, t.file, t.name AS "fullName", k.platform, k.shard,
    k.runs - coalesce(b.runs, 0) AS runs, k.failed_runs - coalesce(b.failed_runs, 0) AS "failedRuns",
    k.retried_runs - coalesce(b.retried_runs, 0) AS "retriedRuns",
    k.rerun_passed_runs - coalesce(b.rerun_passed_runs, 0) AS "rerunPassedRuns",
    k.flaked_runs - coalesce(b.flaked_runs, 0) AS "flakedRuns", k.passed_runs - coalesce(b.passed_runs, 0) AS "passedRuns",
    k.last_passed_at AS "lastPassedAt", k.last_passed_run AS "lastPassedRun", k.last_limit_ms AS "lastLimitMs",
    k.recent_low AS "recentLow", k.recent_high AS "recentHigh", k.recent_newest AS "recentNewest"
  FROM flakeguard_test_keys k JOIN flakeguard_tests t ON t.id = k.test_id
  ${WINDOW_FLOOR}
  WHERE k.scope = $1 AND k.runs - coalesce(b.runs, 0) > 0
    AND ($3::text IS NULL OR strpos(t.name, $3) > 0)
    AND ($4::text IS NULL OR t.file = $4 OR left(t.file, length($4) + 1) = $4 || '/')`;

// The newest durations of the keys of the tests the report needs them for (durations-needed.ts).
const DURATIONS_SQL = `SELECT k.test_id AS "testId", k.platform, k.shard, k.recent_ms::text AS "recentMs",
    k.recent_at::text AS "recentAt"
  FROM flakeguard_test_keys k WHERE k.scope = $1 AND k.test_id = ANY($2::int[])`;

// For the transaction: the probes and the series' ranges are thousands of index look-ups, where
// memoizing pays nothing (each key is probed once), the JIT costs more than it saves, and starting
// a parallel worker for the series' keys took 16 of 50 ms; room for the reads' small sorts in memory.
const READ_SETTINGS = `SELECT set_config('work_mem', '32MB', true), set_config('enable_memoize', 'off', true),
  set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)`;

const RUNS_SQL = `SELECT count(*)::int AS runs FROM flakeguard_runs u
  WHERE u.started_at >= $1::timestamptz AND ($2::text IS NULL OR u.branch = $2)`;

/** A branch filter in its own SQL text, so each engine plans the index it can use. */
const onBranch = (branch: string | null, param: string) => (branch === null ? '' : `AND r.branch = ${param}`);

/** The errors a test's cause reads: those of its newest flaked runs in the window, at most this many. */
const CAUSE_ERRORS = 200;

// The first errors of the runs the tests flaked in (a partial index holds only those runs), oldest first.
const errorsSql = (
  branch: string | null,
) => `SELECT e."testId", e.platform, e.shard, e.error FROM unnest($1::int[]) AS i (id)
  CROSS JOIN LATERAL (SELECT r.test_id AS "testId", r.platform, coalesce(u.shard_index || '/' || u.shard_count, '') AS shard,
      r.first_error AS error, r.started_at, r.run_id
    FROM flakeguard_results r JOIN flakeguard_runs u ON u.id = r.run_id
    WHERE r.test_id = i.id AND (r.state = 'failed' OR r.flaky) AND r.state IN ('passed', 'failed')
      AND r.started_at >= $2::timestamptz AND r.first_error IS NOT NULL ${onBranch(branch, '$3')}
    ORDER BY r.started_at DESC, r.run_id DESC LIMIT ${CAUSE_ERRORS}) e
  ORDER BY e.started_at, e.run_id`;

export const normalFile = (file: string | null): string | null =>
  file === null ? null : file.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');

/** Everything computeHistoryReport needs, read in one snapshot. */
export async function readHistoryInput(
  store: HistoryStore,
  filter: HistoryFilter,
  query: HistoryQuery,
  keep: ((t: TestAggregate) => boolean) | null = null,
): Promise<HistoryInput> {
  return store.transaction(async (q: Queryable) => {
    const startMs = windowStartMs(filter.cutoffMs);
    const start = new Date(startMs).toISOString();
    const scope = filter.branch ?? ALL_BRANCHES;
    const withBranch = (p: unknown[]): unknown[] => (filter.branch === null ? p : [...p, filter.branch]);
    await q.query(READ_SETTINGS);
    const [{ runs } = { runs: 0 }] = await q.query<{ runs: number }>(RUNS_SQL, [start, filter.branch]);
    const rows = await q.query<SummaryRow>(SUMMARY_SQL, [
      scope,
      isoDayOf(startMs),
      filter.fullNamePart,
      normalFile(filter.file),
    ]);
    const summary = summarizeWindow(rows, startMs);
    // --owner: CODEOWNERS is matched here, before the lists are chosen, not in SQL.
    const tests = summary.tests.filter((t) => keep === null || keep(t));
    const kept = new Set(tests.map((t) => t.testId));
    const bounded = summary.platforms.filter((p) => keep === null || kept.has(p.testId));
    // The durations of the tests where they can change what the report shows; the rest keep bounds.
    const needed = durationsNeeded(tests, bounded, query);
    const platforms = withReadPlatforms(bounded, await readDurations(q, scope, rows, needed, startMs));
    const ids = selectTrendCandidates(tests, platforms, query);
    const series = ids.length === 0 ? [] : await readSeries(q, scope, ids, start, filter.branch);
    // The causes of the tests the report may show with flaky runs, from their newest flaked runs' errors.
    const causeIds = causeCandidates(tests, platforms, ids, query);
    const errors =
      causeIds.length === 0 ? [] : await q.query<FlakedError>(errorsSql(filter.branch), withBranch([causeIds, start]));
    return {
      query,
      runs,
      tests,
      platforms: withSeriesDurations(platforms, series),
      series,
      outcomes: outcomesOf(summary.groups, errors, new Set(causeIds)),
    };
  });
}
