import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  describeFailureRate,
  failureRateUpperBound,
  formatRatePercent,
  logBinomialCdf,
} from '../../src/core/failure-rate.js';

/** The bound as the bisection finds it over every term of the sum (logBinomialCdf): the reference. */
function boundOverEveryTerm(failures: number, runs: number, confidence = 0.95): number {
  const target = Math.log(1 - confidence);
  let lo = failures / runs;
  let hi = 1;
  for (let i = 0; i < 60 && hi - lo > 1e-12; i += 1) {
    const mid = (lo + hi) / 2;
    if (logBinomialCdf(failures, runs, mid) > target) lo = mid;
    else hi = mid;
  }
  return hi;
}

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

  it('property: summing only the terms that count gives the bound of every term, to 1e-9', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(0.95, 0.5, 0.8, 0.99, 0.999),
        (runs, share, confidence) => {
          const failures = Math.min(runs - 1, Math.floor(share * runs));
          const { upper } = failureRateUpperBound(failures, runs, confidence);
          expect(Math.abs(upper - boundOverEveryTerm(failures, runs, confidence))).toBeLessThan(1e-9);
        },
      ),
      { numRuns: 150 },
    );
    // A quarantine proposal's shape: the passing runs of a month of a team's runs, nearly all of them.
    for (const [failures, runs] of [
      [6257, 6586],
      [4389, 4390],
      [0, 7000],
      [3500, 7000],
    ] as const)
      expect(Math.abs(failureRateUpperBound(failures, runs).upper - boundOverEveryTerm(failures, runs))).toBeLessThan(
        1e-9,
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
