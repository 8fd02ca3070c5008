/**
 * Run records on disk: one JSON file per run (per shard) under the records folder, written
 * atomically; read back with the version checked and a clear error for a cut-off or invalid file.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { RunRecord } from '../../core/record/run-record.js';
import { isRunRecordText, parseRunRecord } from '../../core/record/run-record-parse.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import { RECORD_FILE_LIMIT_BYTES, readInputFile } from '../files/input-file.js';

export const RUN_RECORD_SUFFIX = '.json';

/** `<root>/<folder>/<runId>.json` */
function runRecordPath(root: string, folder: string, runId: string): string {
  return path.join(path.resolve(root, folder), `${runId}${RUN_RECORD_SUFFIX}`);
}

/** Writes the record and returns its absolute path. Compact JSON: 2,000 tests make about 0.7 MB. */
export function writeRunRecord(root: string, folder: string, record: RunRecord): string {
  const target = runRecordPath(root, folder, record.runId);
  writeFileAtomic(target, `${JSON.stringify(record)}\n`);
  return target;
}

/** Every read of a record goes through readInputFile: a regular file under the size limit, never a FIFO or a device. */
function readRecordText(file: string, shown: string): string {
  return readInputFile(file, 'a run record', RECORD_FILE_LIMIT_BYTES, shown).toString('utf8');
}

export function readRunRecord(file: string, displayName = file): RunRecord {
  return parseRunRecord(readRecordText(file, displayName), displayName);
}

/** Absolute paths of the records in the folder, oldest first (run ids sort by start time). */
export function listRunRecords(root: string, folder: string): string[] {
  const dir = path.resolve(root, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(RUN_RECORD_SUFFIX) && !name.startsWith('.'))
    .sort()
    .map((name) => path.join(dir, name));
}

/** The given files split into run records and files that are not (isRunRecordText): the second are skipped. */
export function splitRunRecords(files: readonly string[]): { readonly records: string[]; readonly skipped: string[] } {
  const records: string[] = [];
  const skipped: string[] = [];
  for (const file of files) (isRunRecordFile(file) ? records : skipped).push(file);
  return { records, skipped };
}

/** A file that cannot be read (missing, a folder) counts as a record, so that reading it names the problem. */
function isRunRecordFile(file: string): boolean {
  try {
    return isRunRecordText(readRecordText(file, file));
  } catch {
    return true;
  }
}

/** The newest `count` run records of the folder, newest first, and the files skipped on the way. */
export function newestRunRecords(
  root: string,
  folder: string,
  count: number,
): { readonly records: string[]; readonly skipped: string[] } {
  const records: string[] = [];
  const skipped: string[] = [];
  for (const file of listRunRecords(root, folder).reverse()) {
    if (records.length >= count) break;
    (isRunRecordFile(file) ? records : skipped).push(file);
  }
  return { records, skipped };
}

/** The one notice for files skipped because they are not run records (never advice to delete them). */
export function skippedFilesNotice(
  skipped: readonly string[],
  show: (file: string) => string = (f) => path.relative(process.cwd(), f) || f,
): string | null {
  if (skipped.length === 0) return null;
  const named = skipped.slice(0, 3).map(show).join(', ');
  const more = skipped.length > 3 ? ` and ${skipped.length - 3} more` : '';
  return `flakeguard: skipped ${skipped.length === 1 ? '1 file that is not a run record' : `${skipped.length} files that are not run records`}: ${named}${more}`;
}
