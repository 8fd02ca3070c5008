/** A run record's seeds (replays from CI, issue 46 item 4): written, read back, checked by the schema. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeBudgetReport } from '../../../src/core/budget/budget-report.js';
import { buildRunRecord } from '../../../src/core/budget/run-record-build.js';
import { parseRunRecord } from '../../../src/core/record/run-record-parse.js';
import { MAX_SEED } from '../../../src/core/replay/seeded-random.js';
import { schemaErrors } from '../../helpers/schema-check.js';
import { makeConfig, makeFile, makeInput, makeTest } from '../budget/budget-factories.js';
import { makeRecord, SAMPLE_FACTS } from './record-factories.js';

const seed = fc.integer({ min: 0, max: MAX_SEED });

function seededRecord(runSeed: number | null, seeds: readonly number[], failedSeed: number | null) {
  const tests = [
    makeTest({
      state: failedSeed === null ? 'passed' : 'failed',
      errors: failedSeed === null ? [] : [{ message: 'the coin came up tails', frame: null }],
      seeds: { runSeed: runSeed ?? 0, seeds, failedSeed },
    }),
    makeTest({ fullName: 'unseeded' }),
  ];
  const report = computeBudgetReport(makeInput({ tests, files: [makeFile()] }));
  return buildRunRecord(report, { ...SAMPLE_FACTS, runSeed }, makeConfig());
}

describe('run record seeds', () => {
  it('a test keeps each attempt’s seed and the failed one; the record its run seed; they read back', () => {
    fc.assert(
      fc.property(
        fc.option(seed, { nil: null }),
        fc.array(seed, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (runSeed, seeds, failed) => {
          const failedSeed = failed ? (seeds[0] ?? null) : null;
          const record = seededRecord(runSeed, seeds, failedSeed);
          const read = parseRunRecord(JSON.stringify(record), 'r.json');
          expect(read.runSeed).toBe(runSeed);
          expect(read.tests[0]?.seeds).toEqual(seeds);
          expect(read.tests[0]?.failedSeed).toBe(failedSeed ?? undefined);
          expect(read.tests[1]).not.toHaveProperty('seeds');
          expect(read.tests[1]).not.toHaveProperty('failedSeed');
          expect(schemaErrors('run-record', record)).toEqual([]);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('a record without seeds (written before them, or with seed off) still reads, and validates', () => {
    const record = makeRecord();
    expect(record).not.toHaveProperty('runSeed');
    const read = parseRunRecord(JSON.stringify(record), 'r.json');
    expect(read.runSeed).toBeUndefined();
    expect(read.tests.every((t) => t.seeds === undefined && t.failedSeed === undefined)).toBe(true);
    expect(schemaErrors('run-record', record)).toEqual([]);
  });

  it('a seed that is not one names the field and the fix', () => {
    const record = seededRecord(5, [1, 2], 1);
    const bad = { ...record, tests: [{ ...record.tests[0], failedSeed: -3 }] };
    expect(() => parseRunRecord(JSON.stringify(bad), 'r.json')).toThrow(
      'r.json: run record field tests[0].failedSeed must be a seed (a whole number from 0 to 4294967295), found -3; delete it or re-run the tests to write a new one',
    );
    expect(() => parseRunRecord(JSON.stringify({ ...record, runSeed: 'x' }), 'r.json')).toThrow(
      'run record field runSeed must be null or a seed',
    );
    expect(schemaErrors('run-record', bad)).not.toEqual([]);
  });
});
