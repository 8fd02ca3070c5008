/**
 * A robust duration trend: the Theil-Sen slope (the median of the slopes between every pair of
 * points), which one slow run on a busy machine cannot tilt the way it tilts a least-squares line,
 * and the time left before the line crosses a limit. Pure.
 */
import { median } from 'simple-statistics';

export interface Trend {
  /** Change of the duration per unit of x (ms per run, or ms per day). */
  readonly slope: number;
  /** The line's value at the last x: the current level, free of the last run's noise. */
  readonly level: number;
}

/** Points beyond this many (the most recent are kept) would cost n² pairs for little gain. */
export const TREND_MAX_POINTS = 200;
/** Fewer points than this give no trend. */
export const TREND_MIN_POINTS = 3;

export function theilSen(xs: readonly number[], ys: readonly number[]): Trend | null {
  const n = Math.min(xs.length, ys.length);
  const from = Math.max(0, n - TREND_MAX_POINTS);
  const slopes: number[] = [];
  for (let i = from; i < n; i += 1) {
    for (let j = i + 1; j < n; j += 1) {
      const dx = xs[j]! - xs[i]!;
      if (dx !== 0) slopes.push((ys[j]! - ys[i]!) / dx);
    }
  }
  if (n - from < TREND_MIN_POINTS || slopes.length === 0) return null;
  const slope = median(slopes);
  const offsets: number[] = [];
  for (let i = from; i < n; i += 1) offsets.push(ys[i]! - slope * xs[i]!);
  const lastX = xs[n - 1]!;
  return { slope, level: median(offsets) + slope * lastX };
}

/**
 * How many units of x until the trend line reaches `limit`: 0 when it is there already, null when
 * it is flat or falling (it never crosses at this slope).
 */
export function unitsToLimit(trend: Trend, limit: number): number | null {
  if (trend.level >= limit) return 0;
  if (!(trend.slope > 0)) return null;
  return (limit - trend.level) / trend.slope;
}
