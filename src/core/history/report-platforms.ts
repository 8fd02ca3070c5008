/**
 * The history report's platforms per test, each computed once and only when asked
 * (history-platform.ts: the trend is fitted where the test's series was read). The default view
 * asks for those of the tests it may list: a platform without a series is near its limit by its
 * p95 alone, which is cheap to tell, so the other thousands of platforms are never built. Pure.
 */
import { computePlatform, type HistoryPlatform, type PlatformAggregate, type SeriesPoint } from './history-platform.js';
import { nearLimit } from './history-trend.js';
import { seriesByKey } from './series-groups.js';

export interface ReportPlatforms {
  /** A test's platforms with their figures, in the order of the report's input. */
  readonly of: (testId: number) => HistoryPlatform[];
  /** Whether one of the test's platforms is near its limit (HistoryPlatform.nearLimit). */
  readonly anyNear: (testId: number) => boolean;
}

export function reportPlatforms(
  platforms: readonly PlatformAggregate[],
  series: readonly SeriesPoint[],
  warnAt: number,
): ReportPlatforms {
  const pointsOf = seriesByKey(series);
  const aggregatesOf = new Map<number, PlatformAggregate[]>();
  for (const p of platforms) {
    const list = aggregatesOf.get(p.testId);
    if (list) list.push(p);
    else aggregatesOf.set(p.testId, [p]);
  }
  const computed = new Map<number, HistoryPlatform[]>();
  const of = (testId: number): HistoryPlatform[] => {
    let list = computed.get(testId);
    if (list === undefined) {
      const points = pointsOf.get(testId);
      list = (aggregatesOf.get(testId) ?? []).map((p) => computePlatform(p, points?.get(p.platform) ?? [], warnAt));
      computed.set(testId, list);
    }
    return list;
  };
  // Without a series a platform's trend is null and its p95 the summaries' (computePlatform).
  const anyNear = (testId: number): boolean =>
    pointsOf.has(testId)
      ? of(testId).some((p) => p.nearLimit !== null)
      : (aggregatesOf.get(testId) ?? []).some((p) => nearLimit(p.p95Ms, p.limitMs, warnAt, null) !== null);
  return { of, anyNear };
}
