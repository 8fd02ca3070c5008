/**
 * One test on one platform in the history report: its durations, its trend with Sen's 95% interval,
 * the crossing of its limit only when the projection rule claims one (core/history/history-trend.ts),
 * and whether it is near its limit. Pure.
 */
import {
  type AxisTrend,
  computeDurationTrend,
  type DurationTrend,
  type NearLimit,
  nearLimit,
  recentP95,
  unitsToLimit,
  unitsToLimitRange,
} from './history-trend.js';

export interface SeriesPoint {
  readonly testId: number;
  readonly platform: string;
  readonly atMs: number;
  readonly durationMs: number;
  readonly state: 'passed' | 'failed';
}

/** Durations of the passed runs of one test on one platform. */
export interface PlatformAggregate {
  readonly testId: number;
  readonly platform: string;
  readonly runs: number;
  readonly medianMs: number;
  readonly p95Ms: number;
  /** The limit in the newest run. */
  readonly limitMs: number;
  /**
   * Set when the durations were not read (history-summary.ts): the true median and p95 lie in
   * [low, high], and medianMs and p95Ms stand at `low`.
   */
  readonly unread?: { readonly low: number; readonly high: number };
}

export interface DurationSummary {
  readonly median: number;
  readonly p95: number;
}

/** A 95% interval; a side is null when it is unbounded with so few runs. */
type Bounds = readonly [number | null, number | null];

/** The slope and crossing figures of a trend, as the JSON gives them (history, gate). */
export interface SlopeFigures {
  readonly trendMsPerRun: number | null;
  readonly trendMsPerRunBounds: Bounds | null;
  readonly trendMsPerDay: number | null;
  readonly trendMsPerDayBounds: Bounds | null;
  /** null unless a crossing is claimed (0: at or over the limit now). */
  readonly runsToLimit: number | null;
  readonly runsToLimitRange: readonly [number, number] | null;
  readonly daysToLimit: number | null;
  readonly daysToLimitRange: readonly [number, number] | null;
}

/** The trend figures of the history JSON, per platform and (for the headline platform) per test. */
export interface TrendFigures extends SlopeFigures {
  /** p95 of the newest passed runs (RECENT_RUNS), from the series; the window's p95 without one. */
  readonly recentP95Ms: number | null;
  readonly nearLimit: NearLimit | null;
}

export interface HistoryPlatform extends TrendFigures {
  readonly platform: string;
  readonly runs: number;
  readonly durationMs: DurationSummary;
  readonly limitMs: number;
  /** The trend (not in the JSON: its figures are); null for a test whose series was not read. */
  readonly trend: DurationTrend | null;
  /** Every run in the window, oldest first (the chart's points; not in the JSON). */
  readonly points: readonly SeriesPoint[];
}

export const round = (v: number | null, digits: number): number | null =>
  v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits;
const roundPair = <T extends number | null>(pair: readonly [T, T] | null, digits: number): readonly [T, T] | null =>
  pair === null ? null : ([round(pair[0], digits), round(pair[1], digits)] as unknown as readonly [T, T]);
const bounds = (axis: AxisTrend | null): Bounds | null => (axis === null ? null : roundPair([axis.low, axis.high], 2));

export function slopeFigures(trend: DurationTrend | null): SlopeFigures {
  return {
    trendMsPerRun: round(trend?.perRun?.slope ?? null, 2),
    trendMsPerRunBounds: bounds(trend?.perRun ?? null),
    trendMsPerDay: round(trend?.perDay?.slope ?? null, 2),
    trendMsPerDayBounds: bounds(trend?.perDay ?? null),
    runsToLimit: round(unitsToLimit(trend?.perRun ?? null), 1),
    runsToLimitRange: roundPair(unitsToLimitRange(trend?.perRun ?? null), 1),
    daysToLimit: round(unitsToLimit(trend?.perDay ?? null), 1),
    daysToLimitRange: roundPair(unitsToLimitRange(trend?.perDay ?? null), 1),
  };
}

export function computePlatform(p: PlatformAggregate, points: readonly SeriesPoint[], warnAt: number): HistoryPlatform {
  const trendPoints = points.map((s) => ({ atMs: s.atMs, durationMs: s.durationMs, passed: s.state === 'passed' }));
  const trend = points.length === 0 ? null : computeDurationTrend(trendPoints, p.limitMs);
  const p95 = points.length === 0 ? p.p95Ms : recentP95(trendPoints);
  return {
    platform: p.platform,
    runs: p.runs,
    durationMs: { median: round(p.medianMs, 2)!, p95: round(p.p95Ms, 2)! },
    limitMs: p.limitMs,
    ...slopeFigures(trend),
    recentP95Ms: round(p95, 2),
    nearLimit: nearLimit(p95, p.limitMs, warnAt, trend),
    trend,
    points,
  };
}

const NEAR_RANK: Record<NearLimit, number> = { over: 0, crossing: 1, warn: 1 };

/** Nearest to its limit first: over it, then a claimed crossing in fewer days (else runs), then the largest share of the limit. */
export function byUrgency(a: HistoryPlatform, b: HistoryPlatform): number {
  const far = Number.POSITIVE_INFINITY;
  const na = a.nearLimit === null ? 2 : NEAR_RANK[a.nearLimit];
  const nb = b.nearLimit === null ? 2 : NEAR_RANK[b.nearLimit];
  if (na !== nb) return na - nb;
  const da = a.daysToLimit ?? far;
  const db = b.daysToLimit ?? far;
  if (da !== db) return da - db;
  const ra = a.runsToLimit ?? far;
  const rb = b.runsToLimit ?? far;
  if (ra !== rb) return ra - rb;
  const share = (p: HistoryPlatform): number => (p.recentP95Ms ?? p.durationMs.p95) / p.limitMs;
  return share(b) - share(a);
}
