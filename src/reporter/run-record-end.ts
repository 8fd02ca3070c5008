/**
 * The run record at the end of a run: where and how the run ran (core/budget/run-record-build.ts
 * RunFacts), the record written to the records folder, then handed to the history store; with the
 * lines to print about it (stdout) and the problems (stderr).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Vitest } from 'vitest/node';
import { makeRunId, type RunFacts } from '../core/budget/run-record-build.js';
import { readCiContext } from '../core/record/ci-context.js';
import type { RunRecord } from '../core/record/run-record.js';
import type { GitState } from '../io/git/git-state.js';
import type { HistorySession } from '../io/history/reporter-history.js';
import { readMachineIdentity } from '../io/machine.js';
import type { ProjectPlaces } from '../io/places/project-places.js';
import { writeRunRecord } from '../io/record/run-record-file.js';
import { toRelative } from './observe.js';

export interface RunEnd {
  readonly vitest: Vitest;
  readonly root: string;
  readonly platform: string;
  readonly startedAt: Date;
  readonly loadavgStart: readonly number[];
  readonly git: GitState | null;
  readonly shard: RunFacts['shard'];
  readonly reason: 'passed' | 'failed' | 'interrupted';
  readonly vitestExitCode: number | null;
  /** The exit code once flakeguard has set its own. */
  readonly exitCode: number | null;
  /** The record's `runSeed` (reporter/run-seed.ts); undefined: `seed` off and nothing seeded. */
  readonly runSeed: number | null | undefined;
  /** node:crypto was seeded too (`seed: node-crypto`). */
  readonly seedNodeCrypto?: boolean;
}

export function describeRunFacts(end: RunEnd): RunFacts {
  const { vitest, shard } = end;
  const merged = Boolean(vitest.config.mergeReports);
  const startedAt = end.startedAt.toISOString();
  return {
    runId: makeRunId(startedAt, randomBytes(3).toString('hex'), shard, merged),
    startedAt,
    endedAt: new Date().toISOString(),
    root: end.root,
    platform: end.platform,
    arch: process.arch,
    cpus: os.availableParallelism?.() ?? os.cpus().length,
    loadavgStart: end.loadavgStart,
    loadavgEnd: os.loadavg(),
    nodeVersion: process.version,
    vitestVersion: vitest.version,
    git: { commit: end.git?.commit ?? null, dirty: end.git?.dirty ?? null },
    shard,
    ci: readCiContext(process.env, shard),
    machine: readMachineIdentity(),
    merged,
    watch: vitest.config.watch,
    exitReason: end.reason,
    vitestExitCode: end.vitestExitCode,
    exitCode: end.exitCode,
    ...(end.runSeed === undefined ? {} : { runSeed: end.runSeed }),
    ...(end.runSeed !== undefined && end.seedNodeCrypto === true ? { seedNodeCrypto: true } : {}),
  };
}

export interface RecordLines {
  readonly out: string[];
  readonly err: string[];
}

/** Writes the record, then stores it in history when a session is open; the lines say what happened. */
export async function writeRecordOfRun(
  root: string,
  places: ProjectPlaces,
  record: RunRecord,
  history: HistorySession | null,
  historyError: unknown,
): Promise<RecordLines> {
  const out: string[] = [];
  const err: string[] = [];
  let written: string | null = null;
  try {
    written = writeRunRecord(root, places.records, record);
    out.push(`flakeguard: run record ${toRelative(root, written)}`);
  } catch (error) {
    err.push(`flakeguard: could not write the run record under ${places.recordsShown}: ${(error as Error).message}`);
  }
  if (historyError !== null) err.push(`flakeguard: warning: history unavailable: ${String(historyError)}`);
  if (history) {
    const lines = await history.finish(record, written === null ? null : toRelative(root, written));
    out.push(...lines.out);
    err.push(...lines.err);
  }
  return { out, err };
}
