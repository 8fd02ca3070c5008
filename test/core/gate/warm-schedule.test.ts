import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planWave, type TryTally, type WaveInput } from '../../../src/core/gate/try-schedule.js';
import { WARM_MIN_REPEATS, WARM_SHARE, warmBudgetMs } from '../../../src/core/gate/warm-schedule.js';

/** File a: five 5 ms tests in a 400 ms file; file b: one 1.5 s test in a 2 s file. */
const input = (over: Partial<WaveInput> = {}): WaveInput => ({
  tests: [...['a1', 'a2', 'a3', 'a4', 'a5'].map((key) => ({ key, fileKey: 'a' })), { key: 'b1', fileKey: 'b' }],
  tally: new Map([
    ...['a1', 'a2', 'a3', 'a4', 'a5', 'b1'].map((k): [string, TryTally] => [k, { passed: 5, failed: 0 }]),
  ]),
  costMs: new Map([
    ['a', 400],
    ['b', 2000],
  ]),
  meanMs: new Map([...['a1', 'a2', 'a3', 'a4', 'a5'].map((k): [string, number] => [k, 5]), ['b1', 1500]]),
  minTries: 5,
  maxTries: 150,
  budgetMs: 60_000,
  elapsedMs: 10_000,
  parallel: 1,
  wave: 1,
  warm: true,
  ...over,
});

describe('planWave with warm repeats', () => {
  it('a cheap test gets repeats in one worker of its file, as many as about WARM_SHARE times the file costs', () => {
    const plan = planWave(input());
    expect(plan).toHaveLength(1);
    const [a] = plan;
    expect(a).toMatchObject({ fileKey: 'a', copies: 1 });
    // 4 x 400 ms over five tests of 5 ms: 64 repeats each.
    expect(a?.repeats?.get('a1')).toBe(Math.floor((WARM_SHARE * 400) / (5 * 5)));
  });

  it('a test that costs about as much as its file gets no warm repeats (a cold try costs nearly the same)', () => {
    const plan = planWave(input());
    expect(plan.find((f) => f.fileKey === 'b')).toBeUndefined();
  });

  it('never more tries than maxTries, and none for a test that has passed and failed', () => {
    const t = new Map(input().tally);
    t.set('a1', { passed: 140, failed: 0 });
    t.set('a2', { passed: 3, failed: 2 });
    const [a] = planWave(input({ tally: t }));
    expect(a?.repeats?.get('a1')).toBe(150 - 140 - 1);
    expect(a?.repeats?.has('a2')).toBe(false);
  });

  it('stops when the budget left cannot pay for a worker', () => {
    expect(planWave(input({ elapsedMs: 59_990 }))).toEqual([]);
  });

  it('fewer cold tries first: a cheap test reaches minTries warm whatever the budget, an expensive one by cold copies', () => {
    const t = new Map([...input().tally].map(([k]) => [k, { passed: 1, failed: 0 }]));
    const plan = planWave(input({ tally: t, minTries: 5, maxTries: 20, elapsedMs: 60_000 }));
    const a = plan.find((f) => f.fileKey === 'a');
    const b = plan.find((f) => f.fileKey === 'b');
    expect(a?.copies).toBe(1);
    expect(a?.repeats?.get('a1')).toBe(20 - 1 - 1);
    expect(b).toEqual({ fileKey: 'b', copies: 4 });
    expect(planWave(input({ wave: 0, coldTries: 1 }))).toEqual([
      { fileKey: 'a', copies: 1 },
      { fileKey: 'b', copies: 1 },
    ]);
  });

  it('property: repeats stay within maxTries, at least WARM_MIN_REPEATS each, and a wave is projected within the budget', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ ownMs: fc.double({ min: 0.1, max: 3000, noNaN: true }), had: fc.integer({ min: 5, max: 200 }) }),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        fc.integer({ min: 50, max: 5000 }),
        fc.integer({ min: 0, max: 120_000 }),
        (tests, fileMs, budgetMs) => {
          const keys = tests.map((_, i) => `t${i}`);
          const given = input({
            tests: keys.map((key) => ({ key, fileKey: 'f' })),
            tally: new Map(keys.map((k, i) => [k, { passed: tests[i]?.had ?? 5, failed: 0 }])),
            meanMs: new Map(keys.map((k, i) => [k, tests[i]?.ownMs ?? 1])),
            costMs: new Map([['f', fileMs]]),
            budgetMs,
            elapsedMs: 0,
          });
          let projected = 0;
          for (const f of planWave(given)) {
            projected += fileMs;
            for (const [k, r] of f.repeats ?? []) {
              const i = keys.indexOf(k);
              expect(r).toBeGreaterThanOrEqual(1);
              expect(r + (tests[i]?.had ?? 0) + 1).toBeLessThanOrEqual(150);
              projected += r * Math.max(1, tests[i]?.ownMs ?? 1);
            }
          }
          expect(projected).toBeLessThanOrEqual(budgetMs + 1e-6);
        },
      ),
    );
    expect(WARM_MIN_REPEATS).toBeGreaterThan(1);
  });
});

