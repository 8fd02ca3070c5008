import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SourceSignal } from '../../../src/core/cause/cause.js';
import { fisherOneSidedP } from '../../../src/core/fisher-exact.js';
import { findGateCause, type GateCauseInput } from '../../../src/core/gate/gate-cause.js';
import type { GateTry } from '../../../src/core/gate/runner-protocol.js';

const pass = (cold = true): GateTry => ({ state: 'passed', durationMs: 5, cold });
const fail = (cold = true, error = 'AssertionError: expected 1 to be 0'): GateTry => ({
  state: 'failed',
  durationMs: 5,
  cold,
  error,
});
const sleep: SourceSignal = {
  line: 14,
  text: 'setTimeout(10)',
  classes: ['timing'],
  fix: 'await the event instead of `setTimeout(10)`',
};
const random: SourceSignal = { line: 15, text: 'Math.random()', classes: ['random-or-concurrency'], fix: 'seed it' };
const shared: SourceSignal = { line: 3, text: 'let n written', classes: ['order'], fix: 'reset `n` in beforeEach' };
const times = (n: number, t: GateTry): GateTry[] => Array.from({ length: n }, () => t);
const input = (over: Partial<GateCauseInput>): GateCauseInput => ({
  file: 'test/x.test.ts',
  line: 12,
  verdict: 'flaky',
  reference: { factor: 2, tries: [pass(), fail(), pass(), pass(), pass()] },
  higher: [],
  confirm: [],
  unthrottled: null,
  alone: null,
  ...over,
});

const tryArb = fc.record({
  state: fc.constantFrom<GateTry['state']>('passed', 'failed', 'hung'),
  durationMs: fc.constant(5),
  cold: fc.boolean(),
  error: fc.constantFrom('AssertionError', 'Error: listen EADDRINUSE: address already in use :::4000', 'boom'),
});
const inputArb = fc.record({
  file: fc.constant('test/x.test.ts'),
  line: fc.integer({ min: 1, max: 500 }),
  verdict: fc.constantFrom('flaky' as const, 'fragile' as const, 'order-dependent' as const),
  reference: fc.record({ factor: fc.constantFrom(1, 2), tries: fc.array(tryArb, { minLength: 1, maxLength: 10 }) }),
  higher: fc.array(
    fc.record({ factor: fc.constantFrom(4, 8), tries: fc.array(tryArb, { minLength: 1, maxLength: 3 }) }),
    {
      maxLength: 2,
    },
  ),
  confirm: fc.array(tryArb, { maxLength: 6 }),
  unthrottled: fc.option(fc.array(tryArb, { minLength: 1, maxLength: 10 }), { nil: null }),
  alone: fc.option(fc.array(tryArb, { minLength: 1, maxLength: 3 }), { nil: null }),
});
const failures = (tries: readonly GateTry[]) => ({
  failures: tries.filter((t) => t.state !== 'passed' && t.state !== 'skipped').length,
  trials: tries.filter((t) => t.state !== 'skipped').length,
});

