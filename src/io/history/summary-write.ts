/**
 * Applies summary deltas (core/history/summary-deltas.ts) to `flakeguard_test_days`, whose rows are
 * totals through the end of their day. A key's row for the delta's day becomes the newest row up
 * to that day plus the delta (inserted, or the same row updated); when the day is not the key's
 * newest (a record stored late, a failure found re-run-passed), the later rows get the delta too.
 * Each touched key's totals (flakeguard_test_keys, schema 6) become its newest row again. Callers
 * hold the ingest lock (history-ingest.ts), so no other writer moves these rows meanwhile.
 */
import { refreshKeyTotals, TOTALS_COLUMNS } from '../../core/history/history-schema-key-totals.js';
import { RECENT_SUMMARY } from '../../core/history/history-schema-summaries.js';
import type { SummaryDeltas } from '../../core/history/summary-deltas.js';
import type { Queryable } from './store-types.js';

const DELTAS = `x AS (SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::date[], $6::int[], $7::int[],
    $8::int[], $9::int[], $10::int[], $11::int[], $12::float8[], $13::int[], $14::float8[], $15::float8[])
  AS x (scope, test_id, platform, shard, day, runs, failed, retried, rerun, flaked, passed, at, run, lim, ms))`;

const SAME_KEY = (t: string) =>
  `${t}.scope = x.scope AND ${t}.test_id = x.test_id AND ${t}.platform = x.platform AND ${t}.shard = x.shard`;

/** The newest RECENT_SUMMARY of `b`'s durations and x's, oldest first (`col`: ms or at). */
const merged = (b: string, col: 'ms' | 'at') =>
  `(SELECT array_agg(v.${col} ORDER BY v.at, v.ms) FROM (SELECT * FROM unnest(coalesce(${b}.recent_ms, '{}') || x.ms,
    coalesce(${b}.recent_at, '{}') || x.at) AS v (ms, at) ORDER BY v.at DESC, v.ms DESC LIMIT ${RECENT_SUMMARY}) v)`;

/** x appended to `b`'s newest durations when it is the newest (the usual case), else merged. */
const recent = (b: string, col: 'ms' | 'at') => `CASE WHEN x.ms IS NULL THEN ${b}.recent_${col}
    WHEN ${b}.recent_at IS NULL OR cardinality(${b}.recent_at) = 0 OR x.at >= ${b}.recent_at[cardinality(${b}.recent_at)]
      THEN (coalesce(${b}.recent_${col}, '{}') || x.${col})[greatest(1, coalesce(cardinality(${b}.recent_${col}), 0) - ${RECENT_SUMMARY - 2}):]
    ELSE ${merged(b, col)} END`;

const newer = (b: string) => `x.at IS NOT NULL AND (${b}.last_passed_at IS NULL OR x.at >= ${b}.last_passed_at)`;

const UPSERT = `INSERT INTO flakeguard_test_days AS d (scope, test_id, platform, shard, day, runs, failed_runs, retried_runs,
    rerun_passed_runs, flaked_runs, passed_runs, last_passed_at, last_passed_run, last_limit_ms, recent_ms, recent_at)
  SELECT x.scope, x.test_id, x.platform, x.shard, x.day, coalesce(b.runs, 0) + x.runs, coalesce(b.failed_runs, 0) + x.failed,
    coalesce(b.retried_runs, 0) + x.retried, coalesce(b.rerun_passed_runs, 0) + x.rerun,
    coalesce(b.flaked_runs, 0) + x.flaked, coalesce(b.passed_runs, 0) + x.passed,
    CASE WHEN ${newer('b')} THEN x.at ELSE b.last_passed_at END,
    CASE WHEN ${newer('b')} THEN x.run ELSE b.last_passed_run END,
    CASE WHEN ${newer('b')} THEN x.lim ELSE b.last_limit_ms END,
    ${recent('b', 'ms')}, ${recent('b', 'at')}
  FROM x LEFT JOIN LATERAL (SELECT * FROM flakeguard_test_days p WHERE ${SAME_KEY('p')} AND p.day <= x.day
    ORDER BY p.day DESC LIMIT 1) b ON true
  ON CONFLICT (scope, test_id, platform, shard, day) DO UPDATE SET runs = excluded.runs, failed_runs = excluded.failed_runs,
    retried_runs = excluded.retried_runs, rerun_passed_runs = excluded.rerun_passed_runs, flaked_runs = excluded.flaked_runs,
    passed_runs = excluded.passed_runs, last_passed_at = excluded.last_passed_at, last_passed_run = excluded.last_passed_run,
    last_limit_ms = excluded.last_limit_ms, recent_ms = excluded.recent_ms, recent_at = excluded.recent_at`;

