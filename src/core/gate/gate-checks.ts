/**
 * The gate's checks as rows of one table (docs/gate.md "The checks as rows"): each row is a
 * must-have or a nice-to-have, says the conditions its tries run under and what it costs, and is
 * made of rounds; a round's rule says which tests want it given the evidence so far
 * (check-evidence.ts). One loop (commands/gate/gate-checks-run.ts) runs the rows in order under one
 * deadline: every must-have before any nice-to-have. A new check is a row here and its rule. Pure.
 */
import { CAUSE_ALPHA } from '../cause/cause.js';
import { fisherOneSidedP } from '../fisher-exact.js';
import { escalationFactors } from './breaking-point.js';
import type { TestEvidence } from './check-evidence.js';
import { CONFIRM_MAX_TRIES, countFailures, factorMeasured, keepsClimbing } from './factor-evidence.js';
import { ALONE_AGAIN_TRIES, ALONE_TRIES, countsAtFactorOne } from './gate-evidence.js';
import { repeatOnlyFailures } from './repeat-only.js';
import type { GateTry } from './runner-protocol.js';
import { REFERENCE_COLD_TRIES } from './warm-schedule.js';

export type CheckId = 'reference' | 'unthrottled' | 'alone' | 'alone-again' | 'cause' | 'higher' | 'confirm';

/** What a row's tries run under. */
interface CheckConditions {
  /** The slowdown: the reference factor, none, or the factors above the reference. */
  readonly factor: 'reference' | 'none' | 'above the reference';
  /** The busy workers (--workers) run beside the tries. */
  readonly load: boolean;
  /** One try at a time. */
  readonly serial: boolean;
  /** Only the test from its file (by its line), not its file. */
  readonly alone: boolean;
  /** A fresh worker for every try, or cold tries then warm repeats inside one worker where the test is cheap. */
  readonly worker: 'fresh' | 'fresh, then warm repeats';
  /** The CPU weight of the tries' cgroup: the pacer's, or the highest the kernel allows (the machine's own load must not slow them). */
  readonly weight: 'pacer' | 'highest';
}

/** What the rules read beside a test's evidence: the gate's options. */
export interface CheckContext {
  /** --tries. */
  readonly tries: number;
  /** --max-tries. */
  readonly maxTries: number;
  /** The reference slowdown asked for (1: none). */
  readonly slowdown: number;
  /** The reference tries run slowed down or under load (else they are the tries without slowdown). */
  readonly loaded: boolean;
}

/** How one round's tries are made. */
interface RoundCall {
  /** The slowdown asked (1: none). */
  readonly factor: number;
  readonly load: boolean;
  readonly serial: boolean;
  readonly alone: boolean;
  readonly unslowed: boolean;
  /** Tries every test of the round gets (cold, each a fresh worker, unless `coldTries` says fewer). */
  readonly tries: number;
  /** Warm repeats after the cold tries, up to `maxTries` tries in all, while `budgetShare` of the time to the deadline lasts. */
  readonly warm?: { readonly coldTries: number; readonly maxTries: number; readonly budgetShare: number };
  /** How the step line says the tries ("5 tries each"). */
  readonly how: string;
}

export interface CheckRound {
  /** Why its tests are in it, as the step line says it ("that failed every reference try"). */
  readonly why: string;
  /** The progress line's name for it ("alone", "at x4"). */
  readonly label: string;
  /** Its name among the phases whose factor the contention line compares, when it is one. */
  readonly phase?: string;
  readonly wants: (t: TestEvidence) => boolean;
  readonly call: RoundCall;
}

export interface CheckRow {
  readonly id: CheckId;
  readonly kind: 'must-have' | 'nice-to-have';
  /** The question it answers. */
  readonly question: string;
  readonly conditions: CheckConditions;
  /** What it costs, said. */
  readonly cost: string;
  /** A test in a round whose outcome did not report it still gets the round, with no tries (the climb stops there). */
  readonly keepsEmptyRounds?: boolean;
  /** The round's calls are not nice-to-have cuts when the deadline ends them (the climb stops at the deadline). */
  readonly rounds: (ctx: CheckContext) => readonly CheckRound[];
}

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
const UNTHROTTLED_MAX_TRIES = 30;
const UNTHROTTLED_WARM_SHARE = 0.25;
/** More tries without slowdown a flaky test's cause gets at most: one cold, the rest warm where it is cheap. */
const CAUSE_MAX_TRIES = 30;
/** The reference call's warm repeats may take at most half the time to the deadline (the other checks need the rest). */
const REFERENCE_WARM_SHARE = 0.5;

const failed = (x: GateTry): boolean => x.state === 'failed' || x.state === 'hung';
const failedSome = (tries: readonly GateTry[]): boolean => tries.some(failed);
const passedAll = (tries: readonly GateTry[]): boolean => tries.length > 0 && tries.every((x) => x.state === 'passed');
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

const ALONE_CALL = { factor: 1, load: false, serial: false, alone: true, unslowed: false } as const;

