/**
 * parseRunRecord: text of a run-record file to a RunRecord, or a FlakeguardError that says what
 * is wrong with the file (cut off, not JSON, another version, a field of the wrong type). Reads
 * version 2 and 0.1.0's version 1 (its full names under `name` and `test`, upgraded here). Pure.
 */
import { FlakeguardError } from '../errors.js';
import { fullNameFrom } from '../test-id.js';
import { isMachineIdentity } from './machine.js';
import { RUN_RECORD_VERSION, type RunRecord } from './run-record.js';

type Check = (value: unknown) => boolean;

const isString: Check = (v) => typeof v === 'string';
const isNumber: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const isBoolean: Check = (v) => typeof v === 'boolean';
const orNull =
  (check: Check): Check =>
  (v) =>
    v === null || check(v);
const isArray: Check = (v) => Array.isArray(v);
const isObject: Check = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Absent (a record written before the field), or what `check` takes. */
const optional =
  (check: Check): Check =>
  (v) =>
    v === undefined || check(v);
const isSeed: Check = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffff_ffff;
const isSeedList: Check = (v) => Array.isArray(v) && v.every(isSeed);
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);

const TOP: Record<string, [Check, string]> = {
  runId: [isString, 'text'],
  startedAt: [isString, 'an ISO time'],
  endedAt: [isString, 'an ISO time'],
  root: [isString, 'text'],
  platform: [isString, 'text'],
  arch: [isString, 'text'],
  cpus: [isNumber, 'a number'],
  loadavgStart: [isArray, 'a list of numbers'],
  loadavgEnd: [isArray, 'a list of numbers'],
  nodeVersion: [isString, 'text'],
  vitestVersion: [isString, 'text'],
  git: [isObject, 'an object { commit, dirty }'],
  shard: [orNull(isObject), 'null or { index, count }'],
  merged: [isBoolean, 'true or false'],
  exitReason: [oneOf('passed', 'failed', 'interrupted'), 'passed, failed or interrupted'],
  exitCode: [orNull(isNumber), 'a number or null'],
  runSeed: [optional(orNull(isSeed)), 'null or a seed (a whole number from 0 to 4294967295)'],
  seedNodeCrypto: [optional(isBoolean), 'true or false'],
  unhandledErrors: [isArray, 'a list'],
  budget: [isObject, 'an object { testMs, fileMs, warnAt }'],
  violations: [isArray, 'a list'],
  tests: [isArray, 'a list'],
  files: [isArray, 'a list'],
};

const TEST: Record<string, [Check, string]> = {
  key: [isString, 'text'],
  file: [isString, 'text'],
  fullName: [isString, 'text'],
  line: [orNull(isNumber), 'a number or null'],
  state: [oneOf('passed', 'failed', 'skipped', 'pending'), 'passed, failed, skipped or pending'],
  durationMs: [orNull(isNumber), 'a number or null'],
  retries: [isNumber, 'a number'],
  flaky: [isBoolean, 'true or false'],
  errors: [isArray, 'a list'],
  limitMs: [isNumber, 'a number'],
  limitSource: [oneOf('budget', 'allowance'), 'budget or allowance'],
  seeds: [optional(isSeedList), 'a list of seeds (whole numbers from 0 to 4294967295)'],
  failedSeed: [optional(isSeed), 'a seed (a whole number from 0 to 4294967295)'],
};

const FILE: Record<string, [Check, string]> = {
  file: [isString, 'text'],
  state: [oneOf('passed', 'failed', 'skipped', 'pending', 'queued'), 'passed, failed, skipped, pending or queued'],
  durationMs: [orNull(isNumber), 'a number or null'],
  limitMs: [orNull(isNumber), 'a number or null'],
  errors: [isArray, 'a list'],
};

const CI_TEXT = ['workflow', 'job', 'runId', 'runUrl', 'branch', 'commit', 'runnerOs'] as const;

/** `ci` is optional (records before it have none): null, or an object of text-or-null fields. */
const isCi: Check = (v) =>
  v === undefined ||
  v === null ||
  (isObject(v) &&
    isString((v as Record<string, unknown>)['provider']) &&
    CI_TEXT.every((f) => orNull(isString)((v as Record<string, unknown>)[f])) &&
    orNull(isNumber)((v as Record<string, unknown>)['attempt']) &&
    orNull(isObject)((v as Record<string, unknown>)['shard']));

function invalid(fileName: string, what: string): FlakeguardError {
  return new FlakeguardError(
    'INPUT_UNREADABLE',
    `${fileName}: ${what}; delete it or re-run the tests to write a new one`,
  );
}

