import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isFlakeguardError } from '../../../src/core/errors.js';
import type { RunRecord } from '../../../src/core/record/run-record.js';
import { isRunRecordText } from '../../../src/core/record/run-record-parse.js';
import {
  listRunRecords,
  newestRunRecords,
  readRunRecord,
  skippedFilesNotice,
  splitRunRecords,
  writeRunRecord,
} from '../../../src/io/record/run-record-file.js';
import { makeRecord } from '../../core/record/record-factories.js';

const sampleRecord = (): RunRecord => makeRecord();

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(isFlakeguardError(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected an error');
}

describe('run-record files', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-records-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes a record and reads it back unchanged', () => {
    const record = sampleRecord();
    const file = writeRunRecord(root, '.flakeguard/runs', record);
    expect(file).toBe(path.join(root, '.flakeguard/runs/20261130T155545123Z-abc123.json'));
    expect(readRunRecord(file)).toEqual(record);
    expect(record.tests[0]).toMatchObject({
      key: 'test/hub/tracker.test.ts::tracker > reloads journal',
      durationMs: 5310.46,
      limitMs: 5000,
      limitSource: 'budget',
      budgetStatus: 'over',
    });
    expect(record.verdict).toEqual({
      red: true,
      failedByFlakeguard: true,
      causes: ['budget'],
      summary: 'flakeguard: run failed on duration budgets: 1 test over budget (no test failed)',
    });
  });

  it('lists records oldest first and skips temp files', () => {
    const older = { ...sampleRecord(), runId: '20261130T100000000Z-aaaaaa' };
    const newer = { ...sampleRecord(), runId: '20261130T120000000Z-bbbbbb-shard-1-of-2' };
    writeRunRecord(root, 'runs', newer);
    writeRunRecord(root, 'runs', older);
    writeFileSync(path.join(root, 'runs', '.x.json.123.tmp'), '{');
    expect(listRunRecords(root, 'runs').map((f) => path.basename(f))).toEqual([
      `${older.runId}.json`,
      `${newer.runId}.json`,
    ]);
    expect(listRunRecords(root, 'missing')).toEqual([]);
  });

  it('says a cut-off file is cut off', () => {
    const file = path.join(root, 'cut.json');
    const text = JSON.stringify(sampleRecord());
    writeFileSync(file, text.slice(0, 200));
    expect(errorOf(() => readRunRecord(file, 'runs/cut.json'))).toBe(
      'runs/cut.json: run record is cut off after 200 characters (not complete JSON); delete it or re-run the tests to write a new one',
    );
    writeFileSync(file, '');
    expect(errorOf(() => readRunRecord(file, 'runs/cut.json'))).toContain('run record is empty');
  });

  it('rejects another version and names the ones it reads', () => {
    const file = path.join(root, 'v3.json');
    writeFileSync(file, JSON.stringify({ ...sampleRecord(), version: 3 }));
    expect(errorOf(() => readRunRecord(file, 'v3.json'))).toContain(
      'v3.json: run record version 3 is not a version this flakeguard reads (1 or 2;',
    );
    writeFileSync(file, JSON.stringify({ tests: [] }));
    expect(errorOf(() => readRunRecord(file, 'v3.json'))).toContain('has no "version" field');
  });

  it("reads a version 1 record (0.1.0's field names) as version 2: every full name is fullName", () => {
    const file = path.join(root, 'v1.json');
    const v2 = sampleRecord();
    const toV1 = (o: object, to: string): object =>
      Object.fromEntries(Object.entries(o).map(([k, v]) => [k === 'fullName' ? to : k, v]));
    const v1 = {
      ...v2,
      version: 1,
      tests: v2.tests.map((t) => toV1(t, 'name')),
      violations: v2.violations.map((v) => toV1(v, 'name')),
      unhandledErrors: [{ message: 'late', type: 'Unhandled Rejection', file: 'a.test.ts', test: 't' }],
    };
    writeFileSync(file, JSON.stringify(v1));
    const read = readRunRecord(file, 'v1.json');
    expect(read.version).toBe(2);
    expect(read.tests).toEqual(v2.tests);
    expect(read.violations).toEqual(v2.violations);
    expect(read.unhandledErrors).toEqual([
      { message: 'late', type: 'Unhandled Rejection', file: 'a.test.ts', fullName: 't' },
    ]);
  });

  it('names a field of the wrong type with its path', () => {
    const record = sampleRecord();
    const file = path.join(root, 'bad.json');
    writeFileSync(file, JSON.stringify({ ...record, tests: [{ ...record.tests[0], durationMs: 'slow' }] }));
    expect(errorOf(() => readRunRecord(file, 'bad.json'))).toBe(
      'bad.json: run record field tests[0].durationMs must be a number or null, found "slow"; delete it or re-run the tests to write a new one',
    );
  });

  it('reports a missing file with its code', () => {
    expect(errorOf(() => readRunRecord(path.join(root, 'nope.json'), 'nope.json'))).toBe(
      'nope.json does not exist; check the path',
    );
  });
});

describe('files beside the records that are not run records', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-split-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("a record, whole or cut off, is a record; a cache, another tool's JSON or text is not", () => {
    const whole = JSON.stringify(makeRecord());
    expect(isRunRecordText(whole)).toBe(true);
    expect(isRunRecordText(whole.slice(0, 120))).toBe(true);
    expect(isRunRecordText(JSON.stringify(makeRecord(), null, 2))).toBe(true);
    expect(isRunRecordText('{"version":1,"entries":{}}')).toBe(false);
    expect(isRunRecordText('{"name":"fixture","private":true}')).toBe(false);
    expect(isRunRecordText('[1,2]')).toBe(false);
    expect(isRunRecordText('')).toBe(false);
  });

  it('the newest records skip the other files, and the one notice names them without advice to delete', () => {
    writeRunRecord(dir, '.', { ...makeRecord(), runId: '20260101T000000000Z-aaaaaa' });
    writeFileSync(path.join(dir, 'allowance-lineage.json'), '{"version":1,"entries":{}}\n');
    const newest = newestRunRecords(dir, '.', 1);
    expect(newest.records.map((f) => path.basename(f))).toEqual(['20260101T000000000Z-aaaaaa.json']);
    expect(newest.skipped.map((f) => path.basename(f))).toEqual(['allowance-lineage.json']);
    const notice = skippedFilesNotice(newest.skipped, (f) => path.basename(f));
    expect(notice).toBe('flakeguard: skipped 1 file that is not a run record: allowance-lineage.json');
    expect(skippedFilesNotice([])).toBeNull();
    expect(splitRunRecords(listRunRecords(dir, '.')).skipped).toHaveLength(1);
    expect(errorOf(() => readRunRecord(path.join(dir, 'allowance-lineage.json'), 'cache.json'))).not.toMatch(/delete/);
  });
});
