/**
 * History for the reporter: the store is opened when the run starts (PGlite's start-up overlaps the
 * tests) and the run is stored when it ends, after its record is written. Nothing here can fail
 * the run: a store that is down, locked or refused becomes one warning line, and the record on
 * disk can be loaded later with `flakeguard history ingest`.
 */
import type { HistoryConfig } from '../../core/history/history-config.js';
import { type RecentFailures, recentFailuresOf } from '../../core/quarantine/run-quarantine.js';
import type { RunRecord } from '../../core/record/run-record.js';
import { testKey } from '../../core/test-id.js';
import type { ProjectPlaces } from '../places/project-places.js';
import { ingestRunRecord } from './history-ingest.js';
import { describeTarget, type HistoryStore, openHistoryStore, resolveHistoryTarget } from './history-store.js';
import { readRunContext } from './run-context.js';
import { lastRunsOfTest, type StoredTestRef } from './test-history.js';

export interface HistorySession {
  /**
   * For each test (by testKey): its failures in its last `window` runs, this run (a failure)
   * included, from the stored runs on any branch. Empty when the store is unavailable. Never throws.
   */
  recentFailures(tests: readonly StoredTestRef[], window: number): Promise<Map<string, RecentFailures>>;
  /** Stores the run; returns the lines to print (results and warnings). Never throws. */
  finish(record: RunRecord, recordFile: string | null): Promise<{ readonly out: string[]; readonly err: string[] }>;
}

export interface HistorySessionInput {
  readonly places: ProjectPlaces;
  readonly history: HistoryConfig;
  readonly env: Readonly<Record<string, string | undefined>>;
}

type Opened = { readonly ok: true; readonly store: HistoryStore } | { readonly ok: false; readonly error: unknown };

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** null when history is off. */
export function startHistorySession(input: HistorySessionInput): HistorySession | null {
  let where = 'the history store';
  let opened: Promise<Opened>;
  try {
    const target = resolveHistoryTarget(input.places, input.history, input.env);
    if (target === null) return null;
    where = describeTarget(target);
    opened = openHistoryStore(target, { wait: 'test-run' }).then(
      (store): Opened => ({ ok: true, store }),
      (error: unknown): Opened => ({ ok: false, error }),
    );
  } catch (error) {
    opened = Promise.resolve({ ok: false, error });
  }
  return {
    recentFailures: (tests, window) => readRecentFailures(opened, tests, window),
    finish: (record, recordFile) => storeRunInHistory(opened, where, input, record, recordFile),
  };
}

async function readRecentFailures(
  opened: Promise<Opened>,
  tests: Parameters<HistorySession['recentFailures']>[0],
  window: number,
): Promise<Map<string, RecentFailures>> {
  const found = new Map<string, RecentFailures>();
  const result = await opened;
  if (!result.ok) return found;
  try {
    for (const test of tests) {
      const runs = await lastRunsOfTest(result.store, test, { limit: window - 1 });
      found.set(testKey(test), recentFailuresOf(runs));
    }
  } catch {
    // History is evidence, never a reason to fail the run: the block prints without the count.
  }
  return found;
}

/** Stores the run in the opened store; any failure is a warning that says where the record is kept. */
async function storeRunInHistory(
  opened: Promise<Opened>,
  where: string,
  input: HistorySessionInput,
  record: Parameters<HistorySession['finish']>[0],
  recordFile: Parameters<HistorySession['finish']>[1],
): ReturnType<HistorySession['finish']> {
  const warn = (error: unknown) => {
    const later =
      recordFile === null ? '' : `; the run record is kept: load it later with flakeguard history ingest ${recordFile}`;
    return {
      out: [],
      err: [`flakeguard: warning: the run was not stored in history (${where}): ${reason(error)}${later}`],
    };
  };
  const result = await opened;
  if (!result.ok) return warn(result.error);
  try {
    const outcome = await ingestRunRecord(
      result.store,
      record,
      await readRunContext(input.places.root, input.env, record).catch(() => ({ branch: null, job: null })),
    );
    const what =
      outcome === 'stored'
        ? 'run stored'
        : outcome === 'duplicate'
          ? 'run already stored'
          : 'merged run not stored (its shards are)';
    return { out: [`flakeguard: history ${where}: ${what}`], err: [] };
  } catch (error) {
    return warn(error);
  } finally {
    await result.store.close().catch(() => undefined);
  }
}
