import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addRound, emptyEvidence, viewOf } from '../../../src/core/gate/check-evidence.js';
import type { CheckContext, CheckId } from '../../../src/core/gate/check-types.js';
import { describeChecks, GATE_CHECKS } from '../../../src/core/gate/gate-checks.js';
import type { GateTry } from '../../../src/core/gate/runner-protocol.js';

const ctx: CheckContext = { tries: 5, maxTries: 150, slowdown: 2, loaded: true };
const pass: GateTry = { state: 'passed', durationMs: 5, cold: true, slowdown: 2 };
const fail: GateTry = { state: 'failed', durationMs: 5, cold: true, slowdown: 2, error: 'Error: boom' };
const times = (n: number, t: GateTry): GateTry[] => Array.from({ length: n }, () => t);

/** A test's evidence with the given rounds, and which rounds of which rows want it next. */
function wanted(isNew: boolean, rounds: Partial<Record<CheckId, GateTry[][]>>, context = ctx): string[] {
  const evidence = emptyEvidence();
  for (const [check, list] of Object.entries(rounds))
    for (const tries of list ?? []) addRound(evidence, 't', check as CheckId, { asked: 2, got: 2, tries });
  const view = viewOf(evidence, 't', isNew);
  return GATE_CHECKS.flatMap((row) => row.rounds(context).flatMap((r, i) => (r.wants(view) ? [`${row.id}#${i}`] : [])));
}

describe('the gate checks as rows', () => {
  it('every must-have row comes before any nice-to-have, the reference first', () => {
    const kinds = GATE_CHECKS.map((r) => r.kind);
    expect(GATE_CHECKS[0]?.id).toBe('reference');
    expect(kinds.indexOf('nice-to-have')).toBeGreaterThan(kinds.lastIndexOf('must-have'));
    expect(new Set(GATE_CHECKS.map((r) => r.id)).size).toBe(GATE_CHECKS.length);
  });

  it('a new test that passed every reference try wants its order checks and, its factor measured, the climb', () => {
    expect(wanted(true, { reference: [times(5, pass)] })).toEqual([
      'reference#0',
      'reversed#0',
      'alone#0',
      'higher#0',
      'higher#1',
    ]);
    // Its file passed in reverse order (the tests above it did not run before it): no alone try.
    expect(wanted(true, { reference: [times(5, pass)], reversed: [[pass]] })).toEqual([
      'reference#0',
      'reversed#0',
      'higher#0',
      'higher#1',
    ]);
    // It failed there: its alone try tells whether it needs an earlier test.
    expect(wanted(true, { reference: [times(5, pass)], reversed: [[fail]] })).toContain('alone#0');
    // An old test does not need its alone try.
    expect(wanted(false, { reference: [times(5, pass)] })).toEqual(['reference#0', 'higher#0', 'higher#1']);
  });

  it('a test whose cold tries failed only at the reference, its warm ones all unthrottled, wants cold tries without slowdown', () => {
    const warm = (t: GateTry): GateTry => ({ ...t, cold: false, slowdown: 1 });
    // Cold 3/5 failed at x2, then 1 cold pass and 28 warm passes unthrottled: pooled p = 0.0033,
    // within each check nothing (no warm try at x2): the cause row's cold round tells the two apart.
    const unthrottled = [[{ ...pass, slowdown: 1 }, ...times(28, warm(pass))]];
    expect(wanted(true, { reference: [[...times(3, fail), ...times(2, pass)]], unthrottled })).toContain('cause#3');
    // A cold start seen within the checks (2 cold fails and 3 warm passes at x2, 1 and 29 unthrottled) does not.
    const settled = {
      reference: [[...times(2, fail), ...times(3, warm(pass))]],
      unthrottled: [[{ ...fail, slowdown: 1 }, ...times(29, warm(pass))]],
    };
    expect(wanted(true, settled)).not.toContain('cause#3');
    // Nor does a test whose cold and warm tries fail alike.
    expect(wanted(true, { reference: [[...times(4, pass), fail]], unthrottled: [times(5, pass)] })).not.toContain(
      'cause#3',
    );
  });

  it('a test that failed some reference tries wants the warm tries without slowdown, not the alone try', () => {
    expect(wanted(true, { reference: [[...times(4, pass), fail]] })).toEqual([
      'reference#0',
      'unthrottled#1',
      'cause#1',
    ]);
    // Once it has them and they do not tell timing from randomness, the cause row wants more.
    expect(
      wanted(true, { reference: [[...times(6, pass), ...times(4, fail)]], unthrottled: [times(5, pass)] }),
    ).toEqual(['reference#0', 'cause#2']);
  });

  it('a test that failed every reference try wants cold tries without slowdown only', () => {
    expect(wanted(false, { reference: [times(5, fail)] })).toEqual(['reference#0', 'unthrottled#0', 'cause#1']);
  });

  it('unloaded reference tries want no tries without slowdown: they were those', () => {
    expect(wanted(false, { reference: [times(5, fail)] }, { ...ctx, slowdown: 1, loaded: false })).toEqual([
      'reference#0',
    ]);
  });

  it('the climb stops at the first factor that did not pass once; a break above wants the confirm tries', () => {
    const reference = [times(5, pass)];
    expect(wanted(false, { reference, higher: [times(2, pass)] })).toEqual(['reference#0', 'higher#0', 'higher#1']);
    expect(wanted(false, { reference, higher: [times(2, fail)] })).toEqual(['reference#0', 'confirm#0']);
    expect(wanted(false, { reference, higher: [[pass, fail]] })).toEqual([
      'reference#0',
      'higher#0',
      'higher#1',
      'confirm#0',
    ]);
  });

  it('a test that failed alone wants the alone tries again', () => {
    expect(wanted(true, { reference: [times(5, pass)], alone: [[fail]] })).toEqual([
      'reference#0',
      'reversed#0',
      'alone#0',
      'alone-again#0',
      'higher#0',
      'higher#1',
    ]);
  });

  it('a rule reads the evidence only: the same evidence, the same tests wanted (any tries)', () => {
    const tryArb = fc.constantFrom(
      pass,
      fail,
      { ...pass, state: 'hung' as const },
      { ...pass, state: 'skipped' as const },
    );
    const roundsArb = fc.array(fc.array(tryArb, { maxLength: 6 }), { maxLength: 3 });
    fc.assert(
      fc.property(fc.boolean(), roundsArb, roundsArb, roundsArb, (isNew, reference, unthrottled, alone) => {
        const once = wanted(isNew, { reference, unthrottled, alone });
        expect(wanted(isNew, { reference, unthrottled, alone })).toEqual(once);
        // Every test wants the reference tries; a test wants no confirm tries without a round above the reference.
        expect(once[0]).toBe('reference#0');
        expect(once).not.toContain('confirm#0');
      }),
    );
  });

  it('gate --plan names every row with its kind, conditions and cost', () => {
    const checks = describeChecks();
    expect(checks.map((c) => c.check)).toEqual(GATE_CHECKS.map((r) => r.id));
    for (const c of checks) {
      expect(c.question).not.toBe('');
      expect(c.cost).not.toBe('');
    }
    expect(checks.find((c) => c.check === 'unthrottled')?.conditions).toMatchObject({
      factor: 'none',
      weight: 'highest',
    });
    expect(checks.find((c) => c.check === 'reversed')?.conditions).toMatchObject({ order: 'reversed', alone: false });
    expect(checks.filter((c) => c.conditions.order === 'reversed').map((c) => c.check)).toEqual(['reversed']);
  });
});
