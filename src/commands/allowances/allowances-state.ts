/**
 * What every `flakeguard allowances` subcommand starts from: the config, the store, the tests read
 * from source (all test files plus the files the allowances name), and how each allowance resolves.
 */
import { systemClock } from '../../io/clock.js';
import { buildUniverse } from '../../core/allowances/allowance-universe.js';
import { resolveAllowances, type Resolution, type UniverseTest } from '../../core/allowances/allowance-resolve.js';
import type { Config } from '../../core/config.js';
import type { SourceTest } from '../../core/source/test-source.js';
import { loadAllowanceStore, type AllowanceStore } from '../../io/files/allowance-store.js';
import { loadConfig } from '../../io/files/config-file.js';
import { gitRenamesSince } from '../../io/git/git-renames.js';
import { listRunRecords, readRunRecord } from '../../io/files/run-record-file.js';
import { readSourceTests } from '../../io/files/source-files.js';
import { listTestFilePaths } from '../../io/vitest/list-test-files.js';

export interface AllowanceState {
  readonly root: string;
  readonly config: Config;
  readonly store: AllowanceStore;
  readonly sources: ReadonlyMap<string, readonly SourceTest[]>;
  readonly sourceProblems: readonly string[];
  readonly universe: readonly UniverseTest[];
  readonly resolutions: readonly Resolution[];
  readonly today: string;
}

/** Today as a UTC day (core/calendar.ts), as the reporter and the gate judge expiry. */
export const today = (): string => systemClock.today();

export async function gatherAllowanceState(cwd: string): Promise<AllowanceState> {
  const { config, root } = loadConfig(cwd);
  const store = loadAllowanceStore(root, config.allowances);
  const files = new Set([...(await listTestFilePaths(root)), ...store.allowances.map((a) => a.file)]);
  const read = readSourceTests(root, files);
  const universe = buildUniverse([], read.tests);
  const day = today();
  let resolutions = resolveAllowances({ allowances: store.allowances, tests: universe, renames: new Map(), today: day });
  const lost = resolutions.filter((r) => r.match.kind === 'orphan');
  if (lost.length > 0) {
    const renames = await gitRenamesSince(root, [...new Set(lost.map((r) => r.allowance.at.storeFile))]);
    if (lost.some((r) => renames.has(r.allowance.file))) {
      resolutions = resolveAllowances({ allowances: store.allowances, tests: universe, renames, today: day });
    }
  }
  // Only files an allowance names: a deliberately broken fixture elsewhere is not an allowance problem.
  const named = new Set(store.allowances.map((a) => a.file));
  const sourceProblems = read.problems.filter((p) => named.has(p.file)).map((p) => p.message);
  return { root, config, store, sources: read.tests, sourceProblems, universe, resolutions, today: day };
}

/**
 * The last measured duration of each test key, from the newest run records (the newest record
 * that has the test wins; up to 10 records are read, so every shard of the last run counts).
 */
export function lastDurations(root: string, folder: string, keys: ReadonlySet<string>, warn: (line: string) => void): Map<string, number> {
  const found = new Map<string, number>();
  if (keys.size === 0) return found;
  const records = listRunRecords(root, folder).reverse().slice(0, 10);
  for (const file of records) {
    try {
      for (const t of readRunRecord(file).tests) {
        if (keys.has(t.key) && !found.has(t.key) && t.durationMs !== null) found.set(t.key, t.durationMs);
      }
    } catch (error) {
      warn(`flakeguard: skipped a run record: ${(error as Error).message}`);
    }
    if (found.size === keys.size) break;
  }
  return found;
}
