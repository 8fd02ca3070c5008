/**
 * flakeguard's own run record (written by the reporter; schema src/core/record/run-record.ts) as triage
 * observations. The record is the best input: it has hook errors, unhandled errors with the file
 * they came from, the limit each test had (allowances included) and the budget violations.
 */

import type { RecordedError, RunRecord } from '../record/run-record.js';
import { projectTag } from '../test-id.js';
import { salvageJson } from './report-salvage.js';
import { checkOfRecord } from './triage-caught-by.js';
import type { BudgetExcess, ObservedFile, ObservedTest, ObservedUnhandled } from './triage-types.js';

export interface RecordObservations {
  readonly tests: ObservedTest[];
  readonly files: ObservedFile[];
  readonly unhandled: ObservedUnhandled[];
  readonly excesses: BudgetExcess[];
  /** The exit code the run ended with as far as the record knows, or null. */
  readonly exitCode: number | null;
  /** An evidence line when the record says Vitest ended the run as interrupted, else null. */
  readonly interrupted: string | null;
}

function messages(errors: readonly RecordedError[] | undefined): string[] {
  return (errors ?? []).map((e) => (e.frame ? `${e.message}\n    at ${e.frame}` : e.message));
}

/** A run whose only failures were quarantined exited 0 by the reporter's word (docs/quarantine.md). */
/** The check that caught the run, as a field to spread into each observation (none when unknown). */
type CheckField = { readonly check?: NonNullable<ReturnType<typeof checkOfRecord>> };

export function readRecordObservations(record: RunRecord, input: string): RecordObservations {
  const found = checkOfRecord(record);
  const check: CheckField = found === undefined ? {} : { check: found };
  const crypto = record.seedNodeCrypto === true ? { seedNodeCrypto: true } : {};
  const tests: ObservedTest[] = record.tests.map((t) => ({ ...testOfRecordEntry(t, input, check), ...crypto }));
  const files: ObservedFile[] = [];
  for (const f of record.files) {
    files.push({
      file: f.file,
      durationMs: f.durationMs,
      limitMs: f.limitMs,
      origin: `${input}: file ${f.file} ${f.state}`,
    });
    const failure = failureOfRecordFile(f, record, input, check);
    if (failure !== null) tests.push(failure);
  }
  const unhandled: ObservedUnhandled[] = record.unhandledErrors.map((u) => ({
    type: u.type,
    message: u.message,
    file: u.file,
    fullName: u.fullName,
    ...check,
    origin: `${input}: unhandled ${u.type}${u.file ? ` from ${u.file}` : ''}: ${u.message.split('\n')[0] ?? ''}`,
  }));
  const excesses: BudgetExcess[] = record.violations.map((v) => excessOfViolation(v, input, check));
  const interrupted =
    record.exitReason === 'interrupted'
      ? `${input}: Vitest ended the run as interrupted (stopped before its end)`
      : null;
  return { tests, files, unhandled, excesses, exitCode: exitCodeOfRecord(record), interrupted };
}

function testOfRecordEntry(t: RunRecord['tests'][number], input: string, check: CheckField): ObservedTest {
  return {
    kind: 'test',
    // A record written before projects were recorded (0.1.0 wrote none) leaves it unknown.
    project: t.project ?? null,
    file: t.file,
    fullName: t.fullName,
    line: t.line,
    state: t.state,
    durationMs: t.durationMs,
    errors:
      t.state === 'passed' && t.flaky && t.errors.length === 0
        ? [`failed ${t.retries} time${t.retries === 1 ? '' : 's'} before passing (the run record marks it flaky)`]
        : messages(t.errors),
    limitMs: t.limitMs,
    source: 'record',
    ...check,
    ...(t.quarantine !== undefined && !t.quarantine.expired ? { quarantined: true as const } : {}),
    ...(t.failedSeed === undefined ? {} : { failedSeed: t.failedSeed }),
    origin: `${input}: test "${t.fullName}"${projectTag(t.project ?? null)} ${t.state}${t.durationMs === null ? '' : ` in ${Math.round(t.durationMs)}ms`}${t.retries > 0 ? `, ${t.retries} retr${t.retries === 1 ? 'y' : 'ies'}` : ''}`,
  };
}

