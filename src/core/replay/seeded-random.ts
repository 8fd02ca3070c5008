/**
 * The random source a try runs with (issue 46): a small seeded generator (sfc32, 128 bits of
 * state, period about 2^128; Chris Doty-Humphrey's PractRand suite passes it) and the seed of
 * one try, derived from the gate run's seed, the test's key and the try's number. Pure: the same
 * seed gives the same sequence on every machine, so a try's seed replays what it drew.
 *
 * A seed is a whole number from 0 to 2^32 - 1 (`flakeguard gate --seed`, `flakeguard replay
 * --seed`, a try's `seed` in the gate report, a test's `seed` in the run record).
 */

export const MAX_SEED = 0xffff_ffff;

/** A generator: `next()` is a number in [0, 1) as Math.random gives, `nextUint32()` 32 random bits. */
export interface SeededRandom {
  next(): number;
  nextUint32(): number;
  /** Fills `bytes` with the next random bytes (what crypto.getRandomValues does to its argument). */
  fillBytes(bytes: Uint8Array): void;
}

/** 32-bit FNV-1a over the UTF-16 code units of `text`, from `start`. */
function fnv1a(text: string, start = 0x811c_9dc5): number {
  let h = start >>> 0;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x0100_0193) >>> 0;
  }
  return h;
}

/** Murmur3's finaliser: every bit of `x` moves every bit of the result. */
function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85eb_ca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2_ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The seed of try `tryNumber` (0, 1, ...) of the test keyed `key` (core/test-id.ts testKey of its
 * project, its file relative to the project root and its full name) in a run seeded `runSeed`:
 * never Vitest's order-based ids, so inserting a test changes no other test's seeds.
 */
export function deriveTrySeed(runSeed: number, key: string, tryNumber: number): number {
  const k = fnv1a(key);
  return mix32((mix32(runSeed ^ 0x9e37_79b9) ^ k) + Math.imul(mix32(tryNumber + 0x7f4a_7c15), 0x2c1b_3c6d));
}

/** The generator seeded with `seed` (its first outputs are drawn and dropped, so close seeds differ at once). */
export function createSeededRandom(seed: number): SeededRandom {
  let a = 0x9e37_79b9;
  let b = 0x243f_6a88;
  let c = 0xb7e1_5162;
  let d = seed >>> 0;
  const nextUint32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 15; i += 1) nextUint32();
  return {
    nextUint32,
    // 53 bits, as V8's Math.random: 21 high bits of one draw, 32 of the next.
    next: () => ((nextUint32() >>> 11) * 0x1_0000_0000 + nextUint32()) / 2 ** 53,
    fillBytes(bytes) {
      for (let i = 0; i < bytes.length; i += 4) {
        let word = nextUint32();
        for (let j = i; j < Math.min(i + 4, bytes.length); j += 1) {
          bytes[j] = word & 0xff;
          word >>>= 8;
        }
      }
    },
  };
}

/** A version 4 UUID from 16 random bytes (RFC 9562 §5.4: version and variant bits set), as crypto.randomUUID writes it. */
export function uuidFromBytes(bytes: Uint8Array): string {
  const b = Uint8Array.from(bytes.subarray(0, 16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A seed as the user typed it (`--seed 1234`), or null when it is not a whole number from 0 to 2^32 - 1. */
export function parseSeed(text: string): number | null {
  const t = text.trim();
  if (!/^\d{1,10}$/.test(t)) return null;
  const n = Number(t);
  return n <= MAX_SEED ? n : null;
}
