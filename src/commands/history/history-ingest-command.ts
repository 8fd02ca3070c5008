/**
 * `flakeguard history ingest <record or folder>...`: loads run records (CI artifacts) into the
 * store. Every file is read and checked before anything is stored; a record already stored is
 * counted, not stored again.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { RunRecord } from '../../core/record/run-record.js';
import { FlakeguardError } from '../../core/errors.js';
import { readRunRecord, RUN_RECORD_SUFFIX } from '../../io/files/run-record-file.js';
import { ingestRunRecord, type IngestOutcome } from '../../io/history/history-ingest.js';
import { describeTarget, openHistoryStore } from '../../io/history/history-store.js';
import { readRunContext } from '../../io/history/run-context.js';
import { HISTORY_HELP, historyUsage, resolveHistoryPlace } from './history-place.js';

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

export async function runHistoryIngest(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { branch: { type: 'string' }, job: { type: 'string' }, root: { type: 'string' }, url: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw historyUsage((error as Error).message);
  }
  const { values: flags, positionals } = parsed;
  if (flags.help) {
    process.stdout.write(`${HISTORY_HELP}\n`);
    return 0;
  }
  if (positionals.length === 0) throw historyUsage('history ingest needs run records or folders of them, e.g. flakeguard history ingest .flakeguard/runs');
  const files = expand(positionals);
  const records: RunRecord[] = files.map((f) => readRunRecord(f, path.relative(process.cwd(), f) || f));
  const place = resolveHistoryPlace(flags);
  const context = await readRunContext(place.root, process.env, {
    ...(flags.branch === undefined ? {} : { branch: flags.branch }),
    ...(flags.job === undefined ? {} : { job: flags.job }),
  });
  const store = await openHistoryStore(place.target).catch((error: unknown) => {
    throw historyUsage(`cannot open the history store ${describeTarget(place.target)}: ${(error as Error).message}`);
  });
  const counts: Record<IngestOutcome, number> = { stored: 0, duplicate: 0, 'merged-skipped': 0 };
  try {
    for (const record of records) counts[await ingestRunRecord(store, record, context)] += 1;
  } finally {
    await store.close();
  }
  const parts = [`${counts.stored} stored`, `${counts.duplicate} already there`];
  if (counts['merged-skipped'] > 0) parts.push(`${counts['merged-skipped']} merged (--merge-reports) skipped: their shards' records hold their tests`);
  process.stdout.write(`flakeguard: history ${describeTarget(place.target)}: ${records.length} run record${records.length === 1 ? '' : 's'} read, ${parts.join(', ')}\n`);
  return 0;
}
