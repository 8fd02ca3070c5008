import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clipText, EXCERPT_MAX, excerpt } from '../../src/core/excerpt.js';

describe('excerpt', () => {
  it('quotes short text as it is', () => {
    expect(excerpt('5 sec')).toBe('"5 sec"');
    expect(excerpt(5)).toBe('5');
    expect(excerpt(undefined)).toBe('undefined');
    expect(excerpt(['x', 'y'])).toBe('a list of 2 items');
    expect(excerpt({ a: 1 })).toBe('a map');
  });

  it('escapes quotes, controls and non-printables, and cuts long text with its length', () => {
    expect(excerpt('a"b\\c\nd\u0000\u009b')).toBe('"a\\"b\\\\c\\nd\\u0000\\u009b"');
    expect(excerpt('x'.repeat(4000))).toBe(`"${'x'.repeat(EXCERPT_MAX)}…" (4000 characters)`);
    expect(clipText('y'.repeat(200), 10)).toBe(`${'y'.repeat(10)}… (200 characters)`);
  });

  it('never echoes more than a bounded, printable line, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 5000 }), (text) => {
        const shown = excerpt(text);
        // Each shown character escapes to at most 6 (\u0000), plus the quotes and the length note.
        expect(shown.length).toBeLessThanOrEqual(EXCERPT_MAX * 6 + 40);
        expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      }),
    );
  });
});