describe('warmBudgetMs', () => {
  it("is the cold waves' time and 1.3 times it again, within the call's own budget", () => {
    expect(warmBudgetMs(60_000, 10_000, 5, 5)).toBeCloseTo(23_000);
    expect(warmBudgetMs(10_000, 9000, 5, 5)).toBe(10_000);
  });
  it('gives fewer cold waves as many warm tries as minTries cold waves would have had', () => {
    // 3 cold waves of 2 s each: the warm waves get 1.3 x 5 waves' 10 s, after the 6 s spent.
    expect(warmBudgetMs(60_000, 6000, 3, 5)).toBeCloseTo(19_000);
    expect(warmBudgetMs(60_000, 2000, 1, 5)).toBeCloseTo(15_000);
  });
});

describe('planWave with warm repeats: a test that failed', () => {
  it('gets no repeats, and cold copies while it has fewer than minTries', () => {
    const t = new Map(input().tally);
    t.set('a1', { passed: 0, failed: 5 });
    const [a] = planWave(input({ tally: t }));
    expect(a?.repeats?.has('a1')).toBe(false);
    expect(a?.repeats?.get('a2')).toBeGreaterThan(0);
    const few = new Map([...input().tally].map(([k]) => [k, { passed: 1, failed: 0 }]));
    few.set('a1', { passed: 0, failed: 1 });
    const plan = planWave(input({ tally: few, maxTries: 20 }));
    expect(plan.find((f) => f.fileKey === 'a')).toEqual({ fileKey: 'a', copies: 4 });
  });
});

describe('planWave with warm repeats: a budget too short for a full worker per file', () => {
  it('shrinks every file’s repeats by the same share instead of leaving a file without any', () => {
    const files = ['a', 'c'];
    const keys = files.flatMap((f) => [1, 2, 3, 4, 5].map((i) => ({ key: `${f}${i}`, fileKey: f })));
    const given = input({
      tests: keys,
      tally: new Map(keys.map((t): [string, TryTally] => [t.key, { passed: 5, failed: 0 }])),
      meanMs: new Map(keys.map((t): [string, number] => [t.key, 5])),
      costMs: new Map([
        ['a', 400],
        ['c', 400],
      ]),
      // A full worker per file is 400 ms + 5 x 64 x 5 ms = 2000 ms; 2400 ms pays for a share of both.
      budgetMs: 2400,
      elapsedMs: 0,
    });
    const plan = planWave(given);
    expect(plan.map((f) => f.fileKey).sort()).toEqual(['a', 'c']);
    const r = plan[0]?.repeats?.get(`${plan[0]?.fileKey}1`) ?? 0;
    expect(r).toBeGreaterThanOrEqual(WARM_MIN_REPEATS);
    expect(r).toBeLessThan(64);
  });
});
