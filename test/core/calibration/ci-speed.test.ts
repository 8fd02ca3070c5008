import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  commonRatios,
  estimateCiSpeed,
  MIN_COMMON_TESTS,
  medianIntervalRank,
  medianWithInterval,
  type SpeedRun,
} from '../../../src/core/calibration/ci-speed.js';
import { logBinomialCdf } from '../../../src/core/failure-rate.js';
import { seeded, simulateRuns } from './ci-speed-simulation.mjs';

const run = (id: string, durations: readonly number[], scale = 1): SpeedRun => ({
  runId: id,
  startedAt: '2026-11-01T00:00:00.000Z',
  durations: new Map(durations.map((d, i) => [`t${i}`, d * scale])),
});

/** Durations of at least 5 ms: `n` of them. */
const durationsArb = (min = MIN_COMMON_TESTS, max = 80) =>
  fc.array(fc.double({ min: 5, max: 5000, noNaN: true }), { minLength: min, maxLength: max });

describe('the interval for a median from order statistics', () => {
  it('ranks 6 and 15 of 20 (P(Binomial(20, 1/2) <= 5) = 2.07%), 40 of 100 by the normal approximation', () => {
    expect(medianIntervalRank(20)).toBe(6);
    expect(medianIntervalRank(100)).toBe(40);
    const sample = Array.from({ length: 20 }, (_, i) => i + 1);
    const { median, interval } = medianWithInterval(sample);
    expect(interval).toEqual([6, 15]);
    expect(median).toBeCloseTo(Math.sqrt(10 * 11), 12); // an even count's middle pair, on a ratio scale
  });

  it('finds by bisection the rank the definition scans for (the first k whose CDF is above the tail)', () => {
    const scanned = (n: number, confidence: number): number => {
      const tail = Math.log((1 - confidence) / 2);
      let k = 1;
      while (k < n && logBinomialCdf(k, n, 0.5) <= tail) k += 1;
      return k;
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2500 }), fc.constantFrom(0.8, 0.9, 0.95, 0.99), (n, confidence) => {
        expect(medianIntervalRank(n, confidence)).toBe(scanned(n, confidence));
      }),
      { numRuns: 60 },
    );
  });

  it('is ordered and holds the median for any sample', () => {
    fc.assert(
      fc.property(durationsArb(1), (values) => {
        const { median, interval } = medianWithInterval([...values].sort((a, b) => a - b));
        expect(interval[0]).toBeLessThanOrEqual(median);
        expect(median).toBeLessThanOrEqual(interval[1]);
      }),
    );
  });
});

describe('the CI speed estimate', () => {
  it('is the ratio a CI run at a known factor gives, with an interval around it', () => {
    const base = Array.from({ length: 30 }, (_, i) => 10 + i * 7);
    const e = estimateCiSpeed('linux', [run('ci', base, 3)], [run('here', base)]);
    expect(e).toMatchObject({ kind: 'estimated', platform: 'linux', ratio: 3, interval: [3, 3], tests: 30, runs: 1 });
  });

  it('is scale invariant: CI durations x c give the ratio x c; every duration x c gives the same estimate', () => {
    fc.assert(
      fc.property(durationsArb(), durationsArb(), fc.double({ min: 1, max: 50, noNaN: true }), (ci, here, c) => {
        const n = Math.min(ci.length, here.length);
        const plain = estimateCiSpeed('linux', [run('ci', ci.slice(0, n))], [run('h', here.slice(0, n))]);
        const slower = estimateCiSpeed('linux', [run('ci', ci.slice(0, n), c)], [run('h', here.slice(0, n))]);
        const both = estimateCiSpeed('linux', [run('ci', ci.slice(0, n), c)], [run('h', here.slice(0, n), c)]);
        if (plain.kind !== 'estimated' || slower.kind !== 'estimated' || both.kind !== 'estimated')
          throw new Error('expected estimates');
        expect(slower.ratio).toBeCloseTo(plain.ratio * c, 6);
        expect(slower.interval[0]).toBeCloseTo(plain.interval[0] * c, 6);
        expect(slower.interval[1]).toBeCloseTo(plain.interval[1] * c, 6);
        expect(both.ratio).toBeCloseTo(plain.ratio, 9);
        expect(both.interval[0]).toBeCloseTo(plain.interval[0], 9);
      }),
    );
  });

  it('is robust to 20% outliers: the estimate stays within the other tests’ ratios', () => {
    const arb = fc.record({
      ratio: fc.double({ min: 0.5, max: 10, noNaN: true }),
      inliers: fc.array(fc.double({ min: 0.9, max: 1.1, noNaN: true }), { minLength: 24, maxLength: 80 }),
      outliers: fc.array(fc.double({ min: 0.01, max: 1000, noNaN: true }), { maxLength: 80 }),
      here: fc.array(fc.double({ min: 5, max: 2000, noNaN: true }), { minLength: 200, maxLength: 200 }),
    });
    fc.assert(
      fc.property(arb, ({ ratio, inliers, outliers, here }) => {
        const odd = outliers.slice(0, Math.floor(inliers.length / 4)); // at most 20% of all tests
        const factors = [...inliers.map((f) => f * ratio), ...odd];
        const local = factors.map((_, i) => (here[i] as number) * 10);
        const ci = factors.map((f, i) => (local[i] as number) * f);
        const e = estimateCiSpeed('linux', [run('ci', ci)], [run('h', local)]);
        if (e.kind !== 'estimated') throw new Error(e.reason);
        expect(e.ratio).toBeGreaterThanOrEqual(0.9 * ratio * (1 - 1e-9));
        expect(e.ratio).toBeLessThanOrEqual(1.1 * ratio * (1 + 1e-9));
      }),
    );
  });

  it('refuses with too few tests in common, naming how many and how many it needs', () => {
    fc.assert(
      fc.property(durationsArb(0, MIN_COMMON_TESTS - 1), (d) => {
        const e = estimateCiSpeed('linux', [run('ci', d, 2)], [run('h', d)]);
        expect(e.kind).toBe('refused');
        if (e.kind === 'refused') expect(e.reason).toContain(`${d.length} test`);
      }),
    );
    const e = estimateCiSpeed('windows', [], [run('h', [10])]);
    expect(e).toMatchObject({ kind: 'refused', reason: 'no CI run of windows in history' });
    expect(estimateCiSpeed('linux', [run('c', [10])], [])).toMatchObject({ kind: 'refused' });
  });

  it('leaves out tests under 5 ms, here or in CI', () => {
    const here = new Map([
      ['a', 4.9],
      ['b', 10],
      ['c', 10],
    ]);
    const ci = new Map([
      ['a', 20],
      ['b', 4],
      ['c', 30],
    ]);
    expect(commonRatios(ci, here)).toEqual([3]);
  });

  it('covers the true ratio in at least 93% of simulated series (seeded; bench/ci-speed.mjs measures more cases)', () => {
    const rand = seeded(27);
    const series = 400;
    let hits = 0;
    for (let k = 0; k < series; k += 1) {
      const { ci, local } = simulateRuns(rand, { tests: 40, ratio: 3, localRuns: 2, ciRuns: 5, sd: 0.5 });
      const e = estimateCiSpeed('linux', ci, local);
      if (e.kind === 'estimated' && e.interval[0] <= 3 && 3 <= e.interval[1]) hits += 1;
    }
    expect(hits / series).toBeGreaterThanOrEqual(0.93);
  });
});
