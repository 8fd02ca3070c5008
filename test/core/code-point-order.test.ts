import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints } from '../../src/core/code-point-order.js';

/** The order of the strings' UTF-8 bytes: PostgreSQL's "C" collation. */
const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const sign = (v: number) => Math.sign(v);

describe('compareCodePoints', () => {
  it('orders as the UTF-8 bytes do, surrogate pairs included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(sign(compareCodePoints(a, b))).toBe(sign(byBytes(a, b)));
      }),
      { numRuns: 2000 },
    );
  });

  it('puts a character of a supplementary plane after U+FFFD, where < puts it before', () => {
    const emoji = '\u{1F600}';
    expect(emoji < '\uFFFD').toBe(true);
    expect(compareCodePoints(emoji, '\uFFFD')).toBeGreaterThan(0);
    expect(compareCodePoints('a', 'ab')).toBeLessThan(0);
    expect(compareCodePoints('same', 'same')).toBe(0);
  });
});
