/**
 * The report's inputs from the store, at a cost that does not grow with the history: the counts
 * per test, platform and shard from the summaries (a key's totals less its newest day row before
 * the window: one index probe a key, history-schema-key-totals.ts), then, for the few tests the report
 * fits a trend for or lists, their newest results in the window (a bounded index range each). One
 * SQL text for both engines. The window starts at the start of its first UTC day (`since`).
 */
import { isoDayOf } from '../../core/calendar.js';
import { causeCandidates } from '../../core/history/cause-candidates.js';
import { durationsNeeded, withReadPlatforms, withReadTests } from '../../core/history/durations-needed.js';
import { type FlakedError, outcomesOf } from '../../core/history/history-outcomes.js';
import type { HistoryInput, HistoryQuery, TestAggregate } from '../../core/history/history-report.js';
import { ALL_BRANCHES } from '../../core/history/history-schema-summaries.js';
import { summarizeTests, summarizeWindow, withSeriesDurations } from '../../core/history/history-summary.js';
import { selectTrendCandidates } from '../../core/history/trend-candidates.js';
import { readSeries } from './history-series.js';
import type { HistoryStore, Queryable } from './history-store.js';
import { readExactRows, readSummaryTests } from './summary-read.js';

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
    const day = isoDayOf(startMs);
    const rows = await readSummaryTests(q, {
      scope,
      day,
      fullNamePart: filter.fullNamePart,
      file: normalFile(filter.file),
      countAll: filter.fullNamePart !== null || filter.file !== null,
      startMs,
    });
    const summary = summarizeTests(rows, startMs);
    // --owner: CODEOWNERS is matched here, before the lists are chosen, not in SQL.
    const bare = summary.tests.filter((t) => keep === null || keep(t));
    const kept = new Set(bare.map((t) => t.testId));
    const bounded = summary.platforms.filter((p) => kept.has(p.testId));
    // The tests whose durations (and so their counts) can change what the report shows, read whole;
    // the rest keep bounds (summary-read.ts, durations-needed.ts).
    const needed = durationsNeeded(bare, bounded, query);
    const exact = summarizeWindow(await readExactRows(q, scope, day, needed), startMs);
    const tests = withReadTests(bare, exact.tests);
    const platforms = withReadPlatforms(bounded, exact.platforms);
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
