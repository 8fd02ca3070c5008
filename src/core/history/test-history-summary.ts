/**
 * A test's past in a few figures, for the gate's table (issue 15): runs, failed runs, flaky runs
 * (passed only after a retry, or failed on a commit that passed in another run), the flake rate, and
 * the median and p95 of its passing durations, and its duration trend under the same projection
 * rule as the history report (core/history/history-trend.ts). Pure.
 */
import { quantileSorted } from 'simple-statistics';
import { formatDuration } from '../duration.js';
import { formatRatePercent } from '../failure-rate.js';
import { type SlopeFigures, slopeFigures } from './history-platform.js';
import { type DurationTrend, trendOfStoredRuns } from './history-trend.js';
import { describeDurationTrend } from './history-trend-text.js';

export interface PastRun {
  readonly state: string;
  readonly flaky: boolean;
  readonly durationMs: number | null;
  readonly commit: string | null;
  /** ISO start of the run, its platform and the test's limit in it (for the trend). */
  readonly startedAt: string;
  readonly platform: string;
  readonly limitMs: number;
}

/** The trend on the newest run's platform, its figures as in the history JSON, and in words. */
interface PastTrend extends SlopeFigures {
  readonly platform: string;
  readonly limitMs: number;
  readonly text: string;
}

export interface TestPast {
  readonly runs: number;
  readonly failedRuns: number;
  readonly flakyRuns: number;
  readonly flakeRate: number;
  readonly durationMs: { readonly median: number; readonly p95: number } | null;
  readonly trend: PastTrend | null;
}

function pastTrend(runs: readonly PastRun[]): PastTrend | null {
  const found = trendOfStoredRuns(runs);
  if (found === null || found.trend.perRun === null) return null;
  const trend: DurationTrend = found.trend;
  return {
    platform: found.platform,
    limitMs: found.limitMs,
    ...slopeFigures(trend),
    text: describeDurationTrend(trend),
  };
}

/** null when the test has no finished run in history; `runs` newest first, as the store gives them. */
export function summarizeTestPast(runs: readonly PastRun[]): TestPast | null {
  const finished = runs.filter((r) => r.state === 'passed' || r.state === 'failed');
  if (finished.length === 0) return null;
  const passedCommits = new Set(finished.filter((r) => r.state === 'passed' && r.commit !== null).map((r) => r.commit));
  const failedRuns = finished.filter((r) => r.state === 'failed').length;
  const flakyRuns = finished.filter(
    (r) =>
      (r.state === 'passed' && r.flaky) || (r.state === 'failed' && r.commit !== null && passedCommits.has(r.commit)),
  ).length;
  const durations = finished
    .filter((r) => r.state === 'passed' && r.durationMs !== null)
    .map((r) => r.durationMs as number)
    .sort((a, b) => a - b);
  return {
    runs: finished.length,
    failedRuns,
    flakyRuns,
    flakeRate: flakyRuns / finished.length,
    durationMs:
      durations.length === 0 ? null : { median: quantileSorted(durations, 0.5), p95: quantileSorted(durations, 0.95) },
    trend: pastTrend(runs),
  };
}

/** `history: 120 runs, 3 flaky (2.5%), 1 failed; median 410ms, p95 620ms; +2ms a run (95% CI -1ms to +4ms): no significant trend` */
export function formatTestPast(past: TestPast): string {
  const durations = past.durationMs
    ? `; median ${formatDuration(past.durationMs.median)}, p95 ${formatDuration(past.durationMs.p95)}`
    : '';
  const trend = past.trend === null ? '' : `; ${past.trend.text}`;
  return `history: ${past.runs} run${past.runs === 1 ? '' : 's'}, ${past.flakyRuns} flaky (${formatRatePercent(past.flakeRate)}), ${past.failedRuns} failed${durations}${trend}`;
}
