/**
 * What the gate's check rows (gate-checks.ts) share: their try counts, the calls without slowdown
 * and alone, and the rules several rows read (held at the reference, a cause still undecided). Pure.
 */
import { CAUSE_ALPHA } from '../cause/cause.js';
import { fisherOneSidedP } from '../fisher-exact.js';
import type { CheckConditions, CheckContext, RoundCall, TestEvidence } from './check-types.js';
import { countFailures, factorMeasured } from './factor-evidence.js';
import { repeatOnlyFailures } from './repeat-only.js';
import type { GateTry } from './runner-protocol.js';
import { REFERENCE_COLD_TRIES } from './warm-schedule.js';

/** Tries per higher factor: enough to see a break that happens every time, cheap next to the reference's. */
export const TRIES_PER_HIGHER_FACTOR = 2;
/**
 * Tries again at the reference for a test that broke higher: with 6, a test failing at the same
 * rate at every factor is called fragile in at most 4.8% of the cases that reach this step (worst
 * rate ~22%; 3 tries gave 12%), while a test that always fails above its limit is still fragile
 * (factor-evidence.ts; docs/gate.md "Fragile or flaky").
 */
export const CONFIRM_TRIES = 6;
/** Tries without slowdown a flaky test gets at most in the must-have row (one cold, the rest warm where cheap), and their share of the time left. */
export const UNTHROTTLED_MAX_TRIES = 30;
export const UNTHROTTLED_WARM_SHARE = 0.25;
/** More tries without slowdown a flaky test's cause gets at most: one cold, the rest warm where it is cheap. */
export const CAUSE_MAX_TRIES = 30;
/** The reference call's warm repeats may take at most half the time to the deadline (the other checks need the rest). */
export const REFERENCE_WARM_SHARE = 0.5;

const failed = (x: GateTry): boolean => x.state === 'failed' || x.state === 'hung';
export const failedSome = (tries: readonly GateTry[]): boolean => tries.some(failed);
export const passedAll = (tries: readonly GateTry[]): boolean =>
  tries.length > 0 && tries.every((x) => x.state === 'passed');
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The order checks' tries side by side, one worker per core: each has a core, and Vitest's own default (cores - 1) ran one at a time on 2 cores. */
export const ALONE_CALL = {
  factor: 1,
  load: false,
  serial: false,
  alone: true,
  unslowed: false,
  perCore: true,
} as const;
export const REVERSED_CALL = {
  factor: 1,
  load: false,
  serial: false,
  alone: false,
  unslowed: false,
  reversed: true,
  perCore: true,
} as const;

const UNTHROTTLED: Pick<RoundCall, 'factor' | 'load' | 'serial' | 'alone' | 'unslowed'> = {
  factor: 1,
  load: false,
  serial: true,
  alone: false,
  unslowed: true,
};

/**
 * Cold tries each, or one cold then warm repeats: the tries without slowdown, one at a time, or
 * side by side with one worker per core (`perCore`: the unthrottled row's first tries; the cause
 * row, which tries again what the machine slowed, stays one at a time). The warm repeats after one
 * cold try replay the reference tries' seeds first (paired-seeds.ts).
 */
export function unthrottledCall(tries: number, maxTries: number | null, budgetShare = 0, perCore = false): RoundCall {
  const how =
    maxTries === null
      ? `${plural(tries, 'try', 'tries')} each`
      : `1 cold try each, then warm repeats up to ${maxTries} where cheap (at least ${tries} in all), the first of them with the seeds of its reference tries, failed ones first,`;
  return {
    ...UNTHROTTLED,
    ...(perCore ? { serial: false, perCore: true } : {}),
    tries,
    ...(maxTries === null
      ? {}
      : { warm: { coldTries: 1, maxTries: Math.max(tries, maxTries), budgetShare }, pairsSeeds: true }),
    how: `${how} without slowdown or load, ${perCore ? 'side by side, one worker per core' : 'one at a time'}`,
  };
}

/** The cold tries of the reference call: fewer than --tries where warm repeats are asked for (--max-tries above --tries). */
export const referenceColdTries = (ctx: CheckContext): number =>
  ctx.maxTries > ctx.tries ? Math.min(ctx.tries, REFERENCE_COLD_TRIES) : ctx.tries;

/** Held at the reference: passed every try there, and its factor is measured (the others' tries above would not be slowed). */
export const heldAtReference = (t: TestEvidence): boolean =>
  passedAll(t.tries('reference')) && factorMeasured(t.tries('reference'));

export const unthrottledTries = (t: TestEvidence): readonly GateTry[] => t.tries('unthrottled', 'cause');

/**
 * Flaky at the reference, passed every try without slowdown, and the two rates not significantly
 * apart: neither timing (needs fewer failures without) nor randomness (needs failures without)
 * shows yet. Only while `more` passes could still make the gap significant: a test that failed 1
 * of 60 reference tries needs over a thousand passes without slowdown to show timing, so its tries
 * here would be spent for nothing (its cause stays undecided, said as such).
 */
export function causeUndecided(reference: readonly GateTry[], idle: readonly GateTry[], more: number): boolean {
  const ref = countFailures(reference);
  const without = countFailures(idle);
  if (without.trials === 0 || without.failures > 0 || ref.failures === 0 || ref.failures === ref.trials) return false;
  if (fisherOneSidedP(without, ref) < CAUSE_ALPHA) return false;
  return fisherOneSidedP({ trials: without.trials + more, failures: 0 }, ref) < CAUSE_ALPHA;
}

/** A row's conditions: no load, in parallel, its file, the pacer's weight, unless said. */
export const conditionsOf = (
  factor: CheckConditions['factor'],
  worker: CheckConditions['worker'],
  more: Partial<Pick<CheckConditions, 'load' | 'serial' | 'alone' | 'order' | 'weight'>> = {},
): CheckConditions => ({
  factor,
  load: false,
  serial: false,
  alone: false,
  order: 'as written',
  worker,
  weight: 'pacer',
  ...more,
});

/**
 * A new test's order check is due: it passed with its file (or failed there only as a repeat
 * inside one worker, and may yet be stable). The reversed row makes it first, for every such test
 * of a file in one try; the alone row only for those it did not clear.
 */
export const wantsOrderCheck = (t: TestEvidence): boolean =>
  t.isNew && (passedAll(t.tries('reference')) || (repeatOnlyFailures(t.tries('reference')) ?? 0) > 0);
