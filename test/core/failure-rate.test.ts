import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeFailureRate, failureRateUpperBound, formatRatePercent } from '../../src/core/failure-rate.js';

describe('failureRateUpperBound', () => {
  it('gives the exact bound for zero failures: 1 - alpha^(1/n)', () => {
    expect(failureRateUpperBound(0, 5).upper).toBeCloseTo(1 - 0.05 ** (1 / 5), 9);
    expect(failureRateUpperBound(0, 20).upper).toBeCloseTo(1 - 0.05 ** (1 / 20), 9);
  });

  it('matches a known Clopper-Pearson figure (2 failures in 5, one-sided 95%)', () => {
    // Beta(0.95; 3, 3) quantile = 0.8107
    expect(failureRateUpperBound(2, 5).upper).toBeCloseTo(0.8107, 3);
  });

  it('is 1 when every run failed and rejects impossible counts', () => {
    expect(failureRateUpperBound(5, 5).upper).toBe(1);
    expect(() => failureRateUpperBound(6, 5)).toThrow(RangeError);
    expect(() => failureRateUpperBound(0, 0)).toThrow(RangeError);
  });

  it('words the bound without overstating it', () => {
    expect(describeFailureRate(failureRateUpperBound(0, 5))).toBe(
      '5/5 passed: failure rate below 45.1% at 95% confidence',
    );
    expect(describeFailureRate(failureRateUpperBound(5, 5))).toBe(
      '0/5 passed: failure rate not bounded below 100% at 95% confidence',
    );
    expect(formatRatePercent(0.5)).toBe('50%');
  });

  it('property: in [0, 1] and never below the observed rate', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.double({ min: 0, max: 1, noNaN: true }), (runs, share) => {
        const failures = Math.min(runs, Math.floor(share * runs));
        const b = failureRateUpperBound(failures, runs);
        return b.upper >= 0 && b.upper <= 1 && b.upper >= b.observed;
      }),
    );
  });

  it('property: more passing runs give a lower bound', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 50 }),
        (passes, failures, more) => {
          const a = failureRateUpperBound(failures, passes + failures).upper;
          const b = failureRateUpperBound(failures, passes + more + failures).upper;
          return b < a;
        },
      ),
    );
  });
});
