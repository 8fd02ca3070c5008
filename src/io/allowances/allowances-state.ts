/**
 * What every `flakeguard allowances` subcommand starts from: the config, the store, the tests read
 * from source and how each allowance resolves (the orchestration the reporter uses,
 * allowances-for-run.ts, with every test taken from source), and the commit HEAD points at.
 */

import { allowanceKey } from '../../core/allowances/allowance-match.js';
import type { Config } from '../../core/config.js';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config/config-file.js';
import { runGit } from '../git/run-git.js';
import { resolveProjectPlaces } from '../places/project-places.js';
import { newestRunRecords, readRunRecord, skippedFilesNotice } from '../record/run-record-file.js';
import { type AllowanceResolution, resolveProjectAllowances } from './allowances-for-run.js';

export interface AllowanceState extends AllowanceResolution {
  readonly root: string;
  readonly config: Config;
  readonly today: string;
  /** The commit HEAD points at, recorded by add and migrate; null outside git. */
  readonly head: string | null;
}

export async function gatherProjectState(root: string, config: Config): Promise<AllowanceState> {
  const today = systemClock.today();
  const [resolved, head] = await Promise.all([
    resolveProjectAllowances({ root, config, tests: null, today }),
    runGit(root, ['rev-parse', '--verify', '-q', 'HEAD']),
  ]);
  return { ...resolved, root, config, today, head: head.ok && head.out.trim() !== '' ? head.out.trim() : null };
}

export async function gatherAllowanceState(cwd: string): Promise<AllowanceState> {
  const { config, root } = loadConfig(cwd);
  return gatherProjectState(root, config);
}

/**
 * The last measured duration of each test key, from the newest run records (the newest record
 * that has the test wins; up to 10 records are read, so every shard of the last run counts).
 */
export function lastDurations(
  root: string,
  config: Config,
  keys: ReadonlySet<string>,
  warn: (line: string) => void,
): Map<string, number> {
  const found = new Map<string, number>();
  if (keys.size === 0) return found;
  const { records, skipped } = newestRunRecords(root, resolveProjectPlaces(root, config).records, 10);
  const notice = skippedFilesNotice(skipped);
  if (notice !== null) warn(notice);
  for (const file of records) {
    try {
      for (const t of readRunRecord(file).tests) {
        const key = allowanceKey(t);
        if (keys.has(key) && !found.has(key) && t.durationMs !== null) found.set(key, t.durationMs);
      }
    } catch (error) {
      warn(`flakeguard: skipped a run record: ${(error as Error).message}`);
    }
    if (found.size === keys.size) break;
  }
  return found;
}
