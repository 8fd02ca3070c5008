/**
 * How `auto` says what it chose, in the step line, the text report, the Markdown comment and the
 * HTML page: the target and why, and each test's factors here as factors of CI's speed ("holds up
 * to x8 here = x2.4 on CI linux"). Pure.
 */
import type { Calibration } from './auto-slowdown.js';
import { describeLocalRuns } from './calibration-runs.js';

const x = (n: number): string => n.toFixed(1);

/** "3.4x slower than here", or "faster than here (0.8x the time)". */
export function describeRatio(ratio: number): string {
  return ratio >= 1 ? `${x(ratio)}x slower than here` : `faster than here (${x(ratio)}x the time)`;
}

/**
 * `auto: CI linux runs 3.4x slower than here, 95% CI 2.9-4.1, from 212 tests in the last 30 runs,
 * against 12 runs of this machine 3f9a1c2b7d10`.
 */
export function describeCalibration(c: Calibration, target: number): string {
  const against = c.local === undefined || c.local.match === 'none' ? '' : `, against ${describeLocalRuns(c.local)}`;
  if (c.source === 'default' || c.ratio === null || c.interval === null)
    return `auto: the default x${target}, ${c.reason ?? 'no estimate'}${against}`;
  const speed = describeRatio(c.ratio);
  const judged = target !== Math.round(c.ratio * 10) / 10 ? `, judged at x${target}` : '';
  return `auto: CI ${c.platform} runs ${speed}, 95% CI ${x(c.interval[0])}-${x(c.interval[1])}, from ${c.tests} tests in the last ${c.runs} run${c.runs === 1 ? '' : 's'}${against}${judged}`;
}

/** "x8 here = x2.4 on CI linux": a factor here as a factor relative to CI's speed; null without an estimate. */
export function onCi(factor: number, c: Calibration | undefined): string | null {
  if (c === undefined || c.source !== 'history' || c.ratio === null || c.ratio <= 0) return null;
  return `x${factor} here = x${x(factor / c.ratio)} on CI ${c.platform}`;
}

/** A test's factors in CI terms: where it held and broke, else the factor it was judged at; null without an estimate. */
export function describeTestOnCi(
  t: { readonly holdsAt?: number | null; readonly breaksAt?: number | null },
  contention: { readonly reference: number; readonly calibration?: Calibration } | undefined,
): string | null {
  const c = contention?.calibration;
  if (contention === undefined || onCi(contention.reference, c) === null) return null;
  const parts = [
    t.holdsAt != null ? `holds up to ${onCi(t.holdsAt, c)}` : null,
    t.breaksAt != null ? `breaks at ${onCi(t.breaksAt, c)}` : null,
  ].filter((p) => p !== null);
  return parts.length > 0 ? parts.join(', ') : `judged at ${onCi(contention.reference, c)}`;
}
