import { describe, expect, it } from 'vitest';
import { wantedInWave } from '../../../src/io/vitest/vitest-wave-state.js';

describe('wantedInWave', () => {
  const files = [
    { fileKey: '0', repeats: new Map([['cheap', 40]]) },
    { fileKey: '1' }, // cold copies: every open test of the file
  ];
  it('the first wave tries every open test', () => {
    expect(wantedInWave(0, files)('slow', '0')).toBe(true);
  });
  it('a later wave tries only the tests with repeats where it runs a file for them, all where it runs cold copies', () => {
    const wanted = wantedInWave(1, files);
    expect(wanted('cheap', '0')).toBe(true);
    // The 600 ms test next to the cheap one: not tried once more at its whole cost (evidence branch: 6 tries, now 5).
    expect(wanted('slow', '0')).toBe(false);
    expect(wanted('any', '1')).toBe(true);
  });
});
