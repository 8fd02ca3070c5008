/**
 * Reads the run records given to triage into the tally: a whole record gives its observations; a
 * cut or corrupt one keeps its complete test entries and becomes an input problem; a missing one
 * is a problem that only a log can excuse.
 */
import { readFileSync, statSync } from 'node:fs';
import { isFlakeguardError } from '../../core/errors.js';
import { readRecordObservations, salvageRecordTests } from '../../core/triage/triage-record.js';
import { readRunRecord } from '../record/run-record-file.js';
import { displayInputPath as display, type InputTally } from './input-tally.js';
import { badInput, checkInputPath, describeJson } from './triage-input-check.js';

export function readRecordInputs(records: readonly string[], tally: InputTally): void {
  for (const file of records) {
    if (checkInputPath('record', file, display(file)) === 'missing') {
      tally.problems.push({
        input: display(file),
        kind: 'missing-report',
        cutAtByte: null,
        salvaged: 0,
        detail: `${display(file)} does not exist`,
      });
      continue;
    }
    try {
      readWholeRecord(file, tally);
    } catch (error) {
      if (!isFlakeguardError(error)) throw error;
      salvageCutRecord(file, error.message, tally);
    }
  }
}

function readWholeRecord(file: string, tally: InputTally): void {
  const record = readRunRecord(file, display(file));
  tally.runIds.push(record.runId);
  const obs = readRecordObservations(record, display(file));
  tally.tests.push(...obs.tests);
  tally.files.push(...obs.files);
  tally.unhandled.push(...obs.unhandled);
  tally.recordExcesses.push(...obs.excesses);
  if (obs.interrupted !== null) tally.interrupted.push(obs.interrupted);
  if (obs.exitCode !== null) tally.recordExit = Math.max(tally.recordExit ?? 0, obs.exitCode);
  tally.recordsRead += 1;
  tally.readable += 1;
}

function salvageCutRecord(file: string, message: string, tally: InputTally): void {
  const text = readFileSync(file, 'utf8');
  // Whole JSON that is not a record (a package.json, a Vitest report) is the wrong file, not a cut record.
  const whole = parseWhole(text);
  if (whole.ok)
    throw badInput('record', display(file), `is JSON but not a run record (${describeJson(whole.value)}): ${message}`);
  // A cut record: keep its complete test entries, and report where it was cut.
  const salvaged = salvageRecordTests(text, display(file));
  if (salvaged.tests.length === 0 && !text.trimStart().startsWith('{'))
    throw badInput('record', display(file), `is not a run record (${message})`);
  tally.tests.push(...salvaged.tests);
  if (salvaged.tests.length > 0) tally.readable += 1;
  else tally.unreadable.push(message);
  tally.problems.push({
    input: display(file),
    kind: salvaged.truncated ? 'truncated' : 'corrupt',
    cutAtByte: salvaged.truncated ? statSync(file).size : salvaged.cutAtByte,
    salvaged: salvaged.tests.length,
    detail: `${message}; ${salvaged.tests.length} complete test entries salvaged`,
  });
}

function parseWhole(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
