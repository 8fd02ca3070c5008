/**
 * Where a test breaks: after it passed every try at the reference slowdown, the gate spends part
 * of the remaining budget at higher factors (2x and 4x the reference). Pure: the tries at each
 * factor in, holdsAt / breaksAt and the fragile verdict out. Budgets are never judged from these
 * tries: a timeout at 4x is where the test breaks, not a budget finding, and not a flake.
 */

import { MAX_SLOWDOWN } from './gate-config.js';
import type { GateTestResult, GateTry } from './gate-verdict.js';

export interface FactorTries {
  /** The factor the tries measurably got (CPU-weighted over the phase's tries), else the one asked. */
  readonly factor: number;
  /** The factor asked for. */
  readonly asked: number;
  readonly tries: readonly GateTry[];
}

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

const failedTry = (t: GateTry): boolean => t.state === 'failed' || t.state === 'hung';

export function findBreakingPoint(levels: readonly FactorTries[]): BreakingPoint {
  const tried = levels.filter((l) => l.tries.length > 0);
  const broken = tried.filter((l) => l.tries.some(failedTry)).map((l) => l.factor);
  const breaksAt = broken.length > 0 ? Math.min(...broken) : null;
  const held = tried.filter((l) => breaksAt === null || l.factor < breaksAt).map((l) => l.factor);
  return { holdsAt: held.length > 0 ? Math.max(...held) : null, breaksAt };
}

/**
 * The verdict with the higher factors' answer: a test that was `stable` at the reference and broke
 * higher is `fragile` (the reason names the factor), unless it failed one of the `confirm` tries
 * run again at the reference then (`flaky`); any other verdict stays (a budget finding or a flake at
 * the reference is the finding), with holdsAt/breaksAt added.
 */
export function applyBreakingPoint(
  result: GateTestResult,
  reference: FactorTries,
  higher: readonly FactorTries[],
  confirm: readonly GateTry[] = [],
): GateTestResult & BreakingPoint {
  const point = findBreakingPoint([{ ...reference, tries: [...reference.tries, ...confirm] }, ...higher]);
  if (result.verdict !== 'stable' || point.breaksAt === null) return { ...result, ...point };
  const again = confirm.filter(failedTry).length;
  if (again > 0) {
    const error = confirm.find(failedTry)?.error ?? result.firstError;
    return {
      ...result,
      ...point,
      verdict: 'flaky',
      firstError: error,
      reason: `passed ${result.passes}/${result.runs} tries at x${reference.factor}, then failed ${again} of ${confirm.length} more there (checking a break at a higher factor): a flake, not a slowdown limit`,
    };
  }
  const at = higher.find((l) => l.factor === point.breaksAt);
  const failed = at ? at.tries.filter(failedTry).length : 0;
  const error = at?.tries.find(failedTry)?.error ?? result.firstError;
  return {
    ...result,
    ...point,
    verdict: 'fragile',
    firstError: error,
    reason: `passes at x${reference.factor} (${result.passes}/${result.runs}) but failed ${failed}/${at?.tries.length ?? 0} tries at x${point.breaksAt}: it breaks when CI is ${point.breaksAt}x slower than an idle core`,
  };
}
