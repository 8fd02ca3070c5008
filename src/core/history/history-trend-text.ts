/**
 * The duration trend in words, the same everywhere history speaks (history report and page, triage,
 * the gate's history column, the reporter's quarantine block):
 * "+40ms a day (95% CI +31ms to +52ms; +12ms a run): crosses in about 2.5 days (1.9 to 3.4)";
 * "+150ms a run (95% CI unbounded with 3 runs): not enough runs to project (3 of 10)". Pure.
 */
import { formatDuration } from '../duration.js';
import { type AxisTrend, type DurationTrend, PROJECT_MIN_RUNS } from './history-trend.js';

const signedDuration = (ms: number): string => `${ms >= 0 ? '+' : '-'}${formatDuration(Math.abs(ms))}`;

const roundFor = (n: number): number => (n < 10 ? Math.round(n * 10) / 10 : Math.round(n));

/** "about 3 days", "about 2.5 runs". */
function about(n: number, unit: string): string {
  const r = roundFor(n);
  return `about ${r} ${unit}${r === 1 ? '' : 's'}`;
}

function interval(axis: AxisTrend, runs: number): string {
  if (axis.low === null && axis.high === null) return `95% CI unbounded with ${runs} run${runs === 1 ? '' : 's'}`;
  if (axis.low === null) return `95% CI up to ${signedDuration(axis.high!)}`;
  if (axis.high === null) return `95% CI from ${signedDuration(axis.low)}`;
  return `95% CI ${signedDuration(axis.low)} to ${signedDuration(axis.high)}`;
}

/** "+40ms a day (95% CI +31ms to +52ms; +12ms a run)". */
function describeSlope(trend: DurationTrend): string {
  const { perRun, perDay } = trend;
  if (perRun === null) return 'too few runs for a trend';
  if (perDay === null) return `${signedDuration(perRun.slope)} a run (${interval(perRun, trend.runs)})`;
  return `${signedDuration(perDay.slope)} a day (${interval(perDay, trend.runs)}; ${signedDuration(perRun.slope)} a run)`;
}

function crossingText(axis: AxisTrend | null, unit: string): string | null {
  if (axis === null || axis.projection.kind !== 'crossing') return null;
  const [a, b] = axis.projection.range;
  const range = roundFor(a) === roundFor(b) ? '' : ` (${roundFor(a)} to ${roundFor(b)})`;
  return `${about(axis.projection.at, unit)}${range}`;
}

/** What the trend allows saying about the limit: a crossing only when the rule claims one. */
function describeProjection(trend: DurationTrend): string | null {
  const { perRun, perDay } = trend;
  if (perRun === null) return null;
  if (perRun.projection.kind === 'at-limit' || perDay?.projection.kind === 'at-limit')
    return 'at or over its limit now';
  const crossings = [crossingText(perDay, 'day'), crossingText(perRun, 'run')].filter((c): c is string => c !== null);
  if (crossings.length > 0) return `crosses in ${crossings.join(', ')}`;
  const head = perDay ?? perRun;
  if (head.projection.kind === 'too-few-runs')
    return `not enough runs to project (${head.projection.runs} of ${PROJECT_MIN_RUNS})`;
  return 'no significant trend';
}

/** The slope with its interval, then the projection: one phrase. */
export function describeDurationTrend(trend: DurationTrend): string {
  const projection = describeProjection(trend);
  return projection === null ? describeSlope(trend) : `${describeSlope(trend)}: ${projection}`;
}
