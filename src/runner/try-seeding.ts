/**
 * A try's seeded random source (issue 46), installed by flakeguard's runner before beforeEach and
 * removed after afterEach: `Math.random`, `crypto.getRandomValues` and `crypto.randomUUID` on
 * globalThis, and with `nodeCrypto` `node:crypto`'s randomBytes, randomInt and randomUUID, draw
 * from core/replay/seeded-random.ts. A test that installs its own source keeps it (a
 * `vi.spyOn(Math, 'random')` or an assignment replaces ours while the test runs, and is left as
 * the test left it). Nothing of the seeding is left after the try: each replaced function that is
 * still ours is put back, and one a spy restores later (after the try) draws from the real source,
 * because ours hand over to the function they replaced once the try has ended.
 */
import nodeCrypto, { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import type { TrySeeding } from '../core/gate/runner-protocol.js';
import { createSeededRandom, deriveTrySeed, type SeededRandom, uuidFromBytes } from '../core/replay/seeded-random.js';
import { testKey } from '../core/test-id.js';

export interface InstalledSeed {
  readonly seed: number;
  /** Puts back every function that is still ours; ours then hand over to the real ones. */
  remove(): void;
}

type Slot = {
  readonly owner: object;
  readonly name: string;
  readonly ours: unknown;
  readonly before: PropertyDescriptor | undefined;
};

/** Replaces `owner[name]` with `ours` (an own property), remembering what was there. */
function replace(owner: object, name: string, ours: unknown): Slot {
  const before = Object.getOwnPropertyDescriptor(owner, name);
  Object.defineProperty(owner, name, {
    value: ours,
    writable: true,
    configurable: true,
    enumerable: before?.enumerable ?? false,
  });
  return { owner, name, ours, before };
}

function putBack(slot: Slot): void {
  const holder = slot.owner as Record<string, unknown>;
  if (holder[slot.name] !== slot.ours) return; // the test's own source: it keeps it
  if (slot.before) Object.defineProperty(slot.owner, slot.name, slot.before);
  else delete holder[slot.name];
}

/** The functions that replace the real ones while `active()`; afterwards each calls the real one. */
function seededFunctions(gen: SeededRandom, active: () => boolean) {
  const realRandom = Math.random;
  const webCrypto = webCryptoOf();
  const realValues = webCrypto?.getRandomValues.bind(webCrypto);
  const realUuid = webCrypto?.randomUUID?.bind(webCrypto);
  const uuid = (): string => {
    const bytes = new Uint8Array(16);
    gen.fillBytes(bytes);
    return uuidFromBytes(bytes);
  };
  return {
    random: function random(): number {
      return active() ? gen.next() : realRandom();
    },
    getRandomValues: function getRandomValues<T extends ArrayBufferView | null>(array: T): T {
      // Anything the real one would refuse (not an integer array, over 65,536 bytes) it refuses.
      if (!active() || !isIntegerArray(array) || array.byteLength > 65_536) return realValues?.(array) as unknown as T;
      gen.fillBytes(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
      return array;
    },
    randomUUID: function randomUUID(): string {
      return active() || !realUuid ? uuid() : realUuid();
    },
    uuid,
  };
}

/** globalThis.crypto (Node 19+ always has one; a test environment may replace it). */
interface WebCrypto {
  getRandomValues<T>(array: T): T;
  randomUUID?(): string;
}
const webCryptoOf = (): WebCrypto | undefined => (globalThis as { crypto?: WebCrypto }).crypto;

const isIntegerArray = (a: unknown): a is ArrayBufferView =>
  ArrayBuffer.isView(a) && !(a instanceof DataView) && !(a instanceof Float32Array) && !(a instanceof Float64Array);

/** `node:crypto`'s randomBytes, randomInt and randomUUID, seeded; a callback gets its value on the next tick. */
function nodeCryptoSlots(gen: SeededRandom, active: () => boolean, uuid: () => string): Slot[] {
  const real = {
    randomBytes: nodeCrypto.randomBytes,
    randomInt: nodeCrypto.randomInt,
    randomUUID: nodeCrypto.randomUUID,
  };
  const later = (cb: unknown, value: unknown): unknown =>
    typeof cb === 'function' ? void process.nextTick(cb as (e: null, v: unknown) => void, null, value) : value;
  const randomBytes = (size: number, cb?: unknown): unknown => {
    if (!active() || !Number.isInteger(size) || size < 0)
      return (real.randomBytes as (...a: unknown[]) => unknown)(size, cb);
    const bytes = Buffer.alloc(size);
    gen.fillBytes(bytes);
    return later(cb, bytes);
  };
  const randomInt = (a: number, b?: unknown, cb?: unknown): unknown => {
    const [min, max, done] = typeof b === 'number' ? [a, b, cb] : [0, a, b];
    if (!active() || !Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max <= min)
      return (real.randomInt as (...x: unknown[]) => unknown)(a, b, cb);
    return later(done, min + Math.floor(gen.next() * (max - min)));
  };
  const randomUUID = (options?: unknown): string => (active() ? uuid() : real.randomUUID(options as never));
  const slots = [
    replace(nodeCrypto, 'randomBytes', randomBytes),
    replace(nodeCrypto, 'randomInt', randomInt),
    replace(nodeCrypto, 'randomUUID', randomUUID),
  ];
  syncBuiltinESMExports();
  return slots;
}

/** Seeds the try's random source with `seed`. */
export function installSeededRandom(seed: number, nodeCryptoToo: boolean): InstalledSeed {
  let on = true;
  const active = (): boolean => on;
  const gen = createSeededRandom(seed);
  const fns = seededFunctions(gen, active);
  const slots = [replace(Math, 'random', fns.random)];
  const webCrypto = webCryptoOf();
  if (webCrypto)
    slots.push(
      replace(webCrypto, 'getRandomValues', fns.getRandomValues),
      replace(webCrypto, 'randomUUID', fns.randomUUID),
    );
  if (nodeCryptoToo) slots.push(...nodeCryptoSlots(gen, active, fns.uuid));
  return {
    seed,
    remove() {
      on = false;
      for (const slot of slots) putBack(slot);
      if (nodeCryptoToo) syncBuiltinESMExports();
    },
  };
}

/**
 * The try's number: the lowest not yet claimed for this test in `dir` (an exclusive create, so two
 * workers never get the same one).
 */
function claimTryNumber(dir: string, key: string): number {
  mkdirSync(dir, { recursive: true });
  const stem = createHash('sha1').update(key).digest('hex').slice(0, 16);
  const file = (n: number): string => path.join(dir, `${stem}-${n}`);
  // The claimed numbers are 0..k-1 (k workers claimed before): find k by doubling, then halving.
  let low = 0;
  let high = 0;
  for (let step = 1; existsSync(file(high)); step *= 2) {
    low = high + 1;
    high += step;
  }
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (existsSync(file(mid))) low = mid + 1;
    else high = mid;
  }
  for (let n = low; ; n += 1) {
    try {
      closeSync(openSync(file(n), 'wx'));
      return n;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/** The seed of the next try of the test `test` (its file absolute), as the plan's seeding says. */
export function seedOfTry(
  seeding: TrySeeding,
  test: { readonly project: string; readonly file: string; readonly fullName: string },
): number {
  if (seeding.kind === 'fixed') return seeding.seed;
  const key = seedKeyOf(seeding.root, test);
  return deriveTrySeed(seeding.runSeed, key, claimTryNumber(seeding.claimDir, key));
}

/** The key a test's seeds are derived from: its project, its file relative to `root` and its full name. */
export function seedKeyOf(
  root: string,
  test: { readonly project: string; readonly file: string; readonly fullName: string },
): string {
  const file = path.relative(root, test.file).split(path.sep).join('/');
  return testKey({ project: test.project, file, fullName: test.fullName });
}
