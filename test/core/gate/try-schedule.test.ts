import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planWave, type TryTally, type WaveInput, wantsMoreTries } from '../../../src/core/gate/try-schedule.js';

const input = (over: Partial<WaveInput> = {}): WaveInput => ({
  tests: [
    { key: 'a1', fileKey: 'a' },
    { key: 'b1', fileKey: 'b' },
  ],
  tally: new Map(),
  costMs: new Map([
    ['a', 500],
    ['b', 2000],
  ]),
  minTries: 5,
  maxTries: 10,
  budgetMs: 60_000,
  elapsedMs: 10_000,
  parallel: 1,
  wave: 1,
  ...over,
});
const tally = (entries: Record<string, TryTally>): Map<string, TryTally> => new Map(Object.entries(entries));
const copies = (plan: ReturnType<typeof planWave>): Record<string, number> =>
  Object.fromEntries(plan.map((p) => [p.fileKey, p.copies]));

describe('planWave', () => {
  it('first wave: every file --tries times', () => {
    expect(copies(planWave(input({ wave: 0 })))).toEqual({ a: 5, b: 5 });
  });

  it('first wave of one cold try and warm repeats, with the costs an earlier call measured: the repeats ride on the cold try', () => {
    const hints = {
      meanMs: new Map([
        ['a1', 6],
        ['b1', 1900],
      ]),
      costMs: new Map([
        ['a', 500],
        ['b', 2000],
      ]),
    };
    const plan = planWave(input({ wave: 0, warm: true, coldTries: 1, maxTries: 30, hints }));
    // a1 is cheap next to its file: one worker, its first run cold, then 29 repeats (30 in all);
    // b1 costs about its file: 5 cold copies (at least --tries), no repeats.
    expect(plan).toEqual([
      { fileKey: 'a', copies: 1, repeats: new Map([['a1', 29]]) },
      { fileKey: 'b', copies: 5 },
    ]);
    // Without hints, or with more than one cold try asked, the first wave is cold copies only.
    expect(copies(planWave(input({ wave: 0, warm: true, coldTries: 1, maxTries: 30 })))).toEqual({ a: 1, b: 1 });
    expect(copies(planWave(input({ wave: 0, warm: true, coldTries: 5, maxTries: 30, hints })))).toEqual({ a: 5, b: 5 });
  });

  it('extra tries for tests that can still change verdict, while the budget lasts', () => {
    const t = tally({ a1: { passed: 5, failed: 0 }, b1: { passed: 5, failed: 0 } });
    expect(copies(planWave(input({ tally: t })))).toEqual({ a: 1, b: 1 });
  });

  it('cheapest file first when the budget is short', () => {
    const t = tally({ a1: { passed: 5, failed: 0 }, b1: { passed: 5, failed: 0 } });
    expect(copies(planWave(input({ tally: t, elapsedMs: 59_000 })))).toEqual({ a: 1 });
    expect(planWave(input({ tally: t, elapsedMs: 60_000 }))).toEqual([]);
  });

  it('stops a test once it has passed and failed, and at max tries; never chases a test that never ran', () => {
    expect(planWave(input({ tally: tally({ a1: { passed: 3, failed: 2 }, b1: { passed: 10, failed: 0 } }) }))).toEqual(
      [],
    );
    expect(planWave(input({ tally: tally({ a1: { passed: 0, failed: 0 }, b1: { passed: 0, failed: 10 } }) }))).toEqual(
      [],
    );
  });

  it('tries below the minimum (a crashed worker) run whatever the budget', () => {
    const t = tally({ a1: { passed: 3, failed: 0 }, b1: { passed: 5, failed: 0 } });
    expect(copies(planWave(input({ tally: t, elapsedMs: 1e9 })))).toEqual({ a: 2 });
  });

  it('with several workers, several copies of a file in one wave', () => {
    const t = tally({ a1: { passed: 5, failed: 0 } });
    expect(copies(planWave(input({ tests: [{ key: 'a1', fileKey: 'a' }], tally: t, parallel: 3 })))).toEqual({ a: 3 });
  });

  it('property: no test is planned past max tries, and a decided test adds no copies', () => {
    const arb = fc.record({
      passed: fc.integer({ min: 0, max: 12 }),
      failed: fc.integer({ min: 0, max: 12 }),
      maxTries: fc.integer({ min: 5, max: 12 }),
      parallel: fc.integer({ min: 1, max: 8 }),
    });
    fc.assert(
      fc.property(arb, ({ passed, failed, maxTries, parallel }) => {
        const t = tally({ a1: { passed, failed } });
        const plan = planWave(
          input({ tests: [{ key: 'a1', fileKey: 'a' }], tally: t, maxTries, parallel, budgetMs: 1e9 }),
        );
        const planned = plan.reduce((n, p) => n + p.copies, 0);
        expect(passed + failed === 0 || passed + failed + planned <= Math.max(maxTries, passed + failed)).toBe(true);
        if (!wantsMoreTries({ passed, failed }, maxTries)) expect(planned).toBe(0);
      }),
    );
  });

  it('a 30%-flaky test with 10 tries is caught with at least 95% probability (the default max tries)', () => {
    expect(1 - 0.7 ** 10).toBeGreaterThanOrEqual(0.95);
  });
});
