/**
 * Applies summary deltas (core/history/summary-deltas.ts) to the summaries (schema 6): the day rows
 * of `flakeguard_test_days`, totals through the end of their day, and each key's row in
 * `flakeguard_test_keys`, its newest totals and newest passed durations. A key's row for the
 * delta's day becomes the newest row up to that day plus the delta (inserted, or the same row
 * updated); when the day is not the key's newest (a record stored late, a failure found
 * re-run-passed), the later rows get the delta too. In the usual case (one day, the store's
 * newest) the key's totals are that newest row, so both rows are written from the key's row plus
 * the delta in one statement. Callers hold the ingest lock (history-ingest.ts), so no other
 * writer moves these rows meanwhile.
 */
import {
  COUNT_COLUMNS,
  exactDurationBounds,
  PASS_COLUMNS,
  refreshKeyTotals,
  SAME_KEY,
} from '../../core/history/history-schema-key-totals.js';
import { RECENT_SUMMARY } from '../../core/history/history-schema-summaries.js';
import type { SummaryDeltas } from '../../core/history/summary-deltas.js';
import type { Queryable } from './store-types.js';

const DELTAS = `x AS (SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::date[], $6::int[], $7::int[],
    $8::int[], $9::int[], $10::int[], $11::int[], $12::float8[], $13::int[], $14::float8[], $15::float8[])
  AS x (scope, test_id, platform, shard, day, runs, failed, retried, rerun, flaked, passed, at, run, lim, ms))`;

const KEY = 'scope, test_id, platform, shard';
const SHARED = [...COUNT_COLUMNS, ...PASS_COLUMNS].join(', ');

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

/** `b`'s totals plus the delta x, named as the columns (b: a day row or a key's row; absent: zero). */
const plusDelta = (
  b: string,
) => `coalesce(${b}.runs, 0) + x.runs AS runs, coalesce(${b}.failed_runs, 0) + x.failed AS failed_runs,
    coalesce(${b}.retried_runs, 0) + x.retried AS retried_runs, coalesce(${b}.rerun_passed_runs, 0) + x.rerun AS rerun_passed_runs,
    coalesce(${b}.flaked_runs, 0) + x.flaked AS flaked_runs, coalesce(${b}.passed_runs, 0) + x.passed AS passed_runs,
    CASE WHEN ${newer(b)} THEN x.at ELSE ${b}.last_passed_at END AS last_passed_at,
    CASE WHEN ${newer(b)} THEN x.run ELSE ${b}.last_passed_run END AS last_passed_run,
    CASE WHEN ${newer(b)} THEN x.lim ELSE ${b}.last_limit_ms END AS last_limit_ms`;

const SET_SHARED = `(${SHARED}) = (${[...COUNT_COLUMNS, ...PASS_COLUMNS].map((c) => `excluded.${c}`).join(', ')})`;

/**
 * The bounds of the key's durations after the delta: valid, not tight (the lowest and highest
 * ever appended; the newest start is exact), set exactly after a late record or a prune.
 */
const BOUNDS = `CASE WHEN x.ms IS NULL THEN o.recent_low ELSE least(o.recent_low, x.ms) END AS recent_low,
      CASE WHEN x.ms IS NULL THEN o.recent_high ELSE greatest(o.recent_high, x.ms) END AS recent_high,
      CASE WHEN x.ms IS NULL THEN o.recent_newest ELSE greatest(o.recent_newest, x.at) END AS recent_newest`;
const RECENT = 'recent_ms, recent_at, recent_low, recent_high, recent_newest';
const RECENT_EXCLUDED = RECENT.split(', ')
  .map((c) => `excluded.${c}`)
  .join(', ');

/** The usual case: each key's new totals (its row plus the delta) written to its day row and its key row. */
const UPSERT_DAY_AND_KEYS = `WITH ${DELTAS}, n AS (
    SELECT x.scope, x.test_id, x.platform, x.shard, x.day, ${plusDelta('o')}, ${recent('o', 'ms')} AS recent_ms,
      ${recent('o', 'at')} AS recent_at, ${BOUNDS}
    FROM x LEFT JOIN LATERAL (SELECT * FROM flakeguard_test_keys o WHERE ${SAME_KEY('o', 'x')} LIMIT 1) o ON true
  ), days AS (INSERT INTO flakeguard_test_days (${KEY}, day, ${SHARED}) SELECT ${KEY}, day, ${SHARED} FROM n
    ON CONFLICT (${KEY}, day) DO UPDATE SET ${SET_SHARED})
  INSERT INTO flakeguard_test_keys (${KEY}, ${SHARED}, ${RECENT}) SELECT ${KEY}, ${SHARED}, ${RECENT} FROM n
  ON CONFLICT (${KEY}) DO UPDATE SET ${SET_SHARED}, (${RECENT}) = (${RECENT_EXCLUDED})`;