const UPSERT_DAY = `WITH ${DELTAS} ${UPSERT}`;

/** The usual case, every delta of one day and none before the store's newest: the upserted rows are the keys' newest. */
const UPSERT_DAY_AND_KEYS = `WITH ${DELTAS}, up AS (${UPSERT} RETURNING d.*)
  UPDATE flakeguard_test_keys k SET (${TOTALS_COLUMNS.join(', ')}) = (${TOTALS_COLUMNS.map((c) => `up.${c}`).join(', ')})
  FROM up WHERE ${SAME_KEY('k').replaceAll('x.', 'up.')}`;

/** Otherwise each touched key's totals are read again from its newest row. */
const REFRESH_KEYS = `WITH ${DELTAS} ${refreshKeyTotals('(SELECT DISTINCT scope, test_id, platform, shard FROM x) y')}`;

const UPDATE_LATER = `WITH ${DELTAS}
  UPDATE flakeguard_test_days d SET runs = d.runs + x.runs, failed_runs = d.failed_runs + x.failed,
    retried_runs = d.retried_runs + x.retried, rerun_passed_runs = d.rerun_passed_runs + x.rerun,
    flaked_runs = d.flaked_runs + x.flaked, passed_runs = d.passed_runs + x.passed,
    last_passed_at = CASE WHEN ${newer('d')} THEN x.at ELSE d.last_passed_at END,
    last_passed_run = CASE WHEN ${newer('d')} THEN x.run ELSE d.last_passed_run END,
    last_limit_ms = CASE WHEN ${newer('d')} THEN x.lim ELSE d.last_limit_ms END,
    recent_ms = CASE WHEN x.ms IS NULL THEN d.recent_ms ELSE ${merged('d', 'ms')} END,
    recent_at = CASE WHEN x.ms IS NULL THEN d.recent_at ELSE ${merged('d', 'at')} END
  FROM x WHERE ${SAME_KEY('d')} AND d.day > x.day`;

const INSERT_KEYS = `WITH ${DELTAS}
  INSERT INTO flakeguard_test_keys (scope, test_id, platform, shard)
  SELECT DISTINCT x.scope, x.test_id, x.platform, x.shard FROM x
  WHERE NOT EXISTS (SELECT 1 FROM flakeguard_test_keys k WHERE ${SAME_KEY('k')})
  ON CONFLICT DO NOTHING`;

const NEWEST_DAY = "SELECT value FROM flakeguard_meta WHERE key = 'summary_newest_day'";
const SET_NEWEST_DAY = `INSERT INTO flakeguard_meta (key, value) VALUES ('summary_newest_day', $1)
  ON CONFLICT (key) DO UPDATE SET value = greatest(flakeguard_meta.value, EXCLUDED.value)`;

const columns = (d: SummaryDeltas): unknown[] => [
  d.scope,
  d.testId,
  d.platform,
  d.shard,
  d.day,
  d.runs,
  d.failed,
  d.retried,
  d.rerun,
  d.flaked,
  d.passed,
  d.at,
  d.run,
  d.limitMs,
  d.ms,
];

/** Adds the deltas to the summaries. `newKeys`: some keys may be new (a run's results; not re-run deltas). */
export async function applySummaryDeltas(q: Queryable, deltas: SummaryDeltas, newKeys: boolean): Promise<void> {
  if (deltas.scope.length === 0) return;
  const params = columns(deltas);
  if (newKeys) await q.query(INSERT_KEYS, params);
  const oldest = deltas.day.reduce((a, b) => (b < a ? b : a));
  const newest = deltas.day.reduce((a, b) => (b > a ? b : a));
  const [stored] = await q.query<{ value: string }>(NEWEST_DAY);
  // Rows after the deltas' days exist only when a day before the store's newest is touched.
  const late = stored !== undefined && stored.value > oldest;
  if (!late && oldest === newest) await q.query(UPSERT_DAY_AND_KEYS, params);
  else {
    await q.query(UPSERT_DAY, params);
    if (late) await q.query(UPDATE_LATER, params);
    await q.query(REFRESH_KEYS, params);
  }
  if (stored === undefined || stored.value < newest) await q.query(SET_NEWEST_DAY, [newest]);
}
