import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CauseClass } from '../../../src/core/cause/cause.js';
import { addRound, emptyEvidence, viewOf, withJudgement } from '../../../src/core/gate/check-evidence.js';
import type { CheckId, TestJudgement } from '../../../src/core/gate/check-types.js';
import { GATE_CHECKS } from '../../../src/core/gate/gate-checks.js';
import type { GateVerdict } from '../../../src/core/gate/gate-verdict-types.js';
import {
  COSTLY_REPLAY_TRIES,
  chooseReplay,
  groupTestCalls,
  REPLAY_TRIES,
} from '../../../src/core/gate/replay-choice.js';
import type { GateTry } from '../../../src/core/gate/runner-protocol.js';

const pass = (seed: number, cold = true): GateTry => ({ state: 'passed', durationMs: 5, cold, seed });
const fail = (seed: number, cold = true): GateTry => ({ state: 'failed', durationMs: 5, cold, seed, error: 'boom' });

type Round = { readonly check: CheckId; readonly asked: number; readonly tries: readonly GateTry[] };

function evidenceOf(rounds: readonly Round[], judged: TestJudgement) {
  const evidence = emptyEvidence();
  for (const r of rounds) addRound(evidence, 't', r.check, { asked: r.asked, got: r.asked, tries: r.tries });
  return withJudgement(viewOf(evidence, 't', true), judged);
}

const flaky = (cause: CauseClass, verdict: GateVerdict = 'flaky'): TestJudgement => ({ verdict, cause });

