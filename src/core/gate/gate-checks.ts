/**
 * The gate's checks as rows of one table (docs/gate.md "The checks as rows"): each row is a
 * must-have or a nice-to-have, says the conditions its tries run under and what it costs, and is
 * made of rounds; a round's rule says which tests want it given the evidence so far
 * (check-evidence.ts). One loop (commands/gate/gate-checks-run.ts) runs the rows in order under one
 * deadline: every must-have before any nice-to-have. A new check is a row here and its rule. Pure.
 */
import { escalationFactors } from './breaking-point.js';
import {
  CAUSE_MAX_TRIES,
  CONFIRM_TRIES,
  causeUndecided,
  conditionsOf,
  failedSome,
  heldAtReference,
  plural,
  REFERENCE_WARM_SHARE,
  referenceColdTries,
  TRIES_PER_HIGHER_FACTOR,
  UNTHROTTLED_MAX_TRIES,
  UNTHROTTLED_WARM_SHARE,
  unthrottledCall,
  unthrottledTries,
} from './check-rules.js';
import type { CheckConditions, CheckRow, TestEvidence } from './check-types.js';
import { type CheckTries, coldGapAcrossChecksOnly } from './cold-gap.js';
import { CONFIRM_MAX_TRIES, countFailures, keepsClimbing } from './factor-evidence.js';
import { countsAtFactorOne } from './gate-evidence.js';
import { ORDER_CHECKS } from './order-checks.js';
import { REPLAY_ROW } from './replay-choice.js';

/** The rows, in the order the loop runs them: every must-have before any nice-to-have. */
export const GATE_CHECKS: readonly CheckRow[] = [
  {
    id: 'reference',
    kind: 'must-have',
    question: 'does it fail under the reference slowdown and load, as on a busy CI machine?',
    conditions: conditionsOf('reference', 'fresh, then warm repeats', { load: true }),
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
    conditions: conditionsOf('none', 'fresh, then warm repeats', { serial: false, weight: 'highest' }),
    cost: "each failed test's file --tries times side by side, one worker per core (a flaky one's warm repeats up to 30 in a quarter of the time left)",
    rounds: (ctx) =>
      ctx.loaded
        ? [
            {
              why: 'that failed every reference try',
              label: 'without load',
              phase: 'unthrottled',
              wants: (t) =>
                failedSome(t.tries('reference')) &&
                !t.tries('reference').some((x) => x.state === 'passed') &&
                t.tries('unthrottled').length === 0,
              call: unthrottledCall(ctx.tries, null, 0, true),
            },
            {
              why: 'that failed some reference tries',
              label: 'without load',
              phase: 'unthrottled',
              wants: (t) =>
                failedSome(t.tries('reference')) &&
                t.tries('reference').some((x) => x.state === 'passed') &&
                t.tries('unthrottled').length === 0,
              call: unthrottledCall(ctx.tries, UNTHROTTLED_MAX_TRIES, UNTHROTTLED_WARM_SHARE, true),
            },
          ]
        : [],
  },
  ...ORDER_CHECKS,
  {
    id: 'cause',
    kind: 'nice-to-have',
    question:
      "what a flaky test's tries without slowdown still need to tell timing from randomness, or a cold start from the slowdown",
    conditions: conditionsOf('none', 'fresh, then warm repeats', { serial: true, weight: 'highest' }),
    cost: '--tries again where the busy machine slowed them; warm repeats up to 30 in half the time left where undecided; --tries cold tries where its cold tries failed more than its warm ones only across checks',
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
        {
          // A cold try at the reference against warm ones without slowdown is two conditions at once.
          why: 'whose cold tries failed more than its warm ones only across checks (cold at one factor, warm at another)',
          label: 'cold, without load',
          wants: (t) => coldGapAcrossChecksOnly(checkTries(t)),
          call: unthrottledCall(ctx.tries, null, 0, true),
        },
      ];
    },
  },
  {
    id: 'higher',
    kind: 'nice-to-have',
    question: 'where does a test that held at the reference break?',
    conditions: conditionsOf('above the reference', 'fresh'),
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
    conditions: conditionsOf('reference', 'fresh, then warm repeats'),
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
  REPLAY_ROW,
];

/** The rows as `gate --plan` prints them: each check, must-have or nice-to-have, the question it answers, its conditions and cost. */
export function describeChecks(): {
  check: CheckRow['id'];
  kind: CheckRow['kind'];
  question: string;
  conditions: CheckConditions;
  cost: string;
}[] {
  return GATE_CHECKS.map((r) => ({
    check: r.id,
    kind: r.kind,
    question: r.question,
    conditions: r.conditions,
    cost: r.cost,
  }));
}

/** A test's tries by check, as the cause's cold/warm rule reads them (gate-verdicts.ts builds its input alike). */
const checkTries = (t: TestEvidence): CheckTries => ({
  reference: [...t.tries('reference'), ...t.tries('confirm')],
  higher: t.rounds('higher').map((r) => r.tries),
  unthrottled: countsAtFactorOne(unthrottledTries(t)),
  alone: t.tries('alone', 'alone-again'),
});
