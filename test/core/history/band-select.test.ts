import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectInBand } from '../../../src/core/history/band-select.js';

describe('selectInBand', () => {
  it('property: the asked ranks equal those of the sorted values, ties, -0 and the band ends included', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.double({ min: 1e-9, max: 1e6, noNaN: true }),
        fc.array(fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 1, 0.5)), {
          minLength: 1,
          maxLength: 400,
        }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
        fc.nat({ max: 50 }),
        (low, width, shares, picks, offset) => {
          const high = low + width;
          const values = shares.map((s) => Math.min(high, low + s * width));
          if (values.some((v) => v < low)) return;
          const a = Float64Array.from(values);
          const ranks = [...new Set(picks.map((p) => offset + (p % values.length)))].sort((x, y) => x - y);
          const found = selectInBand(a, a.length, ranks, offset, low, high);
          const sorted = [...values].sort((x, y) => x - y);
          expect(found).not.toBeNull();
          for (const r of ranks) expect(found!.get(r)).toBe(sorted[r - offset] === 0 ? 0 : sorted[r - offset]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('declines a band that is not a finite range: the caller selects by comparison', () => {
    const a = Float64Array.from([1, 2, 3]);
    expect(selectInBand(a, 3, [1], 0, Number.NEGATIVE_INFINITY, 3)).toBeNull();
    expect(selectInBand(a, 3, [1], 0, 2, 2)).toBeNull();
  });
});
