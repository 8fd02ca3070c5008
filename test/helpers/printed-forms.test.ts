/** The reporter tests' duration matcher (test/reporter/reporter-fixture.ts), checked without a process. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../src/core/duration.js';
import { printedForms } from '../reporter/reporter-fixture.js';

const matches = (recordedMs: number, printed: string): boolean =>
  new RegExp(`^${printedForms(recordedMs)}$`).test(printed);

describe('printedForms: what the reporter printed for a duration the record rounded', () => {
  it('accepts both neighbours of a value on the rounding edge, and nothing further', () => {
    // The run that failed once: the annotation printed the raw 300.496 ms, the record held 300.5.
    expect(matches(300.5, '300ms')).toBe(true);
    expect(matches(300.5, '301ms')).toBe(true);
    expect(matches(300.5, '299ms')).toBe(false);
    expect(matches(300.5, '302ms')).toBe(false);
    expect(matches(300.2, '301ms')).toBe(false);
    expect(matches(1104.99, '1.10s')).toBe(true);
    expect(matches(1104.99, '1.11s')).toBe(false);
  });

  it('always accepts the raw duration the record was rounded from', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 600_000, noNaN: true }), (rawMs) => {
        const recordedMs = Math.round(rawMs * 100) / 100;
        expect(matches(recordedMs, formatDuration(rawMs))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
