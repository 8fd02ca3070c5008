import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeDurationTrend,
  NEAR_HORIZON_RUNS,
  nearLimit,
  PROJECT_MIN_RUNS,
  recentP95,
  type TrendPoint,
  trendOfStoredRuns,
  unitsToLimit,
  unitsToLimitRange,
} from '../../../src/core/history/history-trend.js';
import { describeDurationTrend } from '../../../src/core/history/history-trend-text.js';
import { lineWithNoise, seeded } from './trend-simulation.mjs';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-01T00:00:00Z');
/** Runs an hour apart (no per-day trend) unless `stepMs` says otherwise. */
const runs = (ys: readonly number[], stepMs = 3_600_000, failedAt: readonly number[] = []): TrendPoint[] =>
  ys.map((y, i) => ({ atMs: T0 + i * stepMs, durationMs: y, passed: !failedAt.includes(i) }));

describe('the projection rule', () => {
  it('three runs 150, 300, 450 ms: a slope with no bound, and no projection', () => {
    const t = computeDurationTrend(runs([150, 300, 450]), 5000);
    expect(t.perRun!.slope).toBeCloseTo(150, 9);
    expect(t.perRun!.low).toBeNull();
    expect(unitsToLimit(t.perRun)).toBeNull();
    expect(describeDurationTrend(t)).toBe(
      `+150ms a run (95% CI unbounded with 3 runs): not enough runs to project (3 of ${PROJECT_MIN_RUNS})`,
    );
    expect(nearLimit(recentP95(runs([150, 300, 450])), 5000, 0.8, t)).toBeNull();
  });

  it('a 2 ms test is not near its 5 s limit', () => {
    const pts = runs([2, 3, 2]);
    expect(nearLimit(recentP95(pts), 5000, 0.8, computeDurationTrend(pts, 5000))).toBeNull();
  });

  it('twelve runs 100 ms slower each: a crossing in 9 runs, the failed run keeping its place', () => {
    const pts = runs(
      Array.from({ length: 12 }, (_, i) => 3000 + 100 * i),
      3_600_000,
      [5],
    );
    const t = computeDurationTrend(pts, 5000);
    expect(t.perRun!.slope).toBeCloseTo(100, 9);
    expect(t.perRun!.low).toBeCloseTo(100, 9);
    expect(unitsToLimit(t.perRun)).toBeCloseTo(9, 9);
    expect(unitsToLimitRange(t.perRun)).toEqual([expect.closeTo(9, 9), expect.closeTo(9, 9)]);
    expect(t.perDay).toBeNull();
    expect(describeDurationTrend(t)).toBe('+100ms a run (95% CI +100ms to +100ms): crosses in about 9 runs');
    expect(nearLimit(4100, 5000, 0.9, t)).toBe('crossing');
  });

  it('per day when the runs span days, with its own interval and range', () => {
    const pts = runs(
      Array.from({ length: 14 }, (_, i) => 4000 + 40 * i),
      DAY,
    );
    const t = computeDurationTrend(pts, 5000);
    expect(t.perDay!.slope).toBeCloseTo(40, 9);
    expect(unitsToLimit(t.perDay)).toBeCloseTo((5000 - 4520) / 40, 9);
    expect(describeDurationTrend(t)).toMatch(
      /^\+40ms a day \(95% CI \+40ms to \+40ms; \+40ms a run\): crosses in about 12 days, about 12 runs$/,
    );
  });

  it('a line at or over its limit is at its limit (0), a falling or flat one projects nothing', () => {
    const over = computeDurationTrend(runs(Array.from({ length: 12 }, () => 5200)), 5000);
    expect(unitsToLimit(over.perRun)).toBe(0);
    expect(nearLimit(5200, 5000, 0.8, over)).toBe('over');
    const flat = computeDurationTrend(runs(Array.from({ length: 20 }, () => 400)), 5000);
    expect(flat.perRun!.projection.kind).toBe('no-significant-trend');
    expect(describeDurationTrend(flat)).toBe('+0ms a run (95% CI +0ms to +0ms): no significant trend');
  });

  it('near its limit: recent p95 at or above warnAt, or a claimed crossing within the horizon', () => {
    const none = computeDurationTrend([], 5000);
    expect(nearLimit(4000, 5000, 0.8, none)).toBe('warn');
    expect(nearLimit(3999, 5000, 0.8, none)).toBeNull();
    const far = computeDurationTrend(runs(Array.from({ length: 12 }, (_, i) => 100 + i)), 5000);
    expect(unitsToLimit(far.perRun)).toBeGreaterThan(NEAR_HORIZON_RUNS);
    expect(nearLimit(111, 5000, 0.8, far)).toBeNull();
  });

  it('property: fewer than the minimum of runs never projects, whatever the durations', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000 }), { maxLength: PROJECT_MIN_RUNS - 1 }),
        fc.boolean(),
        (ys, daily) => {
          const t = computeDurationTrend(runs(ys, daily ? DAY : 60_000), 5000);
          expect(unitsToLimit(t.perRun)).toBeNull();
          expect(unitsToLimit(t.perDay)).toBeNull();
          expect(describeDurationTrend(t)).not.toContain('crosses');
        },
      ),
    );
  });

  it('property: a flat noisy series claims a crossing in at most 4% of 1,000 simulated series (one-sided 2.5% expected)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10, max: 60 }),
        fc.double({ min: 10, max: 800, noNaN: true }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (n, sd, seed) => {
          const rand = seeded(seed);
          let claimed = 0;
          for (let k = 0; k < 1000; k += 1) {
            const t = computeDurationTrend(runs(lineWithNoise(rand, n, 2000, 0, sd)), 5000);
            if (t.perRun!.projection.kind === 'crossing') claimed += 1;
          }
          expect(claimed / 1000).toBeLessThanOrEqual(0.04);
        },
      ),
      { numRuns: 4, seed: 22 },
    );
  });

  it('property: a steadily slower test with enough runs is projected, the range holding the true crossing in at least 90% of 1,000 series', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 20, max: 60 }),
        fc.double({ min: 20, max: 100, noNaN: true }),
        fc.double({ min: 0.05, max: 0.3, noNaN: true }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (n, slope, noise, seed) => {
          const rand = seeded(seed);
          const sd = slope * noise * n;
          const limit = 1000 + slope * (n - 1) + slope * 10;
          let projected = 0;
          let held = 0;
          for (let k = 0; k < 1000; k += 1) {
            const t = computeDurationTrend(runs(lineWithNoise(rand, n, 1000, slope, sd)), limit);
            const range = unitsToLimitRange(t.perRun);
            if (range === null) continue;
            projected += 1;
            if (range[0] <= 10 && 10 <= range[1]) held += 1;
          }
          expect(projected / 1000).toBeGreaterThanOrEqual(0.9);
          expect(held / projected).toBeGreaterThanOrEqual(0.9);
        },
      ),
      { numRuns: 4, seed: 22 },
    );
  });

  it('property: a noiseless rising line projects exactly its crossing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: PROJECT_MIN_RUNS, max: 80 }),
        fc.double({ min: 1, max: 200, noNaN: true }),
        fc.double({ min: 1, max: 100, noNaN: true }),
        (n, slope, ahead) => {
          const limit = 500 + slope * (n - 1) + slope * ahead;
          const t = computeDurationTrend(runs(Array.from({ length: n }, (_, i) => 500 + slope * i)), limit);
          const [a, b] = unitsToLimitRange(t.perRun)!;
          expect(a).toBeCloseTo(ahead, 4);
          expect(b).toBeCloseTo(ahead, 4);
        },
      ),
    );
  });
});

describe('the trend of stored runs', () => {
  it('reads them newest first, keeps the newest platform, and counts failed runs as runs', () => {
    const stored = Array.from({ length: 12 }, (_, i) => ({
      startedAt: new Date(T0 + (11 - i) * 3_600_000).toISOString(),
      platform: 'linux',
      state: i === 3 ? 'failed' : 'passed',
      durationMs: 3000 + 100 * (11 - i),
      limitMs: 5000,
    }));
    stored.push({
      startedAt: new Date(T0).toISOString(),
      platform: 'darwin',
      state: 'passed',
      durationMs: 99_999,
      limitMs: 5000,
    });
    const found = trendOfStoredRuns(stored)!;
    expect(found.platform).toBe('linux');
    expect(found.trend.perRun!.slope).toBeCloseTo(100, 9);
    expect(unitsToLimit(found.trend.perRun)).toBeCloseTo(9, 9);
    expect(trendOfStoredRuns([])).toBeNull();
  });
});
