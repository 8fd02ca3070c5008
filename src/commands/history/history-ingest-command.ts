/**
 * `flakeguard history ingest <record or folder>...`: loads run records (CI artifacts) into the
 * store. Every file is read and checked before anything is stored; a record already stored is
 * counted, not stored again.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { FlakeguardError, interruptedError } from '../../core/errors.js';
import { type RunContext, runContextOf } from '../../core/history/history-rows.js';
import type { RunRecord } from '../../core/record/run-record.js';
import { displayPath } from '../../io/files/input-file.js';
import { type IngestOutcome, ingestRunRecord } from '../../io/history/history-ingest.js';
import { describeTarget } from '../../io/history/history-store.js';
import { readRunContext } from '../../io/history/run-context.js';
import { listenForInterrupt } from '../../io/process/interrupt.js';
import {
  RUN_RECORD_SUFFIX,
  readRunRecord,
  skippedFilesNotice,
  splitRunRecords,
} from '../../io/record/run-record-file.js';
import { commandUsageError, parseCommandArgs } from '../command-args.js';
import { HISTORY_COMMAND, HISTORY_INGEST_USAGE } from './history-options.js';
import { type HistoryPlace, openPlaceStore, resolveHistoryPlace } from './history-place.js';

/** The .json files under `dir`, at any depth (artifacts downloaded one folder per job), sorted. */
function recordFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(RUN_RECORD_SUFFIX) && !path.basename(name).startsWith('.'))
    .map((name) => path.join(dir, name))
    .sort();
}

function expand(inputs: readonly string[]): string[] {
  return inputs.flatMap((input) => {
    const full = path.resolve(input);
    let isDir: boolean;
    try {
      isDir = statSync(full).isDirectory();
    } catch (error) {
      throw new FlakeguardError(
        'INPUT_UNREADABLE',
        `${input}: no such run record or folder (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}); pass a record file or the folder that holds them`,
      );
    }
    return isDir ? recordFiles(full) : [full];
  });
}

/**
 * Stores each record in one transaction. Ctrl-C or SIGTERM: the record being stored finishes or
 * rolls back, the store is closed and its lock removed, and the command exits 130.
 */
async function storeRecords(
  place: HistoryPlace,
  files: readonly string[],
  load: (f: string) => { record: RunRecord; context: RunContext },
): Promise<Record<IngestOutcome, number>> {
  const counts: Record<IngestOutcome, number> = { stored: 0, duplicate: 0, 'merged-skipped': 0 };
  const interrupt = listenForInterrupt();
  try {
    const store = await openPlaceStore(place, false, interrupt.signal);
    try {
      for (const f of files) {
        // PGlite answers through microtasks only: without a turn of the event loop, a signal
        // would not be delivered until the last record.
        await new Promise((resolve) => setImmediate(resolve));
        if (interrupt.signal.aborted) break;
        const { record, context } = load(f);
        counts[await ingestRunRecord(store, record, context)] += 1;
      }
    } finally {
      await store.close();
    }
    if (interrupt.signal.aborted)
      throw interruptedError(`history ingest (${counts.stored} of ${files.length} records stored, each whole)`);
  } finally {
    interrupt.dispose();
  }
  return counts;
}

export async function runHistoryIngest(args: string[]): Promise<number> {
  const parsed = parseCommandArgs(HISTORY_COMMAND, HISTORY_INGEST_USAGE, args, true);
  if (parsed === 'help') return 0;
  const { values: flags, positionals } = parsed;
  if (positionals.length === 0)
    throw commandUsageError(
      HISTORY_COMMAND,
      'history ingest needs run records or folders of them, e.g. flakeguard history ingest .flakeguard/runs',
    );
  // Settings first (the store's place, a bad URL), then every file, then the store: nothing is
  // stored unless every input is good.
  const place = resolveHistoryPlace(flags);
  const { records: files, skipped } = splitRunRecords(expand(positionals));
  const notice = skippedFilesNotice(skipped);
  if (notice !== null) process.stderr.write(`${notice}\n`);
  const read = (f: string): RunRecord => readRunRecord(f, displayPath(f));
  // Every file is checked before anything is stored, then read again one at a time (a thousand
  // records of 2,000 tests are 700 MB: never all in memory).
  for (const f of files) read(f);
  const override = {
    ...(flags.branch === undefined ? {} : { branch: flags.branch }),
    ...(flags.job === undefined ? {} : { job: flags.job }),
  };
  // Each record's own CI context first; this process's variables and checkout (asked git once) for records without one.
  const fallback = await readRunContext(place.root, process.env, { ci: null }, override);
  const contextOf = (record: RunRecord) => {
    const own = runContextOf(record, process.env);
    return { branch: override.branch ?? own.branch ?? fallback.branch, job: override.job ?? own.job ?? fallback.job };
  };
  const counts = await storeRecords(place, files, (f) => {
    const record = read(f);
    return { record, context: contextOf(record) };
  });
  const parts = [`${counts.stored} stored`, `${counts.duplicate} already there`];
  if (counts['merged-skipped'] > 0)
    parts.push(`${counts['merged-skipped']} merged (--merge-reports) skipped: their shards' records hold their tests`);
  process.stdout.write(
    `flakeguard: history ${describeTarget(place.target)}: ${files.length} run record${files.length === 1 ? '' : 's'} read, ${parts.join(', ')}\n`,
  );
  return 0;
}
