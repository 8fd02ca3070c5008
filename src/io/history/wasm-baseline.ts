/**
 * PGlite's WebAssembly compiled by V8's baseline compiler only (Liftoff), never tiered up to
 * TurboFan, in flakeguard's own CLI process. PGlite is PostgreSQL as a 9 MB WASM module; V8 first
 * compiles it with Liftoff, then recompiles every hot function with TurboFan on background threads.
 * A flakeguard command opens the store once and runs a few hundred statements at most (a history
 * query, triage's look-up, the gate's calibration), so that second compilation costs far more than
 * it ever pays back: measured on 2 cores (Node 20, PGlite 0.5), one process, one open and 50
 * catalogue joins 2.1-2.4 CPU-s and 1.2-1.4 s with tier-up against 0.7-0.9 CPU-s and 0.6-0.75 s
 * without; initdb (a new store) 7.1 against 5.1 CPU-s. A long session pays for it: bench/history.mjs's
 * ingest of 100 runs x 2,000 tests in one process takes 35% longer (docs/history.md).
 *
 * V8 flags are process-wide, so this is set once, by the CLI entry (src/cli.ts) before any module
 * is compiled, in a process that runs flakeguard's code only (Vitest and the user's tests run in
 * child processes). The reporter never calls it: it runs in the user's Vitest process, where a flag
 * flipped would reach every WASM module the user's code or another plugin compiles (issue 37;
 * test/boundaries.test.ts keeps this file the CLI entry's alone, test/reporter/process-state.test.ts
 * checks the reporter leaves the process as it found it). FLAKEGUARD_WASM_TIER_UP=1 leaves V8's
 * tiering alone; a process started with `--liftoff-only` has it already.
 */
import v8 from 'node:v8';

export interface BaselineWasmInput {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly execArgv: readonly string[];
  /** V8's flag setter (v8.setFlagsFromString). */
  readonly setFlags?: (flags: string) => void;
}

/** Sets `--liftoff-only` for the rest of this process unless asked not to; returns whether it set it. */
export function compileWasmAtBaselineOnly(input: BaselineWasmInput): boolean {
  if (input.env['FLAKEGUARD_WASM_TIER_UP'] === '1' || input.execArgv.includes('--liftoff-only')) return false;
  (input.setFlags ?? v8.setFlagsFromString)('--liftoff-only');
  return true;
}
