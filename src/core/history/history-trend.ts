/**
 * A test's duration trend and the one rule for when history may project a crossing of its limit,
 * used by the history report and page, triage's budget evidence, the gate's history column and the
 * reporter's quarantine block. The slope is Theil-Sen with Sen's 95% interval (trend-interval.ts),
 * per run (x = the run's place among the test's finished runs, failed runs included) and per day
 * (x = start time; only when the runs span a day). A crossing is claimed only when:
 *   - there are at least PROJECT_MIN_RUNS passed runs, and
 *   - the interval's lower bound is above zero (the test is slowing, at 95% confidence);
 * then the time to the limit is given as a range: the crossings of the lines with the interval's
 * two slopes (each through the points, Sen's intercept), around that of the fitted line. A line
 * already at or over the limit is "at its limit" (0), with the same minimum of runs. Pure.
 */
import { quantileSorted } from 'simple-statistics';
import { lineLevel, senSlope } from './trend-interval.js';

/** Fewer passed runs than this never project a crossing (documented in docs/history.md). */
export const PROJECT_MIN_RUNS = 10;
/** A projected crossing within this many days (or runs, without a per-day trend) makes a test "near its limit". */
export const NEAR_HORIZON_DAYS = 14;
export const NEAR_HORIZON_RUNS = 50;
/** "Recent" for the p95 that makes a test near its limit: its newest passed runs. */
const RECENT_RUNS = 20;
const DAY_MS = 86_400_000;

/** One finished run of a test, oldest first: a failed run has no duration that counts. */
export interface TrendPoint {
  readonly atMs: number;
  readonly durationMs: number | null;
  readonly passed: boolean;
}

type Projection =
  | { readonly kind: 'too-few-runs'; readonly runs: number }
  | { readonly kind: 'no-significant-trend' }
  | { readonly kind: 'at-limit' }
  | { readonly kind: 'crossing'; readonly at: number; readonly range: readonly [number, number] };

export interface AxisTrend {
  readonly slope: number;
  readonly low: number | null;
  readonly high: number | null;
  /** The fitted line's value at the newest run. */
  readonly level: number;
  readonly projection: Projection;
}

export interface DurationTrend {
  /** Passed runs the trend is fitted on. */
  readonly runs: number;
  readonly perRun: AxisTrend | null;
  readonly perDay: AxisTrend | null;
}

/** The time to the limit along one axis, or null when no crossing is claimed (0 = at it now). */
export function unitsToLimit(axis: AxisTrend | null): number | null {
  if (axis === null) return null;
  return axis.projection.kind === 'at-limit' ? 0 : axis.projection.kind === 'crossing' ? axis.projection.at : null;
}

export function unitsToLimitRange(axis: AxisTrend | null): readonly [number, number] | null {
  if (axis === null) return null;
  return axis.projection.kind === 'at-limit'
    ? [0, 0]
    : axis.projection.kind === 'crossing'
      ? axis.projection.range
      : null;
}

function crossingWith(xs: readonly number[], ys: readonly number[], slope: number, limitMs: number): number {
  return Math.max(0, (limitMs - lineLevel(xs, ys, slope)) / slope);
}

function fitAxis(xs: readonly number[], ys: readonly number[], limitMs: number): AxisTrend | null {
  const sen = senSlope(xs, ys);
  if (sen === null) return null;
  const level = lineLevel(xs, ys, sen.slope);
  const base = { slope: sen.slope, low: sen.low, high: sen.high, level };
  if (sen.n < PROJECT_MIN_RUNS) return { ...base, projection: { kind: 'too-few-runs', runs: sen.n } };
  if (level >= limitMs) return { ...base, projection: { kind: 'at-limit' } };
  if (sen.low === null || !(sen.low > 0)) return { ...base, projection: { kind: 'no-significant-trend' } };
  const at = (limitMs - level) / sen.slope;
  const ends = [
    at,
    crossingWith(xs, ys, sen.low, limitMs),
    sen.high === null ? at : crossingWith(xs, ys, sen.high, limitMs),
  ];
  return { ...base, projection: { kind: 'crossing', at, range: [Math.min(...ends), Math.max(...ends)] } };
}

/** The trend of a test's finished runs (oldest first) against its limit. */
export function computeDurationTrend(points: readonly TrendPoint[], limitMs: number): DurationTrend {
  const runX: number[] = [];
  const dayX: number[] = [];
  const ys: number[] = [];
  points.forEach((p, i) => {
    if (!p.passed || p.durationMs === null || !Number.isFinite(p.durationMs)) return;
    runX.push(i);
    dayX.push(p.atMs / DAY_MS);
    ys.push(p.durationMs);
  });
  // A slope per day needs runs on more than one day: minutes apart, noise would read as a huge slope.
  const spansDays = dayX.length > 1 && dayX[dayX.length - 1]! - dayX[0]! >= 1;
  return { runs: ys.length, perRun: fitAxis(runX, ys, limitMs), perDay: spansDays ? fitAxis(dayX, ys, limitMs) : null };
}

/** The p95 of the newest RECENT_RUNS passed durations, or null without one. */
export function recentP95(points: readonly TrendPoint[]): number | null {
  const recent = points
    .filter((p) => p.passed && p.durationMs !== null)
    .slice(-RECENT_RUNS)
    .map((p) => p.durationMs as number)
    .sort((a, b) => a - b);
  return recent.length === 0 ? null : quantileSorted(recent, 0.95);
}

/** Why a test is near its limit: its recent p95 is over it, at or above warnAt of it, or a crossing is projected within the horizon. */
export type NearLimit = 'over' | 'warn' | 'crossing';

export function nearLimit(
  p95Ms: number | null,
  limitMs: number,
  warnAt: number,
  trend: DurationTrend | null,
): NearLimit | null {
  if (p95Ms !== null && p95Ms > limitMs) return 'over';
  if (trend !== null && (unitsToLimit(trend.perDay) === 0 || unitsToLimit(trend.perRun) === 0)) return 'over';
  if (p95Ms !== null && p95Ms >= limitMs * warnAt) return 'warn';
  const days = unitsToLimit(trend?.perDay ?? null);
  const runs = unitsToLimit(trend?.perRun ?? null);
  if (days !== null ? days <= NEAR_HORIZON_DAYS : runs !== null && runs <= NEAR_HORIZON_RUNS) return 'crossing';
  return null;
}

/** A test's trend from stored runs, newest first (as the store gives them): the newest run's platform only. */
export function trendOfStoredRuns(
  runs: readonly {
    readonly startedAt: string;
    readonly platform: string;
    readonly state: string;
    readonly durationMs: number | null;
    readonly limitMs: number;
  }[],
): { readonly platform: string; readonly limitMs: number; readonly trend: DurationTrend } | null {
  const newest = runs.find((r) => r.state === 'passed' || r.state === 'failed');
  if (newest === undefined) return null;
  const points = runs
    .filter((r) => r.platform === newest.platform && (r.state === 'passed' || r.state === 'failed'))
    .reverse()
    .map((r) => ({ atMs: Date.parse(r.startedAt), durationMs: r.durationMs, passed: r.state === 'passed' }));
  return { platform: newest.platform, limitMs: newest.limitMs, trend: computeDurationTrend(points, newest.limitMs) };
}