/** Otherwise: the day rows from the newest row up to their day... */
const UPSERT_DAY = `WITH ${DELTAS}
  INSERT INTO flakeguard_test_days (${KEY}, day, ${SHARED})
  SELECT x.scope, x.test_id, x.platform, x.shard, x.day, ${plusDelta('b')}
  FROM x LEFT JOIN LATERAL (SELECT * FROM flakeguard_test_days p WHERE ${SAME_KEY('p', 'x')} AND p.day <= x.day
    ORDER BY p.day DESC LIMIT 1) b ON true
  ON CONFLICT (${KEY}, day) DO UPDATE SET ${SET_SHARED}`;

/** ...the later rows plus the delta... */
const UPDATE_LATER = `WITH ${DELTAS}
  UPDATE flakeguard_test_days d SET runs = d.runs + x.runs, failed_runs = d.failed_runs + x.failed,
    retried_runs = d.retried_runs + x.retried, rerun_passed_runs = d.rerun_passed_runs + x.rerun,
    flaked_runs = d.flaked_runs + x.flaked, passed_runs = d.passed_runs + x.passed,
    last_passed_at = CASE WHEN ${newer('d')} THEN x.at ELSE d.last_passed_at END,
    last_passed_run = CASE WHEN ${newer('d')} THEN x.run ELSE d.last_passed_run END,
    last_limit_ms = CASE WHEN ${newer('d')} THEN x.lim ELSE d.last_limit_ms END
  FROM x WHERE ${SAME_KEY('d', 'x')} AND d.day > x.day`;

const INSERT_KEYS = `WITH ${DELTAS}
  INSERT INTO flakeguard_test_keys (${KEY}) SELECT DISTINCT ${KEY} FROM x ON CONFLICT DO NOTHING`;

/** The newest RECENT_SUMMARY of the durations of key row k and of the deltas x of its key y. */
const NEWEST_OF_KEY_AND_X = `SELECT u.ms, u.at FROM (
    SELECT * FROM unnest(coalesce(k.recent_ms, '{}'), coalesce(k.recent_at, '{}')) AS p (ms, at)
    UNION ALL SELECT x.ms, x.at FROM x WHERE ${SAME_KEY('x', 'y')} AND x.ms IS NOT NULL) u
  ORDER BY u.at DESC, u.ms DESC LIMIT ${RECENT_SUMMARY}`;

/** ...then each touched key's totals from its newest row, and its durations merged with the deltas'. */
const REFRESH_KEYS = `WITH ${DELTAS} ${refreshKeyTotals(
  `(SELECT DISTINCT ${KEY} FROM x) y`,
  'true',
  `(SELECT array_agg(v.ms ORDER BY v.at, v.ms) FROM (${NEWEST_OF_KEY_AND_X}) v),
    (SELECT array_agg(v.at ORDER BY v.at, v.ms) FROM (${NEWEST_OF_KEY_AND_X}) v)`,
)}`;

/** ...and the bounds of their durations, exactly. */
const EXACT_BOUNDS = `WITH ${DELTAS} ${exactDurationBounds(`(SELECT DISTINCT ${KEY} FROM x) y`, 'true')}`;

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
  const oldest = deltas.day.reduce((a, b) => (b < a ? b : a));
  const newest = deltas.day.reduce((a, b) => (b > a ? b : a));
  const [stored] = await q.query<{ value: string }>(NEWEST_DAY);
  // Rows after the deltas' days exist only when a day before the store's newest is touched.
  const late = stored !== undefined && stored.value > oldest;
  if (!late && oldest === newest) await q.query(UPSERT_DAY_AND_KEYS, params);
  else {
    if (newKeys) await q.query(INSERT_KEYS, params);
    await q.query(UPSERT_DAY, params);
    if (late) await q.query(UPDATE_LATER, params);
    await q.query(REFRESH_KEYS, params);
    await q.query(EXACT_BOUNDS, params);
  }
  if (stored === undefined || stored.value < newest) await q.query(SET_NEWEST_DAY, [newest]);
}
