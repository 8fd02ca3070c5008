/**
 * The values of `flakeguard gate`'s options that need more than a number or a duration: the load,
 * the slowdown, the seed and the Vitest config, each checked with an error that names the bad value
 * and the fix (gate-args.ts holds the table).
 */
import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { FlakeguardError } from '../../core/errors.js';
import { MAX_SLOWDOWN, parseSlowdown } from '../../core/gate/gate-config.js';
import { MAX_SEED, parseSeed } from '../../core/replay/seeded-random.js';
import { defaultWorkerCount } from '../../io/load/load-workers.js';

/** A usage error of the gate: exit 2, with where to read the options. */
export function gateUsageError(message: string): FlakeguardError {
  return new FlakeguardError('USAGE', `${message}; see flakeguard gate --help`);
}

const usage = gateUsageError;

/** --load: the number of busy workers (auto: one per core). */
export function parseLoad(text: string): number {
  const load = text.trim();
  const workers = load === 'auto' ? defaultWorkerCount() : Number(load);
  if (!Number.isInteger(workers) || workers < 0 || workers > 256)
    throw usage(`--load "${text}" must be auto, 0 (no load) or a number of workers`);
  return workers;
}

export function parseSlowdownOption(text: string | undefined): number | 'auto' | null {
  if (text?.trim() === 'auto') return 'auto';
  const slowdown = text === undefined ? null : parseSlowdown(text);
  if (text !== undefined && slowdown === null)
    throw usage(`--slowdown "${text}" must be a factor from 1 (no slowdown) to ${MAX_SLOWDOWN}, e.g. 2, or auto`);
  return slowdown;
}

/** --seed, or a seed drawn at random (32 bits). */
export function parseSeedOption(text: string | undefined): number {
  if (text === undefined) return randomInt(0, MAX_SEED + 1);
  const seed = parseSeed(text);
  if (seed === null) throw usage(`--seed "${text}" must be a whole number from 0 to ${MAX_SEED}, e.g. --seed 1234`);
  return seed;
}

/** --config: the Vitest config file, resolved; it must exist. */
export function parseConfigOption(text: string | undefined): string | null {
  const config = text === undefined ? null : path.resolve(text);
  if (config !== null && !existsSync(config))
    throw usage(
      `--config "${text}" does not exist (resolved to ${config}); pass the Vitest config file, e.g. --config vitest.config.ts`,
    );
  return config;
}
