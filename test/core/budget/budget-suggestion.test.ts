import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeBudgetSuggestion, formatBudgetSuggestion } from '../../../src/core/budget/budget-suggestion.js';
import { parseConfig } from '../../../src/core/config.js';
import { renderConfigTemplate } from '../../../src/core/config-template.js';

describe('computeBudgetSuggestion', () => {
  it('is null without measurements', () => {
    expect(computeBudgetSuggestion([])).toBeNull();
  });

  it('names the slowest test and the 99th percentile', () => {
    const durations = [...Array.from({ length: 99 }, () => 100), 3200];
    const s = computeBudgetSuggestion(durations);
    expect(s?.slowestMs).toBe(3200);
    expect(formatBudgetSuggestion(s!)).toContain('your slowest test took 3.20s');
    expect(s?.suggestedTestBudgetMs).toBe(5000);
  });

  it('always suggests a budget the slowest test meets, with ordered quantiles', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 600_000, noNaN: true }), { minLength: 1, maxLength: 200 }),
        (ds) => {
          const s = computeBudgetSuggestion(ds)!;
          expect(s.suggestedTestBudgetMs).toBeGreaterThanOrEqual(s.slowestMs);
          expect(s.p50Ms).toBeLessThanOrEqual(s.p99Ms);
          expect(s.p99Ms).toBeLessThanOrEqual(s.slowestMs);
        },
      ),
    );
  });
});

describe('renderConfigTemplate', () => {
  it('writes a config that parses to the defaults', () => {
    const config = parseConfig(renderConfigTemplate(), 'flakeguard.yaml');
    expect(config.budget.test).toEqual({ kind: 'single', value: 5000 });
    expect(config.budget.file).toBeNull();
    expect(config.budget.warnAt).toBe(0.8);
  });
});
