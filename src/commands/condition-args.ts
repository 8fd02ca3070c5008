/**
 * The options that set how a test runs, read the same way by `flakeguard gate` and `flakeguard
 * replay`: --seed, --slowdown and --config. Each bad value is a usage error naming it and the form
 * to write (exit 2).
 */
import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { MAX_SLOWDOWN, parseSlowdown } from '../core/gate/gate-config.js';
import { MAX_SEED, parseSeed } from '../core/replay/seeded-random.js';
import { commandUsageError } from './command-args.js';

/** --slowdown: a factor from 1 to MAX_SLOWDOWN, `auto` where the command takes it, or null when not given. */
export function parseSlowdownOption(command: string, text: string | undefined, auto: boolean): number | 'auto' | null {
  if (auto && text?.trim() === 'auto') return 'auto';
  const slowdown = text === undefined ? null : parseSlowdown(text);
  if (text !== undefined && slowdown === null)
    throw commandUsageError(
      command,
      `--slowdown "${text}" must be a factor from 1 (no slowdown) to ${MAX_SLOWDOWN}, e.g. 2${auto ? ', or auto' : ''}`,
    );
  return slowdown;
}

/** --seed: a whole number from 0 to MAX_SEED; not given, a seed drawn at random (32 bits) when `draw`, else null. */
export function parseSeedOption(command: string, text: string | undefined, draw: true): number;
export function parseSeedOption(command: string, text: string | undefined, draw: false): number | null;
export function parseSeedOption(command: string, text: string | undefined, draw: boolean): number | null {
  if (text === undefined) return draw ? randomInt(0, MAX_SEED + 1) : null;
  const seed = parseSeed(text);
  if (seed === null)
    throw commandUsageError(command, `--seed "${text}" must be a whole number from 0 to ${MAX_SEED}, e.g. --seed 1234`);
  return seed;
}

/** --config: the Vitest config file, resolved; it must exist. */
export function parseConfigOption(command: string, text: string | undefined): string | null {
  const config = text === undefined ? null : path.resolve(text);
  if (config !== null && !existsSync(config))
    throw commandUsageError(
      command,
      `--config "${text}" does not exist (resolved to ${config}); pass the Vitest config file, e.g. --config vitest.config.ts`,
    );
  return config;
}
