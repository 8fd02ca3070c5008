/**
 * Where a test breaks: after it passed every try at the reference slowdown, the gate spends part
 * of the remaining budget at higher factors (2x and 4x the reference). Pure: the tries at each
 * factor in, holdsAt / breaksAt and the fragile verdict out (the evidence weighed in
 * core/gate/factor-evidence.ts). Budgets are never judged from these tries: a timeout at 4x is where the test breaks, not a budget finding, and not a flake.
 */

import { formatPValue } from '../fisher-exact.js';
import {
  CONFIRM_MAX_TRIES,
  type FactorTries,
  FRAGILE_ALPHA,
  failedTry,
  findBreakingPoint,
  weighFactorEvidence,
} from './factor-evidence.js';
import { MAX_SLOWDOWN } from './gate-config.js';
import type { GateTestResult } from './gate-verdict.js';
import type { GateTry } from './runner-protocol.js';

export type { FactorTries };

export interface BreakingPoint {
  /** Highest factor at which every try (and every try at each lower factor) passed, or null. */
  readonly holdsAt: number | null;
  /** Lowest factor with a failed or hung try, or null when none failed. */
  readonly breaksAt: number | null;
}

/** The higher factors to try after the reference: 2x and 4x it, at most MAX_SLOWDOWN, above it. */
export function escalationFactors(reference: number): number[] {
  return [2, 4]
    .map((m) => Math.min(MAX_SLOWDOWN, Math.round(reference * m * 100) / 100))
    .filter((f, i, all) => f > reference && all.indexOf(f) === i);
}

export { findBreakingPoint };

/** "x2.0": factors are measured, one decimal is what they carry. */
export const formatFactor = (f: number): string => `x${f.toFixed(1)}`;

/** "holds at x2.0, breaks between x2.0 and x4.1", or "breaks at or below x2.0" when nothing held. */
export function describeBreakRange(holdsAt: number | null, breaksAt: number | null): string {
  if (breaksAt === null)
    return holdsAt === null ? 'not tried' : `holds at ${formatFactor(holdsAt)}, did not break at the factors tried`;
  if (holdsAt === null) return `breaks at or below ${formatFactor(breaksAt)}`;
  return `holds at ${formatFactor(holdsAt)}, breaks between ${formatFactor(holdsAt)} and ${formatFactor(breaksAt)}`;
}

/**
 * The verdict with the higher factors' answer (core/gate/factor-evidence.ts): a test that was
 * `stable` at the reference and broke higher is `flaky` only when it failed a confirm try at the
 * reference (a failure the factor does not explain); failures seen only above the reference are
 * `fragile` when the factor test shows them significant, and `inconclusive` (missing: the confirm
 * tries it lacked) when they are too few to tell a limit from a flake. Any other verdict stays (a budget finding or
 * a flake at the reference is the finding), with holdsAt/breaksAt added.
 */
export function applyBreakingPoint(
  result: GateTestResult,
  reference: FactorTries,
  higher: readonly FactorTries[],
  confirm: readonly GateTry[] = [],
): GateTestResult & BreakingPoint {
  const e = weighFactorEvidence(reference, higher, confirm);
  const point = { holdsAt: e.holdsAt, breaksAt: e.breaksAt };
  if (result.verdict !== 'stable' || e.breaksAt === null) return { ...result, ...point };
  const firstError = [...confirm, ...higher.flatMap((l) => l.tries)].find(failedTry)?.error ?? result.firstError;
  const at = formatFactor(reference.factor);
  const confirmed = confirm.length - e.moved.filter((t) => confirm.includes(t)).length;
  const range = describeBreakRange(e.holdsAt, e.breaksAt);
  if (e.confirmFailures > 0) {
    return {
      ...result,
      ...point,
      verdict: 'flaky',
      firstError,
      reason: `passed ${result.passes}/${result.tryCount} tries at ${at}, then failed ${e.confirmFailures} of ${confirmed} more there (checking a break at a higher factor): a flake, not a slowdown limit`,
    };
  }
  const movedText =
    e.moved.length === 0
      ? ''
      : ` (${e.moved.length === 1 ? 'a failed try counted at the factor it got' : `${e.moved.length} failed tries counted at the factors they got`}, ${e.moved.map((t) => formatFactor(t.slowdown ?? 0)).join(', ')}, not the one asked)`;
  const higherText = `failed ${e.above.failures} of ${e.above.trials} tries from ${formatFactor(e.breaksAt)} up, ${e.below.failures} of ${e.below.trials} below${movedText}`;
  const test = `one-sided Fisher ${formatPValue(e.pValue ?? 1)}`;
  if (e.explained) {
    return {
      ...result,
      ...point,
      verdict: 'fragile',
      firstError,
      reason: `passes at ${at} (${result.passes}/${result.tryCount}${confirmed > 0 ? `, then ${confirmed}/${confirmed} again` : ''}) but ${higherText} (${test}): ${range}`,
    };
  }
  const held = `passes at ${at} (${result.passes}/${result.tryCount}${confirmed > 0 ? `, then ${confirmed}/${confirmed} again` : ''}) and ${higherText} (${test}, not below ${FRAGILE_ALPHA})`;
  return { ...undecided(result, held, `${at} to tell (${range})`, confirmed), ...point, firstError };
}

/**
 * Failures only above the reference, too few to show a limit, and none at or below it to show a
 * flake: neither verdict stands on them; the confirm tries it lacked decide (a flake fails there too).
 */
function undecided(result: GateTestResult, held: string, tell: string, confirmed: number): GateTestResult {
  return {
    ...result,
    verdict: 'inconclusive',
    reason: `${held}: a possible limit or a flake, too few tries at ${tell}; not checked, so no verdict`,
    missing: [
      ...result.missing,
      { check: 'confirm', needed: Math.max(CONFIRM_MAX_TRIES, confirmed + 1), made: confirmed, for: 'verdict' },
    ],
  };
}
