/**
 * PGlite's WebAssembly compiled by V8's baseline compiler only (Liftoff), never tiered up to
 * TurboFan. PGlite is PostgreSQL as a 9 MB WASM module; V8 first compiles it with Liftoff, then
 * recompiles every hot function with TurboFan on background threads. A flakeguard process opens the
 * store once and runs a few hundred statements at most (the reporter's ingest of one run, a history
 * query, triage's look-up), so that second compilation costs far more than it ever pays back:
 * measured on 2 cores (Node 20, PGlite 0.5), one process, one open and 50 catalogue joins 2.1-2.4
 * CPU-s and 1.2-1.4 s with tier-up against 0.7-0.9 CPU-s and 0.6-0.75 s without; initdb (a new store)
 * 7.1 against 5.1 CPU-s; 20,000 inserts after it 0.52 against 0.28 CPU-s. A long session pays for
 * it: bench/history.mjs's ingest of 100 runs x 2,000 tests in one process takes 35% longer
 * (`--wasm-tier-up` runs it the other way; docs/history.md has the figures).
 *
 * V8 reads the flag when it starts compiling a module and keeps the module's tiers for its life, so
 * it is set only while PGlite starts (which compiles the module) and put back after: WASM compiled
 * by other code in the same process (the user's Vitest process, for the reporter) at another time
 * keeps V8's default tiering. A process started with `--liftoff-only` keeps it. Set
 * FLAKEGUARD_WASM_TIER_UP=1 to leave V8's tiering alone.
 */
import v8 from 'node:v8';

let starting = 0;

/** Whether tier-up is left on: the environment asks so, or Node was started with the flag already. */
function leaveTieringAlone(): boolean {
  return process.env['FLAKEGUARD_WASM_TIER_UP'] === '1' || process.execArgv.includes('--liftoff-only');
}

/** Runs `start` (a PGlite start) with V8's WASM compilation at the baseline tier only. */
export async function withBaselineWasm<T>(start: () => Promise<T>): Promise<T> {
  if (leaveTieringAlone()) return start();
  if (starting === 0) v8.setFlagsFromString('--liftoff-only');
  starting += 1;
  try {
    return await start();
  } finally {
    starting -= 1;
    if (starting === 0) v8.setFlagsFromString('--no-liftoff-only');
  }
}
