/**
 * Does the slowdown explain a test's failures? A test that passed every try at the reference and
 * then failed at a higher factor is `fragile` only when failures at and above the factor where it
 * broke are significantly more frequent than below it (the reference tries, the confirm tries run
 * again there, and the higher factors it held at): Fisher's exact test, one-sided, at FRAGILE_ALPHA
 * (core/gate/fisher-exact.ts). Otherwise the failure is not shown to depend on the factor, and the
 * test is `flaky`. Pure.
 *
 * The reference tries reached this step *because* they all passed (only such tests are tried
 * higher), so they are a selected sample: a flake that passed 40 reference tries by luck would
 * make a single failure higher look significant. At most REFERENCE_COUNTED of them count; the
 * CONFIRM_TRIES run afterwards (commands/gate/gate-escalate.ts) are the unselected guard. The size
 * of the whole procedure (a test failing at the same rate at every factor called fragile in at most
 * ~5% of the cases that reach this step) is checked by a property in test/core/gate.
 */
import { type FailureCount, fisherOneSidedP } from '../fisher-exact.js';
import type { GateTry } from './runner-protocol.js';

/** A test's tries at one factor: the factor its phase's tries measurably got (CPU-weighted), else the one asked. */
export interface FactorTries {
  readonly factor: number;
  /** The factor asked for (absent where only the measured one matters). */
  readonly asked?: number;
  readonly tries: readonly GateTry[];
}

export const FRAGILE_ALPHA = 0.05;
/** Reference tries counted at most (the gate's default --max-tries): see the file comment. */
export const REFERENCE_COUNTED = 10;

export interface FactorEvidence {
  /** Highest factor at which every try (and every try at each lower factor) passed, or null. */
  readonly holdsAt: number | null;
  /** Lowest factor with a failed or hung try, or null when none failed. */
  readonly breaksAt: number | null;
  /** Tries below breaksAt: the reference (at most REFERENCE_COUNTED), the confirm tries, the factors held. */
  readonly below: FailureCount;
  /** Tries at breaksAt and above. */
  readonly above: FailureCount;
  /** Failures among the confirm tries at the reference. */
  readonly confirmFailures: number;
  /** One-sided Fisher p-value of above vs below; null when nothing broke. */
  readonly pValue: number | null;
  /** Failures depend on the factor: p < FRAGILE_ALPHA and no failure at the reference. */
  readonly explained: boolean;
}

export const failedTry = (t: GateTry): boolean => t.state === 'failed' || t.state === 'hung';
const ranTry = (t: GateTry): boolean => t.state !== 'skipped';

/** After a higher factor's tries: go on up unless every try failed (a limit shows plainly higher; a flake does not). */
export const keepsClimbing = (tries: readonly GateTry[]): boolean => tries.some((t) => t.state === 'passed');

export function countFailures(tries: readonly GateTry[]): FailureCount {
  const ran = tries.filter(ranTry);
  return { failures: ran.filter(failedTry).length, trials: ran.length };
}

const add = (a: FailureCount, b: FailureCount): FailureCount => ({
  failures: a.failures + b.failures,
  trials: a.trials + b.trials,
});

export function findBreakingPoint(levels: readonly FactorTries[]): Pick<FactorEvidence, 'holdsAt' | 'breaksAt'> {
  const tried = levels.filter((l) => l.tries.length > 0);
  const broken = tried.filter((l) => l.tries.some(failedTry)).map((l) => l.factor);
  const breaksAt = broken.length > 0 ? Math.min(...broken) : null;
  const held = tried.filter((l) => breaksAt === null || l.factor < breaksAt).map((l) => l.factor);
  return { holdsAt: held.length > 0 ? Math.max(...held) : null, breaksAt };
}

/** The evidence of a test's tries at the reference, again there (confirm) and at the higher factors. */
export function weighFactorEvidence(
  reference: FactorTries,
  higher: readonly FactorTries[],
  confirm: readonly GateTry[],
): FactorEvidence {
  const point = findBreakingPoint([{ factor: reference.factor, tries: [...reference.tries, ...confirm] }, ...higher]);
  const ref = countFailures(reference.tries);
  const refCounted =
    ref.trials <= REFERENCE_COUNTED
      ? ref
      : { trials: REFERENCE_COUNTED, failures: Math.round((ref.failures * REFERENCE_COUNTED) / ref.trials) };
  const again = countFailures(confirm);
  const isAbove = (l: FactorTries): boolean => point.breaksAt !== null && l.factor >= point.breaksAt;
  const held = higher.filter((l) => !isAbove(l)).reduce((s, l) => add(s, countFailures(l.tries)), again);
  const below = add(refCounted, held);
  const above = higher.filter(isAbove).reduce((s, l) => add(s, countFailures(l.tries)), { failures: 0, trials: 0 });
  const pValue = point.breaksAt === null || above.trials === 0 ? null : fisherOneSidedP(below, above);
  const explained = pValue !== null && pValue < FRAGILE_ALPHA && again.failures === 0 && ref.failures === 0;
  return { ...point, below, above, confirmFailures: again.failures, pValue, explained };
}
