import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createSeededRandom,
  deriveTrySeed,
  MAX_SEED,
  parseSeed,
  uuidFromBytes,
} from '../../../src/core/replay/seeded-random.js';
import { testKey } from '../../../src/core/test-id.js';

const draws = (seed: number, n = 8): number[] => {
  const gen = createSeededRandom(seed);
  return Array.from({ length: n }, () => gen.next());
};

const seed = fc.integer({ min: 0, max: MAX_SEED });
const key = fc
  .record({ project: fc.string(), file: fc.string({ minLength: 1 }), fullName: fc.string() })
  .map((id) => testKey(id));
const tryNumber = fc.nat({ max: 10_000 });

describe('a seeded try replays its draws', () => {
  it('the same (seed, key, try) gives the same sequence', () => {
    fc.assert(
      fc.property(seed, key, tryNumber, (s, k, t) => {
        expect(draws(deriveTrySeed(s, k, t))).toEqual(draws(deriveTrySeed(s, k, t)));
      }),
    );
  });

  it('different tries of one test differ, and so do different tests and run seeds', () => {
    fc.assert(
      fc.property(seed, key, tryNumber, tryNumber, (s, k, a, b) => {
        fc.pre(a !== b);
        expect(draws(deriveTrySeed(s, k, a))).not.toEqual(draws(deriveTrySeed(s, k, b)));
      }),
    );
    fc.assert(
      fc.property(seed, key, key, tryNumber, (s, k1, k2, t) => {
        fc.pre(k1 !== k2);
        expect(draws(deriveTrySeed(s, k1, t))).not.toEqual(draws(deriveTrySeed(s, k2, t)));
      }),
    );
  });

  it('draws in [0, 1), bytes and seeds in range', () => {
    fc.assert(
      fc.property(seed, key, tryNumber, (s, k, t) => {
        const derived = deriveTrySeed(s, k, t);
        expect(Number.isInteger(derived) && derived >= 0 && derived <= MAX_SEED).toBe(true);
        for (const x of draws(derived, 50)) expect(x >= 0 && x < 1).toBe(true);
      }),
    );
  });

  it('spreads its draws: a 1-in-5 event happens about 1 in 5 times over seeds 0..4999', () => {
    const hits = Array.from({ length: 5000 }, (_, s) => (createSeededRandom(s).next() < 0.2 ? 1 : 0)).reduce<number>(
      (a, b) => a + b,
      0,
    );
    expect(hits).toBeGreaterThan(850);
    expect(hits).toBeLessThan(1150);
  });

  it('fills a byte array of any length from the same stream', () => {
    const a = new Uint8Array(7);
    const b = new Uint8Array(7);
    createSeededRandom(9).fillBytes(a);
    createSeededRandom(9).fillBytes(b);
    expect([...a]).toEqual([...b]);
    expect(a.some((x) => x !== 0)).toBe(true);
  });

  it('writes a version 4 UUID', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (bytes) => {
        expect(uuidFromBytes(bytes)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }),
    );
  });

  it('reads a seed as typed, and refuses what is not one', () => {
    expect(parseSeed('0')).toBe(0);
    expect(parseSeed(' 4294967295 ')).toBe(MAX_SEED);
    for (const bad of ['4294967296', '-1', '1.5', 'abc', '', '0x10', '1e3']) expect(parseSeed(bad)).toBeNull();
    fc.assert(fc.property(seed, (s) => parseSeed(String(s)) === s));
  });
});
