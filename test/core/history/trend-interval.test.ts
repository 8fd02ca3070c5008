import fc from 'fast-check';
import { medianSorted } from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import { lineLevel, senSlope, TREND_MAX_POINTS } from '../../../src/core/history/trend-interval.js';
import { lineWithNoise, seeded } from './trend-simulation.mjs';

const xs = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** Sen's estimate read from every pairwise slope sorted: what senSlope computed before it selected ranks. */
const sortedReference = (x: number[], y: number[]) => {
  const slopes: number[] = [];
  for (let i = 0; i < x.length; i += 1)
    for (let j = i + 1; j < x.length; j += 1) if (x[j] !== x[i]) slopes.push((y[j]! - y[i]!) / (x[j]! - x[i]!));
  slopes.sort((a, b) => a - b);
  const at = (k: number): number | null => {
    if (k < 1 - 1e-9 || k > slopes.length + 1e-9) return null;
    const pos = Math.min(Math.max(k, 1), slopes.length) - 1;
    const below = Math.floor(pos);
    const a = slopes[below]!;
    return pos === below ? a : a + (pos - below) * (slopes[below + 1]! - a);
  };
  const ties = new Map<number, number>();
  for (const v of y) ties.set(v, (ties.get(v) ?? 0) + 1);
  const tieSum = [...ties.values()].reduce((sum, t) => sum + t * (t - 1) * (2 * t + 5), 0);
  const n = x.length;
  const c = 1.959963984540054 * Math.sqrt(Math.max((n * (n - 1) * (2 * n + 5) - tieSum) / 18, 0));
  const count = slopes.length;
  return count === 0 ? null : { slope: medianSorted(slopes), low: at((count - c) / 2), high: at((count + c) / 2 + 1) };
};

describe("the Theil-Sen slope with Sen's interval", () => {
  it('matches the interval worked by hand (Gilbert 16.5.2): 6 points, 15 slopes, ranks 2.28 and 13.72', () => {
    // Sorted slopes: -2, -1, 1/3, 0.5, 1, 1, 1.5, 1.5, 5/3, 1.8, 2, 8/3, 3, 4, 5; C = 1.96 * sqrt(6*5*17/18) = 10.4327.
    const s = senSlope(xs(6), [0, 3, 1, 5, 4, 9])!;
    expect(s.slope).toBe(1.5);
    expect(s.low).toBeCloseTo(-1 + 0.2836475087 * (1 / 3 + 1), 8);
    expect(s.high).toBeCloseTo(3 + 0.7163524913, 8);
    expect(s.n).toBe(6);
  });

  it('has no bound on a side with too few points to give one: 3, 4 or 5 points', () => {
    for (const n of [3, 4, 5]) {
      const s = senSlope(
        xs(n),
        xs(n).map((x) => 150 * (x + 1)),
      )!;
      expect(s.slope).toBeCloseTo(150, 9);
      expect(s.low).toBeNull();
      expect(s.high).toBeNull();
    }
    expect(
      senSlope(
        xs(6),
        xs(6).map((x) => 10 * x),
      )!.low,
    ).toBeCloseTo(10, 9);
  });

  it('gives no slope for fewer than three points or a single x', () => {
    expect(senSlope([0, 1], [1, 2])).toBeNull();
    expect(senSlope([5, 5, 5], [1, 2, 3])).toBeNull();
  });

  it('is not tilted by one slow run; fits only the newest points beyond the cap', () => {
    expect(
      senSlope(
        xs(20),
        xs(20).map((x) => (x === 18 ? 60_000 : 1000 + 10 * x)),
      )!.slope,
    ).toBeCloseTo(10, 9);
    const n = TREND_MAX_POINTS + 50;
    expect(
      senSlope(
        xs(n),
        xs(n).map((x) => (x < 50 ? 100_000 - 1000 * x : 7 * x)),
      )!.slope,
    ).toBeCloseTo(7, 9);
  });

  it('property: on a straight line the interval is the slope itself (6 points or more) and the level is the last value', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 6, max: 60 }),
        fc.double({ min: -100, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 1e4, noNaN: true }),
        (n, slope, base) => {
          const ys = xs(n).map((x) => base + slope * x);
          const s = senSlope(xs(n), ys)!;
          expect(s.low!).toBeCloseTo(slope, 6);
          expect(s.high!).toBeCloseTo(slope, 6);
          expect(lineLevel(xs(n), ys, s.slope)).toBeCloseTo(base + slope * (n - 1), 4);
        },
      ),
    );
  });

  it('property: the selected ranks equal those of the fully sorted slopes (the reference)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: -50, max: 5000 })), {
          minLength: 3,
          maxLength: 70,
        }),
        (points) => {
          const x = points.map((p) => p[0]);
          const y = points.map((p) => p[1]);
          const s = senSlope(x, y);
          const r = sortedReference(x, y);
          if (r === null) return expect(s).toBeNull();
          const plain = (v: number | null) => (v === 0 ? 0 : v);
          expect([s?.slope, s?.low, s?.high].map((v) => plain(v ?? null))).toEqual([r.slope, r.low, r.high].map(plain));
        },
      ),
    );
  });

  it('property: at up to TREND_MAX_POINTS points (selection narrowed to a sampled part), the ranks equal the fully sorted ones', () => {
    // From 8,000 slopes (127 points) the ranks are selected in the part between two sampled pivots
    // (pairwise-slopes.ts), below it among all slopes; ties, repeated x and a trend change the slopes' shape, never the answer.
    fc.assert(
      fc.property(
        fc.integer({ min: 64, max: TREND_MAX_POINTS }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (n, spread, slope, seed) => {
          const rand = seeded(seed);
          const x = Array.from({ length: n }, (_, i) => (seed % 3 === 0 ? Math.floor(i / 3) : i));
          const y = x.map((v) => Math.round(1000 + slope * v + spread * rand()));
          const s = senSlope(x, y)!;
          const r = sortedReference(x, y)!;
          const plain = (v: number | null) => (v === 0 ? 0 : v);
          expect([s.slope, s.low, s.high].map(plain)).toEqual([r.slope, r.low, r.high].map(plain));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('property: low <= slope <= high whenever both bounds exist', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 3, maxLength: 80 }), (ys) => {
        const s = senSlope(xs(ys.length), ys)!;
        if (s.low !== null) expect(s.low).toBeLessThanOrEqual(s.slope + 1e-9);
        if (s.high !== null) expect(s.high).toBeGreaterThanOrEqual(s.slope - 1e-9);
      }),
    );
  });

  it('property: over 1,000 simulated series of known slope and noise, the 95% interval covers the true slope 93-97% of the time', () => {
    const covered: number[] = [];
    fc.assert(
      fc.property(
        fc.integer({ min: 12, max: 40 }),
        fc.double({ min: -50, max: 50, noNaN: true }),
        fc.double({ min: 5, max: 400, noNaN: true }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (n, slope, sd, seed) => {
          const rand = seeded(seed);
          let hits = 0;
          for (let k = 0; k < 1000; k += 1) {
            const s = senSlope(xs(n), lineWithNoise(rand, n, 1000, slope, sd))!;
            if (s.low !== null && s.high !== null && s.low <= slope && slope <= s.high) hits += 1;
          }
          covered.push(hits / 1000);
          expect(hits / 1000).toBeGreaterThanOrEqual(0.93);
          expect(hits / 1000).toBeLessThanOrEqual(0.975);
        },
      ),
      { numRuns: 8, seed: 22 },
    );
    expect(covered.length).toBeGreaterThan(0);
  });
});
