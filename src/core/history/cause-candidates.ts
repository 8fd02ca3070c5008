/**
 * The tests whose cause the history report may show, chosen before their trends are fitted: a
 * cause is shown on a listed test with flaky runs (history-report.ts), and the lists are the
 * flakiest `top` (by flake rate, rounded as the report rounds it, ties kept) and the nearest to
 * their limit, which only a trend candidate or a test whose p95 is near its limit can be. A superset
 * of the shown ones, so the store reads the errors of these few tests only. Pure.
 */

import type { HistoryQuery, PlatformAggregate, TestAggregate } from './history-report.js';
import { nearLimit } from './history-trend.js';

export const flakyRunsOf = (t: TestAggregate): number => t.retriedRuns + t.rerunPassedRuns;
/** The flake rate as the report rounds it. */
export const rateOf = (t: TestAggregate): number => Math.round((flakyRunsOf(t) / t.runs) * 10_000) / 10_000;

/** The `top`-th highest rounded flake rate (ties kept), or +Infinity without flaky tests. */
export function flakyFloor(tests: readonly TestAggregate[], top: number): number {
  const rates = tests
    .filter((t) => t.runs > 0 && flakyRunsOf(t) > 0)
    .map(rateOf)
    .sort((a, b) => b - a);
  return rates[Math.min(top, rates.length) - 1] ?? Number.POSITIVE_INFINITY;
}

export function causeCandidates(
  tests: readonly TestAggregate[],
  platforms: readonly PlatformAggregate[],
  trendIds: readonly number[],
  query: HistoryQuery,
): number[] {
  const flaky = tests.filter((t) => t.runs > 0 && flakyRunsOf(t) > 0);
  if (query.fullNamePart !== null || query.file !== null) return flaky.map((t) => t.testId);
  const floor = flakyFloor(tests, query.top);
  const near = new Set(trendIds);
  for (const p of platforms) if (nearLimit(p.p95Ms, p.limitMs, query.warnAt, null) !== null) near.add(p.testId);
  return flaky.filter((t) => rateOf(t) >= floor || near.has(t.testId)).map((t) => t.testId);
}