/** A file flakeguard did not write: never told to delete it. */
function notOurs(fileName: string, what: string): FlakeguardError {
  return new FlakeguardError(
    'INPUT_UNREADABLE',
    `${fileName}: ${what}, so it is not a flakeguard run record; pass a record the flakeguard reporter wrote (.flakeguard/runs/*.json)`,
  );
}

/**
 * Whether a file's text is a flakeguard run record, whole, cut off or damaged (then reading it says
 * what is wrong), rather than another file that happens to sit beside the records (a cache, another
 * tool's JSON): a JSON object naming `version` and `runId`, as the reporter writes first.
 */
export function isRunRecordText(text: string): boolean {
  const head = text.slice(0, 1024);
  if (!/^\s*\{/.test(head)) return false;
  if (/"version"\s*:/.test(head) && /"runId"\s*:/.test(head)) return true;
  try {
    const data: unknown = JSON.parse(text);
    return isObject(data) && 'version' in (data as object) && 'runId' in (data as object);
  } catch {
    return false;
  }
}

function checkFields(
  value: Record<string, unknown>,
  fields: Record<string, [Check, string]>,
  fileName: string,
  at: string,
): void {
  for (const [field, [check, expected]] of Object.entries(fields)) {
    if (!check(value[field])) {
      const got = value[field] === undefined ? 'missing' : JSON.stringify(value[field])?.slice(0, 40);
      throw invalid(fileName, `run record field ${at}${field} must be ${expected}, found ${got}`);
    }
  }
}

export function parseRunRecord(text: string, fileName: string): RunRecord {
  if (text.trim() === '') throw invalid(fileName, 'run record is empty (the write was cut off)');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message;
    const cut = /end of (JSON )?input|Unterminated|Expected .* after/i.test(reason) && !text.trimEnd().endsWith('}');
    throw invalid(
      fileName,
      cut
        ? `run record is cut off after ${text.length} characters (not complete JSON)`
        : `run record is not valid JSON (${reason})`,
    );
  }
  if (!isObject(data)) throw notOurs(fileName, 'is JSON but not an object');
  const record = data as Record<string, unknown>;
  for (const field of ['version', 'runId'])
    if (record[field] === undefined) throw notOurs(fileName, `has no "${field}" field`);
  if (record['version'] !== RUN_RECORD_VERSION && record['version'] !== 1) {
    throw invalid(
      fileName,
      `run record version ${JSON.stringify(record['version'])} is not a version this flakeguard reads (1 or ${RUN_RECORD_VERSION}; written by another flakeguard release; update flakeguard or re-run)`,
    );
  }
  checkFields(record, TOP, fileName, '');
  return checkEntries(record['version'] === 1 ? upgradeVersion1(record) : record, fileName);
}

/** A version 1 record (0.1.0) as version 2: each full name under `fullName` (was `name`, and `test` in unhandledErrors). */
function upgradeVersion1(record: Record<string, unknown>): Record<string, unknown> {
  const each = (field: string, from: 'name' | 'test'): unknown[] =>
    (record[field] as unknown[]).map((x) => (isObject(x) ? fullNameFrom(x as object, from) : x));
  return {
    ...record,
    version: RUN_RECORD_VERSION,
    tests: each('tests', 'name'),
    violations: each('violations', 'name'),
    unhandledErrors: each('unhandledErrors', 'test'),
  };
}

function checkEntries(record: Record<string, unknown>, fileName: string): RunRecord {
  if (!isCi(record['ci']))
    throw invalid(
      fileName,
      `run record field ci must be null or { provider, workflow, job, runId, attempt, runUrl, branch, commit, runnerOs, shard }, found ${JSON.stringify(record['ci'])?.slice(0, 40)}`,
    );
  const machine = record['machine'];
  if (!(machine === undefined || machine === null || isMachineIdentity(machine)))
    throw invalid(
      fileName,
      `run record field machine must be null or { id: 12 hex digits, cpuModel, cores }, found ${JSON.stringify(machine)?.slice(0, 60)}`,
    );
  (record['tests'] as unknown[]).forEach((t, i) => {
    if (!isObject(t)) throw invalid(fileName, `run record field tests[${i}] must be an object`);
    checkFields(t as Record<string, unknown>, TEST, fileName, `tests[${i}].`);
  });
  (record['files'] as unknown[]).forEach((f, i) => {
    if (!isObject(f)) throw invalid(fileName, `run record field files[${i}] must be an object`);
    checkFields(f as Record<string, unknown>, FILE, fileName, `files[${i}].`);
  });
  return record as unknown as RunRecord;
}