describe('the replay row chooses the fewest conditions of the failed tries', () => {
  it('random: the seed of a failed try without slowdown, before one at the reference', () => {
    const e = evidenceOf(
      [
        { check: 'reference', asked: 2, tries: [pass(1), fail(2)] },
        { check: 'unthrottled', asked: 1, tries: [pass(3), fail(4), fail(5)] },
      ],
      flaky('random-or-concurrency'),
    );
    expect(chooseReplay(e)?.call).toEqual({ seed: 4, factor: 1, cold: false, tries: REPLAY_TRIES });
  });

  it('timing: the lowest factor a try failed at, no seed; order: alone; cold start: a fresh worker', () => {
    const timing = evidenceOf(
      [
        { check: 'reference', asked: 2, tries: [pass(1), pass(2)] },
        { check: 'higher', asked: 4, tries: [pass(3), fail(4)] },
        { check: 'higher', asked: 8, tries: [fail(5), fail(6)] },
      ],
      flaky('timing', 'fragile'),
    );
    expect(chooseReplay(timing)?.call).toEqual({ seed: null, factor: 4, cold: false, tries: COSTLY_REPLAY_TRIES });
    const order = evidenceOf(
      [
        { check: 'reference', asked: 2, tries: [pass(1)] },
        { check: 'alone', asked: 1, tries: [fail(2)] },
      ],
      flaky('order', 'order-dependent'),
    );
    expect(chooseReplay(order)).toMatchObject({ call: { seed: null, factor: 1, cold: false }, cause: 'order' });
    const cold = evidenceOf(
      [{ check: 'reference', asked: 2, tries: [fail(1, true), pass(2, false), pass(3, false)] }],
      flaky('cold-start'),
    );
    expect(chooseReplay(cold)?.call).toMatchObject({ seed: null, factor: 1, cold: true });
  });

  it('none for a stable, failing, budget or undecided verdict, nor a network or unknown cause', () => {
    const rounds = [{ check: 'reference' as const, asked: 2, tries: [fail(1), pass(2)] }];
    for (const verdict of ['stable', 'failing', 'over-budget', 'near-budget', 'inconclusive'] as const)
      expect(chooseReplay(evidenceOf(rounds, { verdict, cause: 'timing' }))).toBeNull();
    for (const cause of ['network', 'unknown'] as const)
      expect(chooseReplay(evidenceOf(rounds, flaky(cause)))).toBeNull();
    expect(chooseReplay(viewOf(emptyEvidence(), 't', true))).toBeNull();
  });

  it('the replay row wants a test once: not after its replay tries', () => {
    const row = GATE_CHECKS.find((r) => r.id === 'replay');
    const round = row?.rounds({ tries: 5, maxTries: 150, slowdown: 2, loaded: true })[0];
    const rounds: Round[] = [{ check: 'unthrottled', asked: 1, tries: [fail(7), pass(8)] }];
    expect(round?.wants(evidenceOf(rounds, flaky('random-or-concurrency')))).toBe(true);
    const replayed = [...rounds, { check: 'replay' as const, asked: 1, tries: [fail(7)] }];
    expect(round?.wants(evidenceOf(replayed, flaky('random-or-concurrency')))).toBe(false);
    expect(row).toMatchObject({ kind: 'nice-to-have', readsVerdicts: true });
    expect(GATE_CHECKS.at(-1)?.id).toBe('replay');
  });

  it('property: every condition chosen is one a failed try had (its seed, its round factor, its cold start)', () => {
    const checks: readonly CheckId[] = [
      'reference',
      'unthrottled',
      'reversed',
      'alone',
      'alone-again',
      'cause',
      'higher',
      'confirm',
    ];
    const tryArb = fc
      .record({
        state: fc.constantFrom('passed' as const, 'failed' as const, 'hung' as const),
        cold: fc.boolean(),
        seed: fc.option(fc.nat({ max: 0xffff_ffff })),
      })
      .map(({ seed, ...t }): GateTry => ({ ...t, durationMs: 5, ...(seed === null ? {} : { seed }) }));
    const roundArb = fc.record({
      check: fc.constantFrom(...checks),
      asked: fc.constantFrom(1, 2, 3, 4, 8),
      tries: fc.array(tryArb, { minLength: 1, maxLength: 6 }),
    });
    const judgedArb = fc.record({
      verdict: fc.constantFrom<GateVerdict>('flaky', 'fragile', 'order-dependent', 'failing', 'stable'),
      cause: fc.constantFrom<CauseClass | null>(
        'timing',
        'cold-start',
        'order',
        'random-or-concurrency',
        'network',
        null,
      ),
    });
    fc.assert(
      fc.property(fc.array(roundArb, { maxLength: 8 }), judgedArb, (rounds, judged) => {
        // Tries without slowdown are asked at x1, as the gate asks them.
        const asked = rounds.map((r) =>
          ['unthrottled', 'cause', 'reversed', 'alone', 'alone-again'].includes(r.check) ? { ...r, asked: 1 } : r,
        );
        const choice = chooseReplay(evidenceOf(asked, judged));
        if (choice === null) return;
        const failed = asked.flatMap((r) =>
          r.tries.filter((x) => x.state !== 'passed').map((x) => ({ ...x, asked: r.asked, check: r.check })),
        );
        expect(failed.length).toBeGreaterThan(0);
        // 5 tries, 3 where each is slowed or a fresh worker.
        expect(choice.call.tries).toBe(choice.call.factor > 1 || choice.call.cold ? COSTLY_REPLAY_TRIES : REPLAY_TRIES);
        if (choice.call.seed !== null) expect(failed.some((x) => x.seed === choice.call.seed)).toBe(true);
        if (choice.call.factor > 1) expect(failed.some((x) => x.asked === choice.call.factor)).toBe(true);
        if (choice.call.cold) expect(failed.some((x) => x.cold)).toBe(true);
        // Fewest: one condition at most, of the cause's kind.
        const set = [choice.call.seed !== null, choice.call.factor > 1, choice.call.cold].filter(Boolean).length;
        expect(set).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('tests under the same conditions share a call, each with its own seed', () => {
    const c = (seed: number | null, factor = 1, cold = false) => ({ seed, factor, cold, tries: REPLAY_TRIES });
    const groups = groupTestCalls([
      { test: 'a', call: c(null, 2) },
      { test: 'b', call: c(7) },
      { test: 'c', call: c(null, 2) },
      { test: 'd', call: c(8) },
      { test: 'e', call: c(null, 1, true) },
      { test: 'f', call: c(null) },
    ]);
    expect(groups.map((g) => g.tests.map((t) => t.test))).toEqual([['a', 'c'], ['b', 'd', 'f'], ['e']]);
    expect(groups[1]?.tests.map((t) => t.seed)).toEqual([7, 8, null]);
    expect(groups[1]?.call).toEqual({ factor: 1, cold: false, tries: REPLAY_TRIES });
  });
});
