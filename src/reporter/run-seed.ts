/**
 * The reporter's side of replays from CI (`seed: true`, docs/replay.md "Replays from CI"): the
 * run's seed (FLAKEGUARD_SEED, else a fresh one) given to the workers, where the flakeguard/seed
 * setup file seeds each test from it; at the end, the record's `runSeed`, and the one line that
 * says the setup file is missing when tests ran and none was seeded.
 */
import { randomInt } from 'node:crypto';
import type { Vitest } from 'vitest/node';
import type { CheckedTest } from '../core/budget/budget-report.js';
import type { Config } from '../core/config.js';
import { FlakeguardError } from '../core/errors.js';
import { PLAN_ENV } from '../core/gate/runner-protocol.js';
import {
  chooseRunSeed,
  missingSetupFileLine,
  RUN_SEED_ENV,
  runSeedOf,
  SEED_PROVIDE_KEY,
} from '../core/replay/ci-seed.js';

/** FLAKEGUARD_SEED checked when the reporter starts: a bad value stops the run before any test. */
export function checkRunSeedEnv(config: Config): void {
  if (!config.seed) return;
  const chosen = chooseRunSeed(process.env[RUN_SEED_ENV], 0);
  if ('error' in chosen) throw new FlakeguardError('CONFIG_INVALID', chosen.error);
}

/** The run's seed, given to the workers (`inject`); null when `seed` is off. */
export function provideRunSeed(vitest: Vitest, config: Config, root: string): number | null {
  if (!config.seed) return null;
  const chosen = chooseRunSeed(process.env[RUN_SEED_ENV], randomInt(0, 0x1_0000_0000));
  if ('error' in chosen) throw new FlakeguardError('CONFIG_INVALID', chosen.error);
  vitest.provide(SEED_PROVIDE_KEY, {
    runSeed: chosen.seed,
    root,
    ...(config.seedNodeCrypto === true ? { nodeCrypto: true } : {}),
  });
  return chosen.seed;
}

/** The record's `runSeed` (core/replay/ci-seed.ts runSeedOf), or undefined: not seeded, `seed` off. */
export function recordedRunSeed(
  config: Config,
  tests: readonly CheckedTest[],
  provided: number | null,
): number | null | undefined {
  const seeds = tests.map((t) => t.seeds ?? null);
  if (!config.seed && seeds.every((s) => s === null)) return undefined;
  return runSeedOf(seeds, provided);
}

/**
 * The line to print when `seed: true` and tests ran (passed or failed) in a project none of whose
 * tests was seeded: its Vitest config lacks the setup file. Null when every project seeded its
 * tests, in a gate's or replay's Vitest (flakeguard's runner seeds those), or with `seed` off.
 */
export function missingSeedLine(config: Config, tests: readonly CheckedTest[]): string | null {
  if (!config.seed || process.env[PLAN_ENV]) return null;
  const ran = tests.filter((t) => t.state === 'passed' || t.state === 'failed');
  const seeded = new Set(ran.filter((t) => t.seeds !== undefined).map((t) => t.project));
  const unseeded = [...new Set(ran.map((t) => t.project))].filter((p) => !seeded.has(p)).sort();
  return unseeded.length === 0 ? null : missingSetupFileLine(unseeded);
}
