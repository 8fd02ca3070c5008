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
 * CONFIRM_TRIES run afterwards (core/gate/gate-checks.ts) are the unselected guard. The size
 * of the whole procedure (a test failing at the same rate at every factor called fragile in at most
 * ~5% of the cases that reach this step) is checked by a property in test/core/gate.
 *
 * A failed try is judged at the factor it got: one that got more than OFF_FACTOR x its level's
 * factor (the machine starved it: x3.5 in the confirm tries at x2) is no evidence about its level,
 * so it counts as a level of its own at its measured factor (sortByFactorGot). A confirm try that
 * failed at x6.5 is then a failure above the break, not a flake at the reference. Passed tries stay
 * at their level (a pass there holds at least as well at the level's lower factor).
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
/**
 * A failed try that got more than this times its level's factor counts at the factor it got. The
 * tries of a paced phase got within 10% of it in the quiet bench (x1.85-x2.14 for x2); a starved
 * try got x3.2-x3.5: 1.25 keeps the first at their level and moves the second.
 */
export const OFF_FACTOR = 1.25;
/** Reference tries counted at most (the gate's cold tries and a few more): see the file comment. */
export const REFERENCE_COUNTED = 10;
/**
 * Tries again at the reference a test that broke higher gets at most: its cold confirm tries, then
 * warm repeats where it costs little next to its file (core/gate/gate-checks.ts). A failure
 * among them makes it flaky; with none, one failure in two tries above is significant from 30 on.
 */
export const CONFIRM_MAX_TRIES = 30;

export interface FactorEvidence {
  /** Highest factor at which every try (and every try at each lower factor) passed, or null. */
  readonly holdsAt: number | null;
  /** Lowest factor with a failed or hung try, or null when none failed. */
  readonly breaksAt: number | null;
  /** Tries below breaksAt: the reference (at most REFERENCE_COUNTED), the confirm tries, the factors held. */
  readonly below: FailureCount;
  /** Tries at breaksAt and above. */
  readonly above: FailureCount;
  /** Failures among the confirm tries at the reference (those that got about the reference factor). */
  readonly confirmFailures: number;
  /** Failed tries counted at the factor they got, not their level's (OFF_FACTOR). */
  readonly moved: readonly GateTry[];
  /** One-sided Fisher p-value of above vs below; null when nothing broke. */
  readonly pValue: number | null;
  /** Failures depend on the factor: p < FRAGILE_ALPHA and no failure at the reference. */
  readonly explained: boolean;
}

export const failedTry = (t: GateTry): boolean => t.state === 'failed' || t.state === 'hung';
const ranTry = (t: GateTry): boolean => t.state !== 'skipped';

/**
 * Whether the gate measured the factor of most of a test's tries (a try too short to measure has
 * slowdown null): only then does a higher factor ask the test anything; a test that barely uses the
 * CPU is not slowed by it (its tries say "x4 (asked; not measured)"), and its tries are better spent
 * finding a flake.
 */
export function factorMeasured(tries: readonly GateTry[]): boolean {
  const ran = tries.filter(ranTry);
  return ran.length > 0 && ran.filter((t) => typeof t.slowdown === 'number').length * 2 >= ran.length;
}

/** After a higher factor's tries: go on up unless every try failed (a limit shows plainly higher; a flake does not). */
export const keepsClimbing = (tries: readonly GateTry[]): boolean => tries.some((t) => t.state === 'passed');

export function countFailures(tries: readonly GateTry[]): FailureCount {
  const ran = tries.filter(ranTry);
  return { failures: ran.filter(failedTry).length, trials: ran.length };
}

/** Two counts of failures among tries, summed. */
export const addCounts = (a: FailureCount, b: FailureCount): FailureCount => ({
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

const offFactor = (t: GateTry, factor: number): boolean =>
  failedTry(t) && t.slowdown !== null && t.slowdown !== undefined && t.slowdown > factor * OFF_FACTOR;

/**
 * The confirm tries and the higher levels with each failed try that got more than OFF_FACTOR x its
 * level's factor moved to a level of its own at the factor it got (`moved` counts them).
 */
export function sortByFactorGot(
  reference: FactorTries,
  higher: readonly FactorTries[],
  confirm: readonly GateTry[],
): { higher: FactorTries[]; confirm: GateTry[]; moved: GateTry[] } {
  const moved: GateTry[] = [];
  const keep = (tries: readonly GateTry[], factor: number): GateTry[] =>
    tries.filter((t) => (offFactor(t, factor) ? (moved.push(t), false) : true));
  const kept = keep(confirm, reference.factor);
  const levels = higher.map((l) => ({ ...l, tries: keep(l.tries, l.factor) }));
  const own = moved.map((t): FactorTries => ({ factor: t.slowdown ?? 0, tries: [t] }));
  return { higher: [...levels, ...own].sort((a, b) => a.factor - b.factor), confirm: kept, moved };
}

/** The evidence of a test's tries at the reference, again there (confirm) and at the higher factors. */
export function weighFactorEvidence(
  reference: FactorTries,
  asAsked: readonly FactorTries[],
  confirmAsAsked: readonly GateTry[],
): FactorEvidence {
  const { higher, confirm, moved } = sortByFactorGot(reference, asAsked, confirmAsAsked);
  const point = findBreakingPoint([{ factor: reference.factor, tries: [...reference.tries, ...confirm] }, ...higher]);
  const ref = countFailures(reference.tries);
  const refCounted =
    ref.trials <= REFERENCE_COUNTED
      ? ref
      : { trials: REFERENCE_COUNTED, failures: Math.round((ref.failures * REFERENCE_COUNTED) / ref.trials) };
  const again = countFailures(confirm);
  const isAbove = (l: FactorTries): boolean => point.breaksAt !== null && l.factor >= point.breaksAt;
  const held = higher.filter((l) => !isAbove(l)).reduce((s, l) => addCounts(s, countFailures(l.tries)), again);
  const below = addCounts(refCounted, held);
  const above = higher
    .filter(isAbove)
    .reduce((s, l) => addCounts(s, countFailures(l.tries)), { failures: 0, trials: 0 });
  const pValue = point.breaksAt === null || above.trials === 0 ? null : fisherOneSidedP(below, above);
  const explained = pValue !== null && pValue < FRAGILE_ALPHA && again.failures === 0 && ref.failures === 0;
  return { ...point, below, above, confirmFailures: again.failures, moved, pValue, explained };
}
