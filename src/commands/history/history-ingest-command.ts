/**
 * `flakeguard history ingest <record or folder>...`: loads run records (CI artifacts) into the
 * store. Every file is read and checked before anything is stored; a record already stored is
 * counted, not stored again.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { RunRecord } from '../../core/record/run-record.js';
import { FlakeguardError } from '../../core/errors.js';
import { readRunRecord, RUN_RECORD_SUFFIX, skippedFilesNotice, splitRunRecords } from '../../io/record/run-record-file.js';
import { ingestRunRecord, type IngestOutcome } from '../../io/history/history-ingest.js';
import { describeTarget } from '../../io/history/history-store.js';
import { readRunContext } from '../../io/history/run-context.js';
import { formatUsage, type OptionTable } from '../../core/usage.js';
import { HISTORY_DOCS, HISTORY_EXIT, historyUsage, openPlaceStore, parseHistoryArgs, resolveHistoryPlace, STORE_OPTIONS } from './history-place.js';

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
      throw new FlakeguardError('INPUT_UNREADABLE', `${input}: no such run record or folder (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}); pass a record file or the folder that holds them`);
    }
    return isDir ? recordFiles(full) : [full];
  });
}

export const HISTORY_INGEST_OPTIONS: OptionTable = {
  branch: { type: 'string', value: '<b>', help: 'the branch the runs were on (default: CI variables, else the branch checked out)' },
  job: { type: 'string', value: '<id>', help: 'the CI job that ran them (default: CI variables)' },
  ...STORE_OPTIONS,
};

const USAGE = formatUsage({
  synopsis: ['flakeguard history ingest <run record or folder>... [options]'],
  summary: 'Loads run records (CI artifacts; folders are searched at any depth for *.json) into the history store. Every file is checked first; a record already stored is not stored again.',
  options: HISTORY_INGEST_OPTIONS,
  exit: HISTORY_EXIT,
  docs: HISTORY_DOCS,
});

export async function runHistoryIngest(args: string[]): Promise<number> {
  const { values, positionals } = parseHistoryArgs(args, HISTORY_INGEST_OPTIONS, true);
  const flags = values as { branch?: string; job?: string; root?: string; url?: string; help?: boolean };
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length === 0) throw historyUsage('history ingest needs run records or folders of them, e.g. flakeguard history ingest .flakeguard/runs');
  const { records: files, skipped } = splitRunRecords(expand(positionals));
  const notice = skippedFilesNotice(skipped);
  if (notice !== null) process.stderr.write(`${notice}\n`);
  const read = (f: string): RunRecord => readRunRecord(f, path.relative(process.cwd(), f) || f);
  // Every file is checked before anything is stored, then read again one at a time (a thousand
  // records of 2,000 tests are 700 MB: never all in memory).
  for (const f of files) read(f);
  const place = resolveHistoryPlace(flags);
  const context = await readRunContext(place.root, process.env, {
    ...(flags.branch === undefined ? {} : { branch: flags.branch }),
    ...(flags.job === undefined ? {} : { job: flags.job }),
  });
  const store = await openPlaceStore(place, false);
  const counts: Record<IngestOutcome, number> = { stored: 0, duplicate: 0, 'merged-skipped': 0 };
  try {
    for (const f of files) counts[await ingestRunRecord(store, read(f), context)] += 1;
  } finally {
    await store.close();
  }
  const parts = [`${counts.stored} stored`, `${counts.duplicate} already there`];
  if (counts['merged-skipped'] > 0) parts.push(`${counts['merged-skipped']} merged (--merge-reports) skipped: their shards' records hold their tests`);
  process.stdout.write(`flakeguard: history ${describeTarget(place.target)}: ${files.length} run record${files.length === 1 ? '' : 's'} read, ${parts.join(', ')}\n`);
  return 0;
}