const UNTHROTTLED: Pick<RoundCall, 'factor' | 'load' | 'serial' | 'alone' | 'unslowed'> = {
  factor: 1,
  load: false,
  serial: true,
  alone: false,
  unslowed: true,
};

/** Cold tries each, or one cold then warm repeats: the tries without slowdown, one at a time. */
function unthrottledCall(tries: number, maxTries: number | null, budgetShare = 0): RoundCall {
  const how =
    maxTries === null
      ? `${plural(tries, 'try', 'tries')} each`
      : `1 cold try each, then warm repeats up to ${maxTries} where cheap (at least ${tries} in all)`;
  return {
    ...UNTHROTTLED,
    tries,
    ...(maxTries === null ? {} : { warm: { coldTries: 1, maxTries: Math.max(tries, maxTries), budgetShare } }),
    how: `${how} without slowdown or load, one at a time`,
  };
}

/** The cold tries of the reference call: fewer than --tries where warm repeats are asked for (--max-tries above --tries). */
const referenceColdTries = (ctx: CheckContext): number =>
  ctx.maxTries > ctx.tries ? Math.min(ctx.tries, REFERENCE_COLD_TRIES) : ctx.tries;

/** Held at the reference: passed every try there, and its factor is measured (the others' tries above would not be slowed). */
const heldAtReference = (t: TestEvidence): boolean =>
  passedAll(t.tries('reference')) && factorMeasured(t.tries('reference'));

const unthrottledTries = (t: TestEvidence): readonly GateTry[] => t.tries('unthrottled', 'cause');

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

