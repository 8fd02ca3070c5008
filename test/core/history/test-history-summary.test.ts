import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTestPast, summarizeTestPast } from '../../../src/core/history/test-history-summary.js';

const run = (
  state: string,
  over: Partial<{ flaky: boolean; durationMs: number | null; commit: string | null; startedAt: string }> = {},
) => ({
  state,
  flaky: false,
  durationMs: 100,
  commit: null,
  startedAt: '2026-11-01T00:00:00.000Z',
  platform: 'linux',
  limitMs: 5000,
  ...over,
});

describe("a test's past for the gate", () => {
  it('counts flaky runs: passed after a retry, or failed on a commit that passed elsewhere', () => {
    const past = summarizeTestPast([
      run('passed', { commit: 'a', durationMs: 100 }),
      run('failed', { commit: 'a' }),
      run('failed', { commit: 'b' }),
      run('passed', { flaky: true, durationMs: 300 }),
      run('skipped'),
    ]);
    expect(past).toEqual({
      runs: 4,
      failedRuns: 2,
      flakyRuns: 2,
      flakeRate: 0.5,
      durationMs: { median: 200, p95: 290 },
      trend: null,
    });
    expect(formatTestPast(past!)).toBe('history: 4 runs, 2 flaky (50%), 2 failed; median 200ms, p95 290ms');
    expect(summarizeTestPast([run('skipped')])).toBeNull();
  });

  it('flaky runs never exceed finished runs and the median never exceeds p95', () => {
    const arb = fc.record({
      state: fc.constantFrom('passed', 'failed', 'skipped'),
      flaky: fc.boolean(),
      durationMs: fc.option(fc.integer({ min: 0, max: 10_000 })),
      commit: fc.option(fc.constantFrom('a', 'b', 'c')),
      startedAt: fc.constant('2026-11-01T00:00:00.000Z'),
      platform: fc.constant('linux'),
      limitMs: fc.constant(5000),
    });
    fc.assert(
      fc.property(fc.array(arb, { maxLength: 60 }), (runs) => {
        const past = summarizeTestPast(runs);
        if (past === null) return;
        expect(past.flakyRuns).toBeLessThanOrEqual(past.runs);
        if (past.durationMs) expect(past.durationMs.median).toBeLessThanOrEqual(past.durationMs.p95);
      }),
    );
  });

  it("gives the trend under the history report's rule: no projection from three runs, a crossing from twelve", () => {
    const at = (i: number): string => new Date(Date.parse('2026-11-01T00:00:00Z') + i * 3_600_000).toISOString();
    const newestFirst = (ds: number[]) =>
      ds.map((d, i) => run('passed', { durationMs: d, startedAt: at(i) })).reverse();
    const three = summarizeTestPast(newestFirst([150, 300, 450]))!;
    expect(three.trend).toMatchObject({
      platform: 'linux',
      limitMs: 5000,
      trendMsPerRun: 150,
      trendMsPerRunBounds: [null, null],
      runsToLimit: null,
      runsToLimitRange: null,
    });
    expect(formatTestPast(three)).toContain(
      '+150ms a run (95% CI unbounded with 3 runs): not enough runs to project (3 of 10)',
    );
    const twelve = summarizeTestPast(newestFirst(Array.from({ length: 12 }, (_, i) => 3000 + 100 * i)))!;
    expect(twelve.trend).toMatchObject({ trendMsPerRun: 100, runsToLimit: 9, runsToLimitRange: [9, 9] });
    expect(formatTestPast(twelve)).toContain('+100ms a run (95% CI +100ms to +100ms): crosses in about 9 runs');
  });
});
