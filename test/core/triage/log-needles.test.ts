import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileNeedles, countBigrams } from '../../../src/core/triage/log-needles.js';

function naive(text: Uint8Array, needles: readonly Uint8Array[]): string[] {
  const hits: string[] = [];
  for (let s = 0; s < text.length; s += 1) {
    needles.forEach((n, k) => {
      if (s + n.length <= text.length && n.every((b, j) => text[s + j] === b)) hits.push(`${s}:${k}`);
    });
  }
  return hits;
}

const bytes = (alphabet: string, max: number) =>
  fc
    .array(fc.constantFrom(...alphabet.split('')), { maxLength: max })
    .map((cs) => new TextEncoder().encode(cs.join('')));

describe('compileNeedles (Wu-Manber)', () => {
  it('finds exactly the occurrences a naive search finds (property)', () => {
    fc.assert(
      fc.property(
        bytes('abAB\n', 300),
        fc.array(
          bytes('abAB\n', 6).filter((n) => n.length >= 2),
          { minLength: 1, maxLength: 6 },
        ),
        (text, needles) => {
          const found: string[] = [];
          const search = compileNeedles(needles);
          search.search(text, 0, text.length, (s, k) => {
            found.push(`${s}:${k}`);
          });
          expect(found.sort()).toEqual(naive(text, search.keys).sort());
        },
      ),
      { numRuns: 500 },
    );
  });

  it('respects the range and stops when asked', () => {
    const text = new TextEncoder().encode('xxFAIL yyFAIL zzFAIL ');
    const search = compileNeedles([new TextEncoder().encode('FAIL ')]);
    const starts: number[] = [];
    search.search(text, 3, text.length, (s) => {
      starts.push(s);
      return starts.length < 1;
    });
    expect(starts).toEqual([9]);
    expect(() => compileNeedles([new Uint8Array([1])])).toThrow(RangeError);
  });
});

describe('compileNeedles with windows', () => {
  it('reports every needle occurrence through its window (property)', () => {
    fc.assert(
      fc.property(
        bytes('abAB\n', 300),
        fc.array(
          bytes('abAB\n', 8).filter((n) => n.length >= 2),
          { minLength: 1, maxLength: 6 },
        ),
        (text, needles) => {
          const search = compileNeedles(needles, { frequency: countBigrams(text) });
          const starts = new Set<number>();
          search.search(text, 0, text.length, (s) => {
            starts.add(s);
          });
          // Each needle occurrence contains a reported window occurrence.
          for (const hit of naive(text, needles)) {
            const [at, k] = hit.split(':').map(Number) as [number, number];
            const len = needles[k]?.length ?? 0;
            expect([...starts].some((s) => s >= at && s < at + len)).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
