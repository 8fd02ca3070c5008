/**
 * Which tests the history report reads the series of (their trends and charts): every match of a
 * filtered report; in the default view the `top` most flaky and the `top * 3` nearest their limit
 * now (by their highest median-to-limit ratio). Pure.
 */
import type { HistoryQuery, PlatformAggregate, TestAggregate } from './history-report.js';

const flakyRunsOf = (t: TestAggregate): number => t.retriedRuns + t.rerunPassedRuns;

/** Which tests need their series (trends and charts): every match, or the default view's candidates. */
export function selectTrendCandidates(
  tests: readonly TestAggregate[],
  platforms: readonly PlatformAggregate[],
  query: HistoryQuery,
): number[] {
  if (query.fullNamePart !== null || query.file !== null) return tests.map((t) => t.testId);
  const flaky = tests
    .filter((t) => flakyRunsOf(t) > 0)
    .sort((a, b) => flakyRunsOf(b) / b.runs - flakyRunsOf(a) / a.runs)
    .slice(0, query.top)
    .map((t) => t.testId);
  // Trends are fitted for the tests nearest their limit now: three times as many as are shown.
  const ratio = new Map<number, number>();
  for (const p of platforms)
    ratio.set(p.testId, Math.max(ratio.get(p.testId) ?? 0, p.limitMs > 0 ? p.medianMs / p.limitMs : 0));
  const near = [...ratio.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, query.top * 3)
    .map(([id]) => id);
  return [...new Set([...flaky, ...near])];
}
