import { afterEach, describe, expect, it } from 'vitest';
import { withBaselineWasm } from '../../../src/io/history/wasm-baseline.js';

// The flag itself cannot be read back on Node 20 (no v8.getFlag); what can be checked here is that the
// start's value and error come through, overlapping starts each finish, and a WASM module still
// compiles and runs inside and after (the flag is valid for this V8). The CPU it saves is measured by
// bench/history.mjs (--wasm-tier-up for the other way) and written in wasm-baseline.ts.
const ADD = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 7, 1, 96, 2, 127, 127, 1, 127, 3, 2, 1, 0, 7, 7, 1, 3, 97, 100, 100, 0, 0, 10, 9, 1,
  7, 0, 32, 0, 32, 1, 106, 11,
]);

// tsconfig's lib has no WebAssembly types (Node has the global): the one call used, typed here.
interface Wasm {
  instantiate(bytes: Uint8Array): Promise<{ instance: { exports: Record<string, unknown> } }>;
}
const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;

async function add(a: number, b: number): Promise<number> {
  const { instance } = await wasm.instantiate(ADD);
  return (instance.exports['add'] as (x: number, y: number) => number)(a, b);
}

describe('withBaselineWasm', () => {
  const saved = process.env['FLAKEGUARD_WASM_TIER_UP'];
  afterEach(() => {
    if (saved === undefined) delete process.env['FLAKEGUARD_WASM_TIER_UP'];
    else process.env['FLAKEGUARD_WASM_TIER_UP'] = saved;
  });

  it('returns what the start returns; WASM compiles inside and after', async () => {
    expect(await withBaselineWasm(() => add(2, 3))).toBe(5);
    expect(await add(4, 5)).toBe(9);
  });

  it('passes the start error on and leaves the next start working', async () => {
    await expect(withBaselineWasm(() => Promise.reject(new Error('no store')))).rejects.toThrow('no store');
    expect(await withBaselineWasm(() => add(1, 1))).toBe(2);
  });

  it('lets overlapping starts each finish', async () => {
    const slow = withBaselineWasm(() => new Promise<number>((resolve) => setTimeout(() => resolve(1), 20)));
    const fast = withBaselineWasm(() => add(20, 22));
    expect(await Promise.all([slow, fast])).toEqual([1, 42]);
  });

  it('leaves tiering alone when FLAKEGUARD_WASM_TIER_UP=1', async () => {
    process.env['FLAKEGUARD_WASM_TIER_UP'] = '1';
    expect(await withBaselineWasm(() => add(3, 3))).toBe(6);
  });
});
