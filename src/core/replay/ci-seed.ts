/**
 * Replays from CI (issue 46 item 4, docs/replay.md "Replays from CI"): with `seed: true`, the
 * `flakeguard/seed` setup file seeds each attempt of every test (first run, each retry and repeat)
 * from the run's seed, the test's key and the attempt's number, the way the gate seeds a try
 * (seeded-random.ts deriveTrySeed), and leaves what it did in the test's `task.meta` under
 * SEED_META_KEY. The reporter reads it back here (the meta crossed a process boundary: checked, not
 * trusted) into the seeds the run record keeps. Pure.
 */
import { MAX_SEED, parseSeed } from './seeded-random.js';

/** The `task.meta` key the setup file writes and the reporter reads (`TestCase.meta()`). */
export const SEED_META_KEY = 'flakeguardSeed';

/** The environment variable that fixes a run's seed (else each run draws a fresh one). */
export const RUN_SEED_ENV = 'FLAKEGUARD_SEED';

/** What the reporter gives the workers (Vitest's provide/inject) when `seed: true`. */
export interface SeedProvision {
  readonly runSeed: number;
  /** node:crypto's random functions seeded too (`seed: node-crypto`); absent: not. */
  readonly nodeCrypto?: boolean;
  /** The project root (where flakeguard.yaml is): a test's key names its file relative to it. */
  readonly root: string;
}

/** One attempt as the setup file saw it start. */
interface SeedAttempt {
  readonly seed: number;
  /** How many errors the test had when the attempt started (Vitest keeps earlier attempts' errors). */
  readonly errorsBefore: number;
}

/** What the setup file writes to `task.meta[SEED_META_KEY]`. */
export interface SeedMeta {
  readonly runSeed: number;
  readonly attempts: readonly SeedAttempt[];
}

/** A test's seeds as the run record keeps them. */
export interface TestSeeds {
  readonly runSeed: number;
  /** The seed each attempt started with, in order (the first run, then each retry or repeat). */
  readonly seeds: readonly number[];
  /** The seed of the first attempt that failed, or null when none did. */
  readonly failedSeed: number | null;
}

const isSeed = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_SEED;

const isAttempt = (v: unknown): v is SeedAttempt =>
  typeof v === 'object' &&
  v !== null &&
  isSeed((v as SeedAttempt).seed) &&
  Number.isInteger((v as SeedAttempt).errorsBefore) &&
  (v as SeedAttempt).errorsBefore >= 0;

/** The setup file's entry in a test's meta, or null when there is none (or it is not one). */
export function readSeedMeta(meta: unknown): SeedMeta | null {
  if (typeof meta !== 'object' || meta === null) return null;
  const entry = (meta as Record<string, unknown>)[SEED_META_KEY];
  if (typeof entry !== 'object' || entry === null) return null;
  const { runSeed, attempts } = entry as { runSeed?: unknown; attempts?: unknown };
  if (!isSeed(runSeed) || !Array.isArray(attempts) || attempts.length === 0 || !attempts.every(isAttempt)) return null;
  return { runSeed, attempts };
}

/**
 * A test's seeds from its meta and how many errors it ended with: attempt i failed when the test
 * had more errors when the next attempt started (or at the end, for the last) than when i started
 * (Vitest 4.1 keeps every attempt's errors). Where Vitest says each attempt's state (5.x
 * `TestCase.attempts()`, one per seeded attempt), that decides instead.
 */
export function testSeedsOf(meta: SeedMeta, errorsAtEnd: number, states?: readonly ('passed' | 'failed')[]): TestSeeds {
  const { attempts } = meta;
  const failed =
    states !== undefined && states.length === attempts.length
      ? attempts.find((_, i) => states[i] === 'failed')
      : attempts.find((a, i) => (attempts[i + 1]?.errorsBefore ?? errorsAtEnd) > a.errorsBefore);
  return { runSeed: meta.runSeed, seeds: attempts.map((a) => a.seed), failedSeed: failed?.seed ?? null };
}

/**
 * The record's `runSeed`: the one run seed its tests were seeded from; null when they name several
 * (a merge of shards that each drew their own); `fallback` (the reporter's own) when none was seeded.
 */
export function runSeedOf(tests: readonly (TestSeeds | null)[], fallback: number | null): number | null {
  const seen = new Set(tests.flatMap((t) => (t === null ? [] : [t.runSeed])));
  if (seen.size === 0) return fallback;
  return seen.size === 1 ? ([...seen][0] ?? null) : null;
}

/** The run's seed: FLAKEGUARD_SEED when set, else `fresh`; a value that is no seed is an error message. */
export function chooseRunSeed(envValue: string | undefined, fresh: number): { seed: number } | { error: string } {
  if (envValue === undefined || envValue.trim() === '') return { seed: fresh };
  const seed = parseSeed(envValue);
  if (seed !== null) return { seed };
  return {
    error: `${RUN_SEED_ENV}=${JSON.stringify(envValue.slice(0, 40))} is not a seed; set a whole number from 0 to ${MAX_SEED} (a run record's runSeed), or unset it for a fresh seed per run`,
  };
}

/** What the reporter says once when `seed: true` and tests ran, but none was seeded. */
export function missingSetupFileLine(unseededProjects: readonly string[]): string {
  const where =
    unseededProjects.length === 0 || (unseededProjects.length === 1 && unseededProjects[0] === '')
      ? 'the Vitest config'
      : `the Vitest config of project ${unseededProjects.map((p) => (p === '' ? '(unnamed)' : JSON.stringify(p))).join(', ')}`;
  return `flakeguard: seed: true in flakeguard.yaml, but no test of ${where} was seeded, so the run record keeps no seeds; add the setup file: test: { setupFiles: ['flakeguard/seed'] } (docs/replay.md "Replays from CI")`;
}

/** The key the reporter provides the run's SeedProvision under (Vitest's `provide`/`inject`). */
export const SEED_PROVIDE_KEY = 'flakeguardSeed';
