/**
 * What each triage input must be, checked before it is read: a directory, a missing file, a file
 * of another kind or one over its size limit stops triage with exit 2, the path and what was
 * expected (never a stack trace, never a "green" made of nothing).
 */
import { statSync } from 'node:fs';
import { FlakeguardError } from '../../core/errors.js';
import { describeOverLimit, RECORD_FILE_LIMIT_BYTES } from '../files/input-file.js';

export type TriageInputKind = 'record' | 'report' | 'junit' | 'log';

const EXPECTED: Record<TriageInputKind, string> = {
  record: 'a flakeguard run record (.flakeguard/runs/*.json, written by the flakeguard reporter)',
  report: 'a Vitest JSON report (vitest run --reporter=json --outputFile=<file>)',
  junit: 'a JUnit XML file (vitest run --reporter=junit --outputFile=<file>)',
  log: 'the CI log of the job that ran Vitest',
};

/**
 * The size limit of a --log: 2 GiB. A log is streamed line by line (memory stays flat whatever its
 * size), so the limit is about time, not memory: 100 MB scans in about 1.4 s (bench/triage.mjs, a
 * loaded 2-core machine), 2 GiB in about 30 s; it is 20 times the 100 MB log the tests scan, and a
 * "log" beyond it is almost surely a wrong file (a core dump, a disk image, a device copied to a
 * file). Records, reports and JUnit files are parsed whole in memory: 256 MiB.
 */
const LOG_FILE_LIMIT_BYTES = 2 * 1024 ** 3;

const LIMIT: Record<TriageInputKind, number> = {
  record: RECORD_FILE_LIMIT_BYTES,
  report: RECORD_FILE_LIMIT_BYTES,
  junit: RECORD_FILE_LIMIT_BYTES,
  log: LOG_FILE_LIMIT_BYTES,
};

const SMALLER: Record<TriageInputKind, string> = {
  record: 'pass the record of each shard as its own --record',
  report: 'pass the report of each shard as its own --report (vitest run --shard)',
  junit: 'pass the JUnit file of each shard as its own --junit (vitest run --shard)',
  log: "pass the log of the job's Vitest step only",
};

export function badInput(kind: TriageInputKind, input: string, what: string): FlakeguardError {
  return new FlakeguardError('INPUT_UNREADABLE', `--${kind} ${input}: ${what}; expected ${EXPECTED[kind]}`);
}

/** 'file', or 'missing' (the caller decides whether a missing file is explained); throws on anything else. */
export function checkInputPath(kind: TriageInputKind, file: string, input: string): 'file' | 'missing' {
  let stat;
  try {
    stat = statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw badInput(
      kind,
      input,
      `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  if (stat.isDirectory()) throw badInput(kind, input, 'is a directory');
  if (!stat.isFile()) throw badInput(kind, input, 'is not a regular file');
  if (stat.size > LIMIT[kind])
    throw new FlakeguardError(
      'INPUT_UNREADABLE',
      `--${kind} ${input}: ${describeOverLimit(stat.size, LIMIT[kind], EXPECTED[kind].replace(/ \(.*$/, ''))}; ${SMALLER[kind]}`,
    );
  return 'file';
}

/** `null`, `an array`, `an object with keys name, version, scripts` */
export function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value !== 'object') return `a ${typeof value}`;
  const keys = Object.keys(value);
  return keys.length === 0
    ? 'an empty object'
    : `an object with keys ${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', ...' : ''}`;
}

/** A whole JSON text (parsed) is a Vitest report when it has its testResults array and its counts. */
export function isVitestReportShape(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return Array.isArray(v['testResults']) && typeof v['numTotalTests'] === 'number';
}
