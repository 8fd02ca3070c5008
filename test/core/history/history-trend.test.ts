import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { theilSen, TREND_MAX_POINTS, unitsToLimit } from '../../../src/core/history/history-trend.js';

const xs = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('theilSen', () => {
  it('finds the slope and level of a straight line', () => {
    const t = theilSen(xs(10), xs(10).map((x) => 4500 + 40 * x))!;
    expect(t.slope).toBeCloseTo(40, 9);
    expect(t.level).toBeCloseTo(4500 + 40 * 9, 9);
  });

  it('is not tilted by one slow run the way a least-squares line is', () => {
    const ys = xs(20).map((x) => (x === 18 ? 60_000 : 1000 + 10 * x));
    expect(theilSen(xs(20), ys)!.slope).toBeCloseTo(10, 9);
  });

  it('gives no trend for fewer than three points or a single x', () => {
    expect(theilSen([0, 1], [1, 2])).toBeNull();
    expect(theilSen([5, 5, 5], [1, 2, 3])).toBeNull();
  });

  it('fits only the newest points beyond the cap', () => {
    const n = TREND_MAX_POINTS + 50;
    const ys = xs(n).map((x) => (x < 50 ? 100_000 - 1000 * x : 7 * x));
    expect(theilSen(xs(n), ys)!.slope).toBeCloseTo(7, 9);
  });

  it('property: a line plus a constant keeps its slope; the level moves by the constant', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 60 }), fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: -1e4, max: 1e4, noNaN: true }), (n, slope, shift) => {
        const base = xs(n).map((x) => 1000 + slope * x);
        const a = theilSen(xs(n), base)!;
        const b = theilSen(xs(n), base.map((y) => y + shift))!;
        expect(a.slope).toBeCloseTo(slope, 6);
        expect(b.slope).toBeCloseTo(a.slope, 6);
        expect(b.level - a.level).toBeCloseTo(shift, 4);
      }),
    );
  });
});

describe('unitsToLimit', () => {
  it('says how long a rising line takes to reach the limit', () => {
    expect(unitsToLimit({ slope: 40, level: 4900 }, 5000)).toBeCloseTo(2.5, 9);
  });
  it('is 0 at or over the limit and null when flat or falling', () => {
    expect(unitsToLimit({ slope: 40, level: 5000 }, 5000)).toBe(0);
    expect(unitsToLimit({ slope: 0, level: 4000 }, 5000)).toBeNull();
    expect(unitsToLimit({ slope: -3, level: 4000 }, 5000)).toBeNull();
  });
});
