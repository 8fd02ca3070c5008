/**
 * The trend candidates' newest results in the window, per test and platform (history-query.ts): a
 * bounded index range each (the covering series index, schema 4), sent as one row a key with its
 * starts, durations and failed flags as arrays (array text, parsed natively: 24,000 points are 120
 * rows, not 24,000), cut in core to the trend's window.
 */
import type { SeriesPoint } from '../../core/history/history-report.js';
import { newestSeriesLength } from '../../core/history/history-summary.js';
import { TREND_MAX_POINTS } from '../../core/history/trend-interval.js';
import { numbersOfArrayText } from './array-text.js';
import type { Queryable } from './history-store.js';

/**
 * Rows a key's series read stops at: TREND_MAX_POINTS passed runs and the failed ones among them
 * (1 in 5 failed); a key that had more failed runs is read again, up to SERIES_ROWS_MORE.
 */
const SERIES_ROWS = 250;
const SERIES_ROWS_MORE = 2000;

/** A branch filter in its own SQL text, so each engine plans the index it can use. */
const onBranch = (branch: string | null) => (branch === null ? '' : 'AND r.branch = $5');

// Newest first within a key, as the rows were read before they became arrays. The start in ms from
// date_part (float8): extract() gives numeric since PostgreSQL 14, whose arithmetic on 24,000 rows
// took 10 of 32 ms; the starts are whole milliseconds (run records), so both round alike.
const seriesSql = (branch: string | null) => `SELECT k.test_id AS "testId", k.platform,
    s.at::text AS "atMs", s.ms::text AS "durationMs", s.failed::text AS failed
  FROM (SELECT DISTINCT test_id, platform FROM flakeguard_test_keys WHERE scope = $1 AND test_id = ANY($2::int[])) k
  CROSS JOIN LATERAL (SELECT array_agg(p.at ORDER BY p.started_at DESC, p.run_id DESC) AS at,
      array_agg(p.duration_ms ORDER BY p.started_at DESC, p.run_id DESC) AS ms,
      array_agg(p.failed ORDER BY p.started_at DESC, p.run_id DESC) AS failed
    FROM (SELECT round(date_part('epoch', r.started_at) * 1000) AS at, r.started_at, r.run_id, r.duration_ms,
        (r.state = 'failed')::int AS failed
      FROM flakeguard_results r
      WHERE r.test_id = k.test_id AND r.platform = k.platform AND r.started_at >= $3::timestamptz ${onBranch(branch)}
        AND r.state IN ('passed', 'failed') AND r.duration_ms IS NOT NULL
      ORDER BY r.started_at DESC, r.run_id DESC LIMIT $4) p) s
  WHERE s.at IS NOT NULL
  ORDER BY k.test_id, k.platform`;

interface SeriesRow {
  readonly testId: number;
  readonly platform: string;
  readonly atMs: string;
  readonly durationMs: string;
  readonly failed: string;
}

/** One key's points as the trend reads them (newestSeries), and how many rows the store sent. */
interface KeySeries {
  readonly testId: number;
  readonly rows: number;
  readonly passed: number;
  readonly points: SeriesPoint[];
}

/** A key's points, cut before they are made (newestSeriesLength), oldest first. */
function pointsOf(row: SeriesRow): KeySeries {
  const at = numbersOfArrayText(row.atMs) ?? [];
  const ms = numbersOfArrayText(row.durationMs) ?? [];
  const failed = numbersOfArrayText(row.failed) ?? [];
  const kept = newestSeriesLength(at.length, (i) => failed[i] !== 1);
  const points: SeriesPoint[] = [];
  let passed = 0;
  for (let i = kept - 1; i >= 0; i -= 1) {
    const state = failed[i] === 1 ? 'failed' : 'passed';
    if (state === 'passed') passed += 1;
    points.push({ testId: row.testId, platform: row.platform, atMs: at[i]!, durationMs: ms[i]!, state });
  }
  return { testId: row.testId, rows: at.length, passed, points };
}

/** The candidates' newest results in the window per platform, cut to the trend's window, oldest first. */
export async function readSeries(
  q: Queryable,
  scope: string,
  ids: readonly number[],
  start: string,
  branch: string | null,
): Promise<SeriesPoint[]> {
  const read = async (testIds: readonly number[], limit: number): Promise<KeySeries[]> => {
    const params = [scope, testIds, start, limit];
    const rows = await q.query<SeriesRow>(seriesSql(branch), branch === null ? params : [...params, branch]);
    return rows.map(pointsOf);
  };
  // A key whose rows ran out before TREND_MAX_POINTS passed ones is read again with twice the rows,
  // up to SERIES_ROWS_MORE: a test failing 1 run in 4 needs 270 rows, not 2,000.
  const short = (k: KeySeries, limit: number) =>
    k.rows === limit && limit < SERIES_ROWS_MORE && k.passed < TREND_MAX_POINTS;
  let limit = SERIES_ROWS;
  let keys = await read(ids, limit);
  for (;;) {
    const again = new Set(keys.filter((k) => short(k, limit)).map((k) => k.testId));
    if (again.size === 0) break;
    limit = Math.min(limit * 2, SERIES_ROWS_MORE);
    keys = [...keys.filter((k) => !again.has(k.testId)), ...(await read([...again], limit))];
  }
  return keys.flatMap((k) => k.points);
}