describe('findGateCause', () => {
  it('timing: fails at the reference, not unthrottled; the fix names the test line', () => {
    const c = findGateCause(
      input({ reference: { factor: 2, tries: times(5, fail()) }, unthrottled: times(5, pass()) }),
    );
    expect(c).toMatchObject({ class: 'timing', confidence: 'measured' });
    expect(c.evidence[0]?.text).toBe('failed 5/5 tries at x2.0, 0/5 unthrottled (one-sided Fisher p = 0.004)');
    expect(c.fix).toContain('at test/x.test.ts:12');
  });
  it('timing: fragile by the factor test', () => {
    const c = findGateCause(
      input({
        verdict: 'fragile',
        reference: { factor: 2, tries: times(5, pass()) },
        higher: [{ factor: 4.1, tries: [fail(), fail()] }],
        confirm: times(6, pass()),
      }),
    );
    expect(c.class).toBe('timing');
    expect(c.evidence[0]?.text).toContain(
      'failed 2/2 tries from x4.1 up, 0/11 at and below x2.0 and the factors it held at (one-sided Fisher p = 0.013)',
    );
  });
  it('cold start: fails its cold tries, passes its warm ones', () => {
    const c = findGateCause(
      input({ reference: { factor: 1, tries: [fail(true), fail(true), fail(true), ...times(9, pass(false))] } }),
    );
    expect(c.class).toBe('cold-start');
    expect(c.evidence[0]?.text).toBe(
      'failed 3/3 cold tries (first in a fresh worker), 0/9 warm ones under the same conditions (one-sided Fisher p = 0.0045)',
    );
    // 3/3 against 0/5 (p = 0.018) is not yet below COLD_ALPHA.
    const few = findGateCause(
      input({ reference: { factor: 1, tries: [fail(true), fail(true), fail(true), ...times(5, pass(false))] } }),
    );
    expect(few.class).not.toBe('cold-start');
  });
  it('cold start across checks: each check compares its own cold and warm tries (the evidence branch: 2 cold of 5 at x2, 1 cold of 30 unthrottled)', () => {
    const c = findGateCause(
      input({
        reference: { factor: 2, tries: [fail(true), fail(true), ...times(3, pass(false))] },
        unthrottled: [fail(true), ...times(29, pass(false))],
      }),
    );
    expect(c.class).toBe('cold-start');
    // 1/C(5,2) at x2 times 1/30 unthrottled: 1/300.
    expect(c.evidence[0]?.text).toBe(
      "failed 3/3 cold tries (first in a fresh worker), 0/32 warm ones under the same conditions (one-sided Fisher, each check's cold tries against its warm ones p = 0.0033)",
    );
  });
  it('a timing flake whose warm tries all ran unthrottled is timing, not cold start (pooled, 3/6 cold against 0/28 warm was p = 0.0033)', () => {
    // At x2 it failed 3 of its 5 cold tries and got no warm ones (it had passed and failed);
    // unthrottled it passed its cold try and 28 warm repeats, then the cold round's 5 cold tries:
    // the slowdown fails it, not the cold worker.
    const reference = { factor: 2, tries: [fail(true), fail(true), fail(true), pass(true), pass(true)] };
    const c = findGateCause(input({ reference, unthrottled: [...times(6, pass(true)), ...times(28, pass(false))] }));
    expect(c.class).toBe('timing');
    // Without the cold round (the time budget cut it) neither is measured: unknown, saying why.
    const cut = findGateCause(input({ reference, unthrottled: [pass(true), ...times(28, pass(false))] }));
    expect(cut.class).toBe('unknown');
    expect(cut.evidence[0]?.text).toMatch(/^its cold tries failed more than its warm ones only across checks/);
    expect(cut.fix).toBe(
      'give the gate the time for its cold tries without slowdown (a larger --time-budget), then read the cause; the test is at test/x.test.ts:12',
    );
  });
  it('a random flake whose failures fell on cold tries by chance is not cold start (seen in CI: p = 0.049)', () => {
    const cold = [fail(true), fail(true), fail(true), ...times(3, pass(true))];
    const warm = [...times(3, fail(false)), ...times(26, pass(false))];
    const c = findGateCause(input({ reference: { factor: 2, tries: [...cold, ...warm] }, unthrottled: warm }));
    expect(c.class).toBe('random-or-concurrency');
  });
  it('property: a random flake comes out cold-start in at most 1 of 100 (same rate cold and warm)', () => {
    // A seeded draw stands in for the tries: 600 flakes at rates 1 in 10 to 4 in 10, 5-7 cold tries, 28-60 warm.
    let state = 12345;
    const next = (): number => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31;
    };
    let coldStart = 0;
    for (let k = 0; k < 600; k++) {
      const rate = 0.1 + 0.1 * (k % 4);
      const tries = (n: number, isCold: boolean): GateTry[] =>
        Array.from({ length: n }, () => (next() < rate ? fail(isCold) : pass(isCold)));
      const all = [...tries(5 + (k % 3), true), ...tries(28 + (k % 33), false)];
      if (!all.some((t) => t.state === 'failed')) continue;
      if (findGateCause(input({ reference: { factor: 2, tries: all } })).class === 'cold-start') coldStart++;
    }
    expect(coldStart).toBeLessThanOrEqual(6);
  });
  it('order: passes after the tests before it, fails alone, naming them', () => {
    const c = findGateCause(
      input({
        verdict: 'order-dependent',
        reference: { factor: 2, tries: times(5, pass()) },
        alone: times(3, fail()),
        before: ['seeds the cart'],
      }),
    );
    expect(c.class).toBe('order');
    expect(c.evidence[0]?.text).toBe(
      'passed 5/5 after "seeds the cart" in test/x.test.ts, failed 3/3 alone: it depends on "seeds the cart" in test/x.test.ts',
    );
    expect(c.fix).toBe(
      'reset the module state in beforeEach, or set up what the test needs in the test itself, at test/x.test.ts:12',
    );
  });
  it('randomness: fails unthrottled as often', () => {
    const tries = [pass(), fail(), pass(), fail(), pass()];
    expect(findGateCause(input({ reference: { factor: 2, tries }, unthrottled: tries })).class).toBe(
      'random-or-concurrency',
    );
    const c = findGateCause(input({ reference: { factor: 1, tries }, unthrottled: null, referenceUnthrottled: true }));
    expect(c.evidence[0]?.text).toBe(
      'failed 2/5 tries unthrottled: it fails without any slowdown, at no factor-dependent rate',
    );
  });
  it('network: the failed tries name a port or socket error', () => {
    const c = findGateCause(
      input({
        reference: {
          factor: 1,
          tries: [pass(), fail(true, 'Error: listen EADDRINUSE: address already in use :::4000')],
        },
      }),
    );
    expect(c).toMatchObject({
      class: 'network',
      evidence: [{ kind: 'error', text: '1 of 1 failed tries name EADDRINUSE' }],
    });
  });
  it('unknown when nothing decides; source signals support, never decide', () => {
    const random: SourceSignal = {
      line: 14,
      text: 'Math.random()',
      classes: ['random-or-concurrency'],
      fix: 'seed it',
    };
    const c = findGateCause(input({ signals: [random] }));
    expect(c).toMatchObject({ class: 'unknown', evidence: [{ kind: 'source', text: 'Math.random()', line: 14 }] });
    expect(c.fix).toContain('test/x.test.ts:12');
  });

  it('a signal of the measured class gives the fix its line', () => {
    const unthrottled = times(10, pass());
    const reference = { factor: 2, tries: times(10, fail()) };
    const c = findGateCause(input({ reference, unthrottled, signals: [sleep] }));
    expect(c.class).toBe('timing');
    expect(c.fix).toBe('await the event instead of `setTimeout(10)` at test/x.test.ts:14');
  });

  it('property: signals never change the class, only the evidence and the fix line', () => {
    fc.assert(
      fc.property(inputArb, fc.subarray([sleep, random, shared]), (i, signals) => {
        const without = findGateCause(i);
        const withSignals = findGateCause({ ...i, signals });
        expect(withSignals.class).toBe(without.class);
        expect(withSignals.confidence).toBe(without.confidence);
        expect(withSignals.evidence.slice(0, without.evidence.length)).toEqual(without.evidence);
        expect(withSignals.evidence.slice(without.evidence.length).every((e) => e.kind === 'source')).toBe(true);
        const match = signals.find((s) => s.classes.includes(without.class));
        expect(withSignals.fix).toBe(match ? `${match.fix} at ${i.file}:${match.line}` : without.fix);
      }),
    );
  });

  it('property: no timing without a factor-dependent failure rate', () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        const c = findGateCause(i);
        if (c.class !== 'timing') return;
        if (i.verdict === 'fragile') return; // decided by core/gate/factor-evidence.ts's own test
        expect(i.unthrottled).not.toBeNull();
        expect(fisherOneSidedP(failures(i.unthrottled ?? []), failures(i.reference.tries))).toBeLessThan(0.05);
      }),
    );
  });
  it('property: every class has its evidence in the tries (network: an error; cold: warm tries; order: alone; random: unthrottled failures)', () => {
    fc.assert(
      fc.property(inputArb, (i) => {
        const c = findGateCause(i);
        const all = [
          ...i.reference.tries,
          ...i.confirm,
          ...i.higher.flatMap((l) => l.tries),
          ...(i.unthrottled ?? []),
          ...(i.alone ?? []),
        ];
        expect(c.confidence).toBe('measured');
        expect(c.fix).toMatch(/at test\/x\.test\.ts:\d+$/);
        if (c.class === 'network')
          expect(all.some((t) => t.state !== 'passed' && t.error?.includes('EADDRINUSE'))).toBe(true);
        if (c.class === 'cold-start') expect(all.some((t) => t.cold === false)).toBe(true);
        if (c.class === 'order') expect(i.verdict === 'order-dependent' && i.alone !== null).toBe(true);
        if (c.class === 'random-or-concurrency') expect(failures(i.unthrottled ?? []).failures).toBeGreaterThan(0);
      }),
    );
  });
});