/** A failed file as a failure of its own: a hook error (suite), a load error, or failed with no failed test. */
function failureOfRecordFile(
  f: RunRecord['files'][number],
  record: RunRecord,
  input: string,
  check: CheckField,
): ObservedTest | null {
  const hook = messages(f.hookErrors);
  const own = messages(f.errors);
  if (
    f.state !== 'failed' ||
    (hook.length === 0 && own.length === 0 && record.tests.some((t) => t.file === f.file && t.state === 'failed'))
  )
    return null;
  return {
    kind: hook.length > 0 && own.length === 0 ? 'suite' : 'file',
    project: f.project ?? null,
    file: f.file,
    fullName: '',
    line: null,
    state: 'failed',
    durationMs: null,
    errors: [...own, ...hook],
    limitMs: null,
    source: 'record',
    ...check,
    origin: `${input}: file ${f.file} failed${hook.length > 0 ? ' (hook error)' : own.length > 0 ? ' (load error)' : ''}`,
  };
}

function excessOfViolation(v: RunRecord['violations'][number], input: string, check: CheckField): BudgetExcess {
  return {
    kind: v.kind,
    project: v.project ?? null,
    file: v.file,
    fullName: v.fullName,
    durationMs: v.durationMs,
    limitMs: v.limitMs,
    ...check,
    origin: `${input}: budget violation: ${v.kind} ${v.file}${projectTag(v.project ?? null)}${v.fullName ? ` > ${v.fullName}` : ''} ${Math.round(v.durationMs)}ms > ${Math.round(v.limitMs)}ms (limit: ${v.limitSource === 'allowance' ? `allowance ${v.allowanceId ?? '?'}` : v.kind === 'file' ? 'budget.file' : 'budget.test'}, ${v.platformKey}; applied by the reporter in the run)`,
  };
}

/** The run's exit code: 0 when quarantine excused it, else the one recorded, else what the exit reason implies. */
function exitCodeOfRecord(record: RunRecord): number | null {
  return record.verdict?.excusedByQuarantine === true
    ? 0
    : (record.exitCode ??
        record.vitestExitCode ??
        (record.exitReason === 'failed' ? 1 : record.exitReason === 'passed' ? 0 : null));
}

/** The complete test entries of a run record that was cut off or corrupted. */
export function salvageRecordTests(
  text: string,
  input: string,
): { tests: ObservedTest[]; truncated: boolean; cutAtByte: number } {
  const s = salvageJson(text);
  const raw =
    typeof s.value === 'object' && s.value !== null && Array.isArray((s.value as { tests?: unknown }).tests)
      ? (s.value as { tests: unknown[] }).tests
      : [];
  const tests: ObservedTest[] = [];
  for (const t of raw) {
    if (typeof t !== 'object' || t === null || s.partial.has(t)) continue;
    const r = t as Partial<Record<string, unknown>>;
    // A version 2 record names the full name `fullName`; 0.1.0's version 1 `name`.
    const fullName = typeof r['fullName'] === 'string' ? r['fullName'] : r['name'];
    if (typeof r['file'] !== 'string' || typeof fullName !== 'string' || typeof r['state'] !== 'string') continue;
    const state = ['passed', 'failed', 'skipped', 'pending'].includes(r['state'])
      ? (r['state'] as ObservedTest['state'])
      : 'skipped';
    const errors = Array.isArray(r['errors'])
      ? r['errors']
          .map((e) =>
            typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string'
              ? (e as { message: string }).message
              : '',
          )
          .filter((m) => m !== '')
      : [];
    tests.push({
      kind: 'test',
      project: typeof r['project'] === 'string' ? r['project'] : null,
      file: r['file'],
      fullName,
      line: typeof r['line'] === 'number' ? r['line'] : null,
      state,
      durationMs: typeof r['durationMs'] === 'number' ? r['durationMs'] : null,
      errors,
      limitMs: typeof r['limitMs'] === 'number' ? r['limitMs'] : null,
      source: 'record',
      origin: `${input} (salvaged): test "${r['name']}" ${state}`,
    });
  }
  const truncated = text.slice(s.stoppedAt).trim() === '';
  return { tests, truncated, cutAtByte: new TextEncoder().encode(text.slice(0, s.stoppedAt)).length };
}