/** The rows, in the order the loop runs them: every must-have before any nice-to-have. */
export const GATE_CHECKS: readonly CheckRow[] = [
  {
    id: 'reference',
    kind: 'must-have',
    question: 'does it fail under the reference slowdown and load, as on a busy CI machine?',
    conditions: {
      factor: 'reference',
      load: true,
      serial: false,
      alone: false,
      worker: 'fresh, then warm repeats',
      weight: 'pacer',
    },
    cost: 'every file --tries cold tries side by side, then warm repeats up to --max-tries in half the time left',
    rounds: (ctx) => {
      const coldTries = referenceColdTries(ctx);
      return [
        {
          why: '',
          label: 'reference',
          phase: 'reference',
          wants: () => true,
          call: {
            factor: ctx.slowdown,
            load: true,
            serial: false,
            alone: false,
            unslowed: false,
            tries: ctx.tries,
            // With --max-tries at --tries no warm repeat is asked for: every try is cold, as in CI.
            warm: { coldTries, maxTries: ctx.maxTries, budgetShare: REFERENCE_WARM_SHARE },
            how: `${plural(coldTries, 'cold try', 'cold tries')} each (each a fresh worker running its file), then warm repeats up to ${ctx.maxTries} tries for the tests that cost little next to their file and have not failed (cold tries up to ${ctx.tries} for the others)`,
          },
        },
      ];
    },
  },
  {
    id: 'unthrottled',
    kind: 'must-have',
    question: 'does a test that failed at the reference fail without slowdown too (failing, random) or not (timing)?',
    conditions: {
      factor: 'none',
      load: false,
      serial: true,
      alone: false,
      worker: 'fresh, then warm repeats',
      weight: 'highest',
    },
    cost: "each failed test's file --tries times one at a time (a flaky one's warm repeats up to 30 in a quarter of the time left)",
    rounds: (ctx) =>
      ctx.loaded
        ? [
            {
              why: 'that failed every reference try',
              label: 'without load',
              phase: 'unthrottled',
              wants: (t) => failedSome(t.tries('reference')) && !t.tries('reference').some((x) => x.state === 'passed'),
              call: unthrottledCall(ctx.tries, null),
            },
            {
              why: 'that failed some reference tries',
              label: 'without load',
              phase: 'unthrottled',
              wants: (t) => failedSome(t.tries('reference')) && t.tries('reference').some((x) => x.state === 'passed'),
              call: unthrottledCall(ctx.tries, UNTHROTTLED_MAX_TRIES, UNTHROTTLED_WARM_SHARE),
            },
          ]
        : [],
  },
  {
    id: 'alone',
    kind: 'must-have',
    question: 'does a new test that passed with its file pass alone (else it needs an earlier test)?',
    conditions: { factor: 'none', load: false, serial: false, alone: true, worker: 'fresh', weight: 'pacer' },
    cost: 'one try of its file per new test, side by side',
    rounds: () => [
      {
        why: 'once alone (order dependence)',
        label: 'alone',
        // A new test that failed only as a repeat inside one worker may yet be stable: it needs its alone try too.
        wants: (t) =>
          t.isNew && (passedAll(t.tries('reference')) || (repeatOnlyFailures(t.tries('reference')) ?? 0) > 0),
        call: { ...ALONE_CALL, tries: ALONE_TRIES, how: '' },
      },
    ],
  },
  {
    id: 'alone-again',
    kind: 'must-have',
    question: 'does a test that failed alone fail alone every time (order dependence) or only some times (a flake)?',
    conditions: { factor: 'none', load: false, serial: false, alone: true, worker: 'fresh', weight: 'pacer' },
    cost: 'two more alone tries per test that failed alone',
    rounds: () => [
      {
        why: 'that failed alone, alone twice more',
        label: 'alone again',
        wants: (t) => t.tries('alone').some((x) => x.state !== 'passed' && x.state !== 'skipped'),
        call: { ...ALONE_CALL, tries: ALONE_AGAIN_TRIES, how: '' },
      },
    ],
  },
  {
    id: 'cause',
    kind: 'nice-to-have',
    question: "what a flaky test's tries without slowdown still need to tell timing from randomness",
    conditions: {
      factor: 'none',
      load: false,
      serial: true,
      alone: false,
      worker: 'fresh, then warm repeats',
      weight: 'highest',
    },
    cost: '--tries again where the busy machine slowed them; warm repeats up to 30 in half the time left where undecided',
    rounds: (ctx) => {
      if (!ctx.loaded) return [];
      const extra = Math.min(ctx.maxTries, CAUSE_MAX_TRIES);
      return [
        {
          // Tries without slowdown that failed while the busy machine slowed them above OFF_FACTOR do
          // not count (gate-evidence.ts): a test that failed every reference try gets them again.
          why: 'whose tries without slowdown the busy machine slowed (they did not count)',
          label: 'without load',
          wants: (t) => {
            const ref = t.tries('reference');
            const idle = unthrottledTries(t);
            return (
              ref.length > 0 &&
              countFailures(ref).failures === ref.length &&
              idle.length > 0 &&
              countsAtFactorOne(idle).length < ctx.tries
            );
          },
          call: unthrottledCall(ctx.tries, null),
        },
        {
          why: 'whose first failure came in the extra tries',
          label: 'without load',
          wants: (t) => countFailures(t.tries('reference')).failures > 0 && unthrottledTries(t).length === 0,
          call: unthrottledCall(ctx.tries, null),
        },
        {
          why: 'whose tries so far do not tell timing from randomness',
          label: 'without load',
          wants: (t) => causeUndecided(t.tries('reference'), countsAtFactorOne(unthrottledTries(t)), extra),
          call: unthrottledCall(ctx.tries, extra, 0.5),
        },
      ];
    },
  },
  {
    id: 'higher',
    kind: 'nice-to-have',
    question: 'where does a test that held at the reference break?',
    conditions: {
      factor: 'above the reference',
      load: false,
      serial: false,
      alone: false,
      worker: 'fresh',
      weight: 'pacer',
    },
    cost: `${TRIES_PER_HIGHER_FACTOR} tries of its file at each factor above the reference while it holds`,
    keepsEmptyRounds: true,
    rounds: (ctx) =>
      ctx.slowdown > 1
        ? escalationFactors(ctx.slowdown).map((factor) => ({
            why: `that held at x${ctx.slowdown}`,
            label: `at x${factor}`,
            phase: `x${factor}`,
            wants: (t: TestEvidence) => heldAtReference(t) && t.rounds('higher').every((r) => keepsClimbing(r.tries)),
            call: {
              factor,
              load: false,
              serial: false,
              alone: false,
              unslowed: false,
              tries: TRIES_PER_HIGHER_FACTOR,
              how: `${TRIES_PER_HIGHER_FACTOR} tries at x${factor} (where does it break?)`,
            },
          }))
        : [],
  },
  {
    id: 'confirm',
    kind: 'nice-to-have',
    question: 'is a test that broke above the reference fragile (a limit) or flaky (it fails at the reference too)?',
    conditions: {
      factor: 'reference',
      load: false,
      serial: false,
      alone: false,
      worker: 'fresh, then warm repeats',
      weight: 'pacer',
    },
    cost: `${CONFIRM_TRIES} cold tries at the reference, then warm repeats up to ${CONFIRM_MAX_TRIES} in half the time left`,
    keepsEmptyRounds: true,
    rounds: (ctx) =>
      ctx.slowdown > 1
        ? [
            {
              // A random flake that passed its reference tries by luck and then failed higher is not
              // fragile: the tests that broke get as many tries again at the reference.
              why: `that broke above x${ctx.slowdown}`,
              label: `at x${ctx.slowdown} again`,
              phase: 'confirm',
              wants: (t) => t.rounds('higher').some((r) => r.tries.some((x) => x.state !== 'passed')),
              call: {
                factor: ctx.slowdown,
                load: false,
                serial: false,
                alone: false,
                unslowed: false,
                tries: CONFIRM_TRIES,
                // A cheap test gets warm repeats up to CONFIRM_MAX_TRIES: a flake fails there too, a limit does not.
                warm: { coldTries: CONFIRM_TRIES, maxTries: CONFIRM_MAX_TRIES, budgetShare: 0.5 },
                how: `${CONFIRM_TRIES} more cold tries at x${ctx.slowdown}, then warm repeats up to ${CONFIRM_MAX_TRIES} where cheap (flaky or fragile?)`,
              },
            },
          ]
        : [],
  },
];
