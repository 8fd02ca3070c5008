import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  estimateMustHave,
  fitTimeBudget,
  planMustHaveChecks,
  TIME_BUDGET_CAP_MS,
} from '../../../src/core/gate/check-plan.js';

const plan = (files: { costMs: number; unthrottled: number; alone: number }[]) =>
  planMustHaveChecks({ files, minTries: 5, parallel: 2, startMs: 1000 });

describe('the must-have checks and the time budget that covers them', () => {
  it('plans the tries without slowdown one at a time and the alone tries side by side, with a start per call and a margin', () => {
    const p = plan([
      { costMs: 800, unthrottled: 2, alone: 1 },
      { costMs: 600, unthrottled: 0, alone: 3 },
    ]);
    expect(p).toMatchObject({ unthrottledTests: 2, unthrottledMs: 4000, aloneTests: 4, aloneMs: 1300 });
    expect(p.totalMs).toBe(Math.ceil((4000 + 1300 + 2000) * 1.25));
  });

  it('the default 2m grows to cover the checks, up to its cap, saying so; a given budget stays and says when it is short', () => {
    const small = plan([{ costMs: 500, unthrottled: 1, alone: 2 }]);
    expect(fitTimeBudget({ budgetMs: 120_000, given: false, elapsedMs: 20_000, plan: small })).toMatchObject({
      budgetMs: 120_000,
    });
    const big = plan([{ costMs: 5000, unthrottled: 10, alone: 10 }]);
    const grown = fitTimeBudget({ budgetMs: 120_000, given: false, elapsedMs: 60_000, plan: big });
    expect(grown.budgetMs).toBe(grown.neededMs);
    expect(grown.text).toMatch(/time budget raised from the default 2m to \d+s to cover them$/);
    const given = fitTimeBudget({ budgetMs: 30_000, given: true, elapsedMs: 25_000, plan: big });
    expect(given.budgetMs).toBe(30_000);
    expect(given.text).toMatch(/--time-budget 30s does not cover them \(--time-budget \d+s does\)/);
  });

  it('property: the default never shrinks below 2m nor passes its cap; what it keeps covers the checks unless capped', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ costMs: fc.integer({ min: 1, max: 20_000 }), unthrottled: fc.nat(5), alone: fc.nat(5) }), {
          maxLength: 30,
        }),
        fc.integer({ min: 0, max: 600_000 }),
        (files, elapsedMs) => {
          const fit = fitTimeBudget({ budgetMs: 120_000, given: false, elapsedMs, plan: plan(files) });
          expect(fit.budgetMs).toBeGreaterThanOrEqual(120_000);
          expect(fit.budgetMs).toBeLessThanOrEqual(TIME_BUDGET_CAP_MS);
          if (fit.neededMs <= TIME_BUDGET_CAP_MS) expect(fit.budgetMs).toBeGreaterThanOrEqual(fit.neededMs);
          else expect(fit.text).toContain(`give --time-budget`);
        },
      ),
    );
  });

  it('--plan: 25 sub-second tests in 10 files on 2 cores fit the default budget at the assumed cost', () => {
    const e = estimateMustHave({
      files: 10,
      newTests: 25,
      tries: 5,
      slowdown: 2,
      cpus: 2,
      timeBudgetMs: 120_000,
      given: false,
    });
    expect(e).toMatchObject({ referenceTries: 50, triesWithoutSlowdownAtMost: 50, aloneTriesAtMost: 75 });
    expect(e.timeBudgetMs).toBeGreaterThanOrEqual(e.estimateMs);
    expect(e.timeBudgetMs).toBeLessThanOrEqual(TIME_BUDGET_CAP_MS);
  });
});
