/**
 * The Theil-Sen slope of a series and Sen's distribution-free 95% confidence interval for it, from
 * the Kendall statistic. Nothing is assumed of the noise but that it is independent of x.
 *
 * Sources: P. K. Sen, "Estimates of the regression coefficient based on Kendall's tau", Journal of
 * the American Statistical Association 63 (1968) 1379-1389; the working form in R. O. Gilbert,
 * "Statistical Methods for Environmental Pollution Monitoring" (1987), section 16.5.2:
 *
 *   N     = the number of pairwise slopes (y_j - y_i) / (x_j - x_i), i < j, x_j != x_i, sorted
 *   slope = their median (Theil 1950, Sen 1968)
 *   VAR(S) = [n(n-1)(2n+5) - sum_p t_p(t_p - 1)(2t_p + 5)] / 18
 *            (the variance of Kendall's S under no trend; t_p = the size of the p-th group of tied y)
 *   C     = z(0.975) * sqrt(VAR(S))            z(0.975) = 1.959963984540054
 *   M1    = (N - C) / 2,  M2 = (N + C) / 2
 *   lower = the M1-th smallest slope, upper = the (M2 + 1)-th smallest slope (1-based; interpolated
 *           between neighbours when M1 or M2 is not a whole number, as Gilbert suggests)
 *
 * With few points C exceeds N and a side has no bound: it is null here (4 or fewer points never
 * bound the lower side at 95%), never a made-up number. Pure.
 */
import { slopeRanks } from './pairwise-slopes.js';

/** The two-sided 95% normal quantile, z(0.975) (to 16 digits). */
const Z_95 = 1.959963984540054;
/** Points beyond this many (the most recent are kept) would cost n² pairs for little gain. */
export const TREND_MAX_POINTS = 200;
/** Fewer points than this give no slope. */
const TREND_MIN_POINTS = 3;

export interface SenSlope {
  /** The Theil-Sen slope: the median pairwise slope, per unit of x. */
  readonly slope: number;
  /** Sen's 95% interval; null where that side is unbounded with so few points. */
  readonly low: number | null;
  readonly high: number | null;
  /** Points used (the newest TREND_MAX_POINTS at most). */
  readonly n: number;
}

/** The newest TREND_MAX_POINTS points (the arrays themselves when they hold no more). */
function trendWindow(xs: readonly number[], ys: readonly number[]): { xs: readonly number[]; ys: readonly number[] } {
  const n = Math.min(xs.length, ys.length);
  if (xs.length === ys.length && n <= TREND_MAX_POINTS) return { xs, ys };
  const from = Math.max(0, n - TREND_MAX_POINTS);
  return { xs: xs.slice(from, n), ys: ys.slice(from, n) };
}

/** sum over groups of tied values of t(t-1)(2t+5), from the values sorted (no map of 200 entries a fit). */
function tieTerm(ys: readonly number[]): number {
  const sorted = Float64Array.from(ys).sort();
  let sum = 0;
  for (let i = 0; i < sorted.length; ) {
    let end = i + 1;
    while (end < sorted.length && sorted[end] === sorted[i]) end += 1;
    const t = end - i;
    sum += t * (t - 1) * (2 * t + 5);
    i = end;
  }
  return sum;
}

/** Where the k-th smallest (1-based, fractional k between two neighbours) lies; null outside 1..count. */
function rankIndex(count: number, k: number): { readonly below: number; readonly frac: number } | null {
  if (k < 1 - 1e-9 || k > count + 1e-9) return null;
  const at = Math.min(Math.max(k, 1), count) - 1;
  const below = Math.floor(at);
  return { below, frac: at - below };
}

/** null with fewer than TREND_MIN_POINTS points, or when every x is the same. */
export function senSlope(xsIn: readonly number[], ysIn: readonly number[]): SenSlope | null {
  const { xs, ys } = trendWindow(xsIn, ysIn);
  const n = xs.length;
  if (n < TREND_MIN_POINTS) return null;
  // Only the ranks needed (the median and the interval's two ends) are selected, among the slopes
  // near them (pairwise-slopes.ts): 200 points are 19,900 slopes, and the history report fits two
  // axes for each of its up to 120 tests x platforms series.
  const variance = (n * (n - 1) * (2 * n + 5) - tieTerm(ys)) / 18;
  const c = Z_95 * Math.sqrt(Math.max(variance, 0));
  const ranksOf = (count: number) => {
    const low = rankIndex(count, (count - c) / 2);
    const high = rankIndex(count, (count + c) / 2 + 1);
    const middle = count % 2 === 1 ? [(count - 1) / 2] : [count / 2 - 1, count / 2];
    return { low, high, middle };
  };
  const { count, at } = slopeRanks(xs, ys, (count) => {
    const { low, high, middle } = ranksOf(count);
    const ends = [low, high].flatMap((r) => (r === null ? [] : r.frac === 0 ? [r.below] : [r.below, r.below + 1]));
    return [...middle, ...ends];
  });
  if (count === 0) return null;
  const { low, high, middle } = ranksOf(count);
  const value = (k: number): number => at.get(k)!;
  const rank = (r: { below: number; frac: number } | null): number | null =>
    r === null ? null : r.frac === 0 ? value(r.below) : value(r.below) + r.frac * (value(r.below + 1) - value(r.below));
  // simple-statistics' median (type 7): the lower middle plus half the way to the upper one.
  const slope =
    middle.length === 1 ? value(middle[0]!) : value(middle[0]!) + 0.5 * (value(middle[1]!) - value(middle[0]!));
  return { slope, low: rank(low), high: rank(high), n };
}

/**
 * The value at the last x of the line with this slope through the points: the median of
 * y - slope * x (Sen's intercept), plus slope * last x. The current level, free of one run's noise.
 */
export function lineLevel(xsIn: readonly number[], ysIn: readonly number[], slope: number): number {
  const { xs, ys } = trendWindow(xsIn, ysIn);
  const offsets = new Float64Array(xs.length);
  for (let i = 0; i < xs.length; i += 1) offsets[i] = ys[i]! - slope * xs[i]!;
  offsets.sort();
  // simple-statistics' median (type 7): the middle, or the lower middle plus half the way to the upper.
  const middle = (offsets.length - 1) / 2;
  const lower = Math.floor(middle);
  const level = middle === lower ? offsets[lower]! : offsets[lower]! + 0.5 * (offsets[lower + 1]! - offsets[lower]!);
  return level + slope * xs[xs.length - 1]!;
}
