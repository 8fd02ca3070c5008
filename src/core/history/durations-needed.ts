/**
 * Which tests' newest durations the history report must read (issue 38): those whose durations can
 * change what it shows. The summaries give every key's counts and the bounds of its durations
 * (schema 6); the durations themselves cost the most to send and read, and the default report shows
 * twenty tests of thousands. A test's durations matter when it may be:
 *   - listed as flaky: its flake rate (rounded as the report rounds it) is among the `top`, ties
 *     kept (cause-candidates.ts reads the same rate);
 *   - a trend candidate: its highest median-to-limit ratio may be among the `top * 3` highest
 *     (trend-candidates.ts): its upper bound reaches the `top * 3`-th highest
 *     lower bound;
 *   - near its limit without a trend: a platform's p95 may be over its limit or at `warnAt` of it.
 * A filtered report reads every test's. Every other test keeps medians and p95s that stand at its
 * lower bound: none of them can be listed, chosen, or ordered among the listed. Pure.
 */
import { flakyFloor, flakyRunsOf, rateOf } from './cause-candidates.js';
import type { HistoryQuery, PlatformAggregate, TestAggregate } from './history-report.js';

/** What a summary row keeps of its durations when they are not read (schema 6). */
interface DurationBounds {
  readonly recentLow?: number | null;
  readonly recentHigh?: number | null;
  readonly recentNewest?: number | null;
}

/**
 * A platform without its durations read (history-summary.ts): the platform is there when a duration is in the window, its median
 * and p95 stand at the lowest bound, and `unread` says where they lie (durations-needed.ts).
 */
export function unreadPlatform(
  rows: readonly DurationBounds[],
  cutoffMs: number,
  base: Omit<PlatformAggregate, 'medianMs' | 'p95Ms'>,
): PlatformAggregate | null {
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  let inWindow = false;
  for (const r of rows) {
    if (r.recentNewest === null || r.recentNewest === undefined || r.recentNewest < cutoffMs) continue;
    inWindow = true;
    low = Math.min(low, r.recentLow ?? Number.NEGATIVE_INFINITY);
    high = Math.max(high, r.recentHigh ?? Number.POSITIVE_INFINITY);
  }
  if (!inWindow) return null;
  const { testId, platform, runs, limitMs } = base;
  return { testId, platform, runs, medianMs: low, p95Ms: low, limitMs, unread: { low, high } };
}

/** Per test, the bounds of its highest median-to-limit ratio over its platforms. */
function ratioBounds(platforms: readonly PlatformAggregate[]): Map<number, { low: number; high: number }> {
  const ratios = new Map<number, { low: number; high: number }>();
  for (const p of platforms) {
    const low = p.limitMs > 0 ? p.medianMs / p.limitMs : 0;
    const high = p.limitMs > 0 ? (p.unread?.high ?? p.medianMs) / p.limitMs : 0;
    const seen = ratios.get(p.testId);
    if (seen === undefined) ratios.set(p.testId, { low: Math.max(0, low), high: Math.max(0, high) });
    else {
      seen.low = Math.max(seen.low, low);
      seen.high = Math.max(seen.high, high);
    }
  }
  return ratios;
}

/** Whether a platform's p95 may make its test near its limit (history-trend.ts nearLimit without a trend). */
const mayBeNear = (p: PlatformAggregate, warnAt: number): boolean => {
  const p95 = p.unread?.high ?? p.p95Ms;
  return p95 > p.limitMs || p95 >= p.limitMs * warnAt;
};

/** The tests with unread durations that the report must read. */
export function durationsNeeded(
  tests: readonly TestAggregate[],
  platforms: readonly PlatformAggregate[],
  query: HistoryQuery,
): number[] {
  const unread = new Set(platforms.filter((p) => p.unread !== undefined).map((p) => p.testId));
  if (unread.size === 0) return [];
  if (query.fullNamePart !== null || query.file !== null) return [...unread];
  const floor = flakyFloor(tests, query.top);
  const needed = new Set(
    tests.filter((t) => t.runs > 0 && flakyRunsOf(t) > 0 && rateOf(t) >= floor).map((t) => t.testId),
  );
  const ratios = ratioBounds(platforms);
  const lows = [...ratios.values()].map((r) => r.low).sort((a, b) => b - a);
  const chosen = query.top * 3;
  const threshold = lows.length <= chosen ? Number.NEGATIVE_INFINITY : lows[chosen - 1]!;
  for (const [id, r] of ratios) if (r.high >= threshold) needed.add(id);
  for (const p of platforms) if (mayBeNear(p, query.warnAt)) needed.add(p.testId);
  return [...needed].filter((id) => unread.has(id));
}

/** The tests with those of `read` (the needed tests, read whole) in place of their bounded ones, in the same order. */
export function withReadTests(tests: readonly TestAggregate[], read: readonly TestAggregate[]): TestAggregate[] {
  const byId = new Map(read.map((t) => [t.testId, t]));
  return tests.map((t) => byId.get(t.testId) ?? t);
}

/**
 * The platforms with those of `read` (the needed tests, their durations read) in place of their
 * unread ones, in the same order (a platform is there whether or not its durations were read).
 */
export function withReadPlatforms(
  platforms: readonly PlatformAggregate[],
  read: readonly PlatformAggregate[],
): PlatformAggregate[] {
  const byKey = new Map(read.map((p) => [`${p.testId}\u0000${p.platform}`, p]));
  return platforms.map((p) => byKey.get(`${p.testId}\u0000${p.platform}`) ?? p);
}
