import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTestPast, summarizeTestPast } from '../../../src/core/history/test-history-summary.js';

const run = (state: string, over: Partial<{ flaky: boolean; durationMs: number | null; commit: string | null }> = {}) => ({ state, flaky: false, durationMs: 100, commit: null, ...over });

describe("a test's past for the gate", () => {
  it('counts flaky runs: passed after a retry, or failed on a commit that passed elsewhere', () => {
    const past = summarizeTestPast([
      run('passed', { commit: 'a', durationMs: 100 }),
      run('failed', { commit: 'a' }),
      run('failed', { commit: 'b' }),
      run('passed', { flaky: true, durationMs: 300 }),
      run('skipped'),
    ]);
    expect(past).toEqual({ runs: 4, failedRuns: 2, flakyRuns: 2, flakeRate: 0.5, durationMs: { median: 200, p95: 290 } });
    expect(formatTestPast(past!)).toBe('history: 4 runs, 2 flaky (50%), 2 failed; median 200ms, p95 290ms');
    expect(summarizeTestPast([run('skipped')])).toBeNull();
  });

  it('flaky runs never exceed finished runs and the median never exceeds p95', () => {
    const arb = fc.record({ state: fc.constantFrom('passed', 'failed', 'skipped'), flaky: fc.boolean(), durationMs: fc.option(fc.integer({ min: 0, max: 10_000 })), commit: fc.option(fc.constantFrom('a', 'b', 'c')) });
    fc.assert(
      fc.property(fc.array(arb, { maxLength: 60 }), (runs) => {
        const past = summarizeTestPast(runs);
        if (past === null) return;
        expect(past.flakyRuns).toBeLessThanOrEqual(past.runs);
        if (past.durationMs) expect(past.durationMs.median).toBeLessThanOrEqual(past.durationMs.p95);
      }),
    );
  });
});
