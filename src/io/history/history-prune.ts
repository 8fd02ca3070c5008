/**
 * Retention (`history prune --keep 90d`) in bounded batches, each a short transaction under the
 * ingest lock, so ingests go on between them: the runs started before the start of the cutoff's
 * UTC day (PRUNE_BATCH runs at a time, with their results), the summaries' day rows before that day
 * (each key keeps its newest such row, re-dated to -infinity: the floor a window reaching further
 * back subtracts, so it counts only the runs kept; the keys' totals follow), and the tests left
 * without a result.
 */
import { isoDayOf } from '../../core/calendar.js';
import { INGEST_LOCK_KEY } from '../../core/history/history-schema.js';
import { exactDurationBounds, refreshKeyTotals } from '../../core/history/history-schema-key-totals.js';
import type { HistoryStore, Queryable } from './history-store.js';

export interface PruneResult {
  readonly runs: number;
  readonly tests: number;
}

/** Runs deleted per transaction. */
const PRUNE_BATCH = 200;
/** Test ids whose summaries and rows are tidied per transaction. */
const TEST_BATCH = 2000;

const lock = (q: Queryable) => q.query('SELECT pg_advisory_xact_lock($1::bigint)', [String(INGEST_LOCK_KEY)]);

const OLD_RUNS = 'SELECT id FROM flakeguard_runs WHERE started_at < $1::timestamptz ORDER BY started_at, id LIMIT $2';

// Per key, every day row before the cutoff day but the newest; then that one becomes the floor.
const DROP_OLD_DAYS = `DELETE FROM flakeguard_test_days d WHERE d.test_id >= $2 AND d.test_id < $3 AND d.day < $1::date
  AND EXISTS (SELECT 1 FROM flakeguard_test_days n WHERE n.scope = d.scope AND n.test_id = d.test_id
    AND n.platform = d.platform AND n.shard = d.shard AND n.day > d.day AND n.day < $1::date)`;
const FLOOR_DAYS = `UPDATE flakeguard_test_days SET day = '-infinity'
  WHERE test_id >= $2 AND test_id < $3 AND day < $1::date AND day > '-infinity'`;
// Every key of the range has its totals (schema 6) read again from its newest row; one whose
// newest row became the floor (no run kept) keeps no durations.
const REFRESH_KEYS = refreshKeyTotals(
  'flakeguard_test_keys y',
  'y.test_id >= $1 AND y.test_id < $2',
  "CASE WHEN n.day = '-infinity' THEN NULL ELSE k.recent_ms END, CASE WHEN n.day = '-infinity' THEN NULL ELSE k.recent_at END",
);
const EXACT_BOUNDS = exactDurationBounds('flakeguard_test_keys y', 'y.test_id >= $1 AND y.test_id < $2');
const GONE_TESTS = `DELETE FROM flakeguard_tests t WHERE t.id >= $1 AND t.id < $2
  AND NOT EXISTS (SELECT 1 FROM flakeguard_results r WHERE r.test_id = t.id) RETURNING id`;

export interface PruneOptions {
  /** Runs deleted per transaction (default PRUNE_BATCH). */
  readonly batchRuns?: number;
  /** Called after each batch of runs is committed (tests: an ingest then must not wait for the prune). */
  readonly afterBatch?: () => Promise<void>;
}

/** Deletes the runs started before the cutoff's day, their results, and the tests left with no result. */
export async function pruneHistory(
  store: HistoryStore,
  cutoffMs: number,
  dryRun = false,
  options: PruneOptions = {},
): Promise<PruneResult> {
  const day = isoDayOf(cutoffMs);
  const cutoff = `${day}T00:00:00.000Z`;
  if (dryRun) {
    const [row] = await store.query<{ runs: number }>(
      'SELECT count(*)::int AS runs FROM flakeguard_runs WHERE started_at < $1::timestamptz',
      [cutoff],
    );
    return { runs: row?.runs ?? 0, tests: 0 };
  }
  const runs = await pruneRuns(store, cutoff, options);
  const tests = await tidySummariesAndTests(store, day);
  return { runs, tests };
}

/** The old runs and their results, a batch per transaction. */
async function pruneRuns(store: HistoryStore, cutoff: string, options: PruneOptions): Promise<number> {
  let runs = 0;
  for (;;) {
    const deleted = await store.transaction(async (q) => {
      await lock(q);
      const ids = (await q.query<{ id: number }>(OLD_RUNS, [cutoff, options.batchRuns ?? PRUNE_BATCH])).map(
        (r) => r.id,
      );
      if (ids.length === 0) return 0;
      await q.query('DELETE FROM flakeguard_results WHERE run_id = ANY($1::int[])', [ids]);
      await q.query('DELETE FROM flakeguard_run_durations WHERE run_id = ANY($1::int[])', [ids]);
      await q.query('DELETE FROM flakeguard_open_failures WHERE run_id = ANY($1::int[])', [ids]);
      await q.query('DELETE FROM flakeguard_runs WHERE id = ANY($1::int[])', [ids]);
      return ids.length;
    });
    runs += deleted;
    if (deleted === 0) break;
    await options.afterBatch?.();
  }
  return runs;
}

/** Per range of test ids: the day rows before the cutoff's day folded into the floor, and the tests left without a result. */
async function tidySummariesAndTests(store: HistoryStore, day: string): Promise<number> {
  const [{ top } = { top: 0 }] = await store.query<{ top: number }>(
    'SELECT coalesce(max(id), 0)::int AS top FROM flakeguard_tests',
  );
  let tests = 0;
  for (let from = 0; from <= top; from += TEST_BATCH) {
    const to = from + TEST_BATCH;
    tests += await store.transaction(async (q) => {
      await lock(q);
      await q.query(DROP_OLD_DAYS, [day, from, to]);
      await q.query(FLOOR_DAYS, [day, from, to]);
      await q.query(REFRESH_KEYS, [from, to]);
      await q.query(EXACT_BOUNDS, [from, to]);
      const gone = (await q.query<{ id: number }>(GONE_TESTS, [from, to])).map((r) => r.id);
      if (gone.length > 0) {
        await q.query('DELETE FROM flakeguard_test_days WHERE test_id = ANY($1::int[])', [gone]);
        await q.query('DELETE FROM flakeguard_test_keys WHERE test_id = ANY($1::int[])', [gone]);
        await q.query('DELETE FROM flakeguard_open_failures WHERE test_id = ANY($1::int[])', [gone]);
      }
      return gone.length;
    });
  }
  return tests;
}
