import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fisherOneSidedP, formatPValue, stratifiedFisherOneSidedP } from '../../src/core/fisher-exact.js';

/**
 * Brute force, from the definition: of all the ways to pick which b.trials of the n tries were the
 * "higher" ones (the k failures fixed among the n), the share that gives B at least b.failures.
 */
function bruteForceP(a: { failures: number; trials: number }, b: { failures: number; trials: number }): number {
  const n = a.trials + b.trials;
  const k = a.failures + b.failures;
  let hits = 0;
  let total = 0;
  for (let mask = 0; mask < 1 << n; mask += 1) {
    let size = 0;
    let failed = 0;
    for (let i = 0; i < n; i += 1) {
      if ((mask >> i) & 1) {
        size += 1;
        if (i < k) failed += 1;
      }
    }
    if (size !== b.trials) continue;
    total += 1;
    if (failed >= b.failures) hits += 1;
  }
  return hits / total;
}

const count = (maxTrials: number) =>
  fc
    .integer({ min: 0, max: maxTrials })
    .chain((trials) => fc.record({ trials: fc.constant(trials), failures: fc.integer({ min: 0, max: trials }) }));

describe('fisherOneSidedP', () => {
  it('matches known figures', () => {
    // 10 passes below, 2/2 failed above: 1 / C(12, 2) = 1/66.
    expect(fisherOneSidedP({ failures: 0, trials: 10 }, { failures: 2, trials: 2 })).toBeCloseTo(1 / 66, 12);
    // Fisher's tea-tasting table (3 of 4 right): one-sided p = 17/70.
    expect(fisherOneSidedP({ failures: 1, trials: 4 }, { failures: 3, trials: 4 })).toBeCloseTo(17 / 70, 12);
    expect(fisherOneSidedP({ failures: 3, trials: 3 }, { failures: 0, trials: 3 })).toBe(1);
  });
  it('equals the brute-force share of all arrangements (n <= 14)', () => {
    fc.assert(
      fc.property(count(7), count(7), (a, b) => {
        expect(fisherOneSidedP(a, b)).toBeCloseTo(bruteForceP(a, b), 10);
      }),
    );
  });
  it('is a probability, falls as B fails more, and rises as A fails more', () => {
    fc.assert(
      fc.property(count(60), count(60), (a, b) => {
        const p = fisherOneSidedP(a, b);
        expect(p).toBeGreaterThan(0);
        expect(p).toBeLessThanOrEqual(1);
        if (b.failures < b.trials) {
          expect(fisherOneSidedP(a, { ...b, failures: b.failures + 1 })).toBeLessThanOrEqual(p + 1e-12);
        }
        if (a.failures < a.trials) {
          expect(fisherOneSidedP({ ...a, failures: a.failures + 1 }, b)).toBeGreaterThanOrEqual(p - 1e-12);
        }
      }),
    );
  });
  it('rejects impossible counts, naming them', () => {
    expect(() => fisherOneSidedP({ failures: 3, trials: 2 }, { failures: 0, trials: 1 })).toThrow(
      /a.failures must be an integer in 0..2, got 3/,
    );
    expect(() => fisherOneSidedP({ failures: 0, trials: 1 }, { failures: 0, trials: -1 })).toThrow(/b.trials/);
  });
  it('within strata: one stratum is the plain test; a stratum of one group only changes nothing', () => {
    fc.assert(
      fc.property(count(40), count(40), count(20), fc.boolean(), (a, b, lone, loneIsB) => {
        const p = fisherOneSidedP(a, b);
        expect(stratifiedFisherOneSidedP([{ a, b }])).toBeCloseTo(p, 10);
        const none = { failures: 0, trials: 0 };
        const extra = loneIsB ? { a: none, b: lone } : { a: lone, b: none };
        expect(stratifiedFisherOneSidedP([{ a, b }, extra])).toBeCloseTo(p, 10);
      }),
    );
  });
  it('within strata: the chance of at least the observed B failures summed over independent strata', () => {
    // 2 of 5 tries failed, both B's 2 (1/C(5,2)); 1 of 30 failed, B's only try (1/30): 1/300.
    const p = stratifiedFisherOneSidedP([
      { a: { failures: 0, trials: 3 }, b: { failures: 2, trials: 2 } },
      { a: { failures: 0, trials: 29 }, b: { failures: 1, trials: 1 } },
    ]);
    expect(p).toBeCloseTo(1 / 300, 12);
    // No B failure anywhere: nothing to explain.
    expect(stratifiedFisherOneSidedP([{ a: { failures: 3, trials: 5 }, b: { failures: 0, trials: 4 } }])).toBe(1);
    expect(() => stratifiedFisherOneSidedP([{ a: { failures: 1, trials: 0 }, b: { failures: 0, trials: 1 } }])).toThrow(
      /strata\[0\]\.a\.failures must be an integer in 0..0, got 1/,
    );
  });
  it('words the p-value', () => {
    expect(formatPValue(1 / 66)).toBe('p = 0.015');
    expect(formatPValue(0.0001)).toBe('p < 0.001');
  });
});
