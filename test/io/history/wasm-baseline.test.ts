import { describe, expect, it } from 'vitest';
import { compileWasmAtBaselineOnly } from '../../../src/io/history/wasm-baseline.js';

// The CLI entry sets the flag for its whole process (src/cli.ts); the setter is passed in here so
// that this test's process (shared with other unit files) keeps V8's flags. The flag itself cannot
// be read back on Node 20 (no v8.getFlag); the CPU it saves is measured by bench/history.mjs.
describe('compileWasmAtBaselineOnly', () => {
  const run = (env: Record<string, string>, execArgv: string[] = []) => {
    const calls: string[] = [];
    const set = compileWasmAtBaselineOnly({ env, execArgv, setFlags: (f) => calls.push(f) });
    return { set, calls };
  };

  it('sets --liftoff-only once', () => {
    expect(run({})).toEqual({ set: true, calls: ['--liftoff-only'] });
  });

  it('leaves tiering alone when FLAKEGUARD_WASM_TIER_UP=1', () => {
    expect(run({ FLAKEGUARD_WASM_TIER_UP: '1' })).toEqual({ set: false, calls: [] });
  });

  it('sets nothing when Node was started with the flag', () => {
    expect(run({}, ['--liftoff-only'])).toEqual({ set: false, calls: [] });
  });
});
