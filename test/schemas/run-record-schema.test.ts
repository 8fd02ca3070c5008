/** The run record the reporter builds validates against schemas/run-record.schema.json (issue 47). */
import { describe, expect, it } from 'vitest';
import { computeBudgetReport } from '../../src/core/budget/budget-report.js';
import { buildRunRecord } from '../../src/core/budget/run-record-build.js';
import { readCiContext } from '../../src/core/record/ci-context.js';
import { makeConfig, makeFile, makeInput, makeTest } from '../core/budget/budget-factories.js';
import { SAMPLE_FACTS } from '../core/record/record-factories.js';
import { schemaErrors } from '../helpers/schema-check.js';

const GITHUB = {
  GITHUB_ACTIONS: 'true',
  GITHUB_WORKFLOW: 'CI',
  GITHUB_JOB: 'test',
  GITHUB_RUN_ID: '42',
  GITHUB_RUN_ATTEMPT: '2',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'org/app',
  GITHUB_REF_NAME: 'main',
  GITHUB_SHA: 'a'.repeat(40),
  RUNNER_OS: 'Linux',
};

function richRecord() {
  const report = computeBudgetReport(
    makeInput({
      config: makeConfig({ file: { kind: 'single', value: 60_000 }, test: { kind: 'single', value: 5000 } }),
      tests: [
        makeTest({ durationMs: 5310.456 }),
        makeTest({ fullName: 'quick', durationMs: 3, project: 'unit' }),
        makeTest({ fullName: 'breaks', state: 'failed', errors: [{ message: 'expected 1', frame: 'a.ts:1:2' }] }),
        makeTest({ fullName: 'retried', retries: 1, flaky: true, durationMs: 12 }),
        makeTest({ fullName: 'skipped', state: 'skipped', durationMs: null, line: null, column: null }),
      ],
      files: [makeFile(), makeFile({ file: 'test/b.test.ts', state: 'failed', durationMs: null })],
      unhandledErrors: [{ message: 'boom', type: 'Unhandled Rejection', file: 'test/b.test.ts', fullName: null }],
      notices: [{ level: 'warning', message: 'allowance a1b2 matches no test' }],
      reason: 'failed',
    }),
  );
  return buildRunRecord(
    report,
    { ...SAMPLE_FACTS, ci: readCiContext(GITHUB, { index: 1, count: 2 }), shard: { index: 1, count: 2 } },
    makeConfig(),
  );
}

describe('run record schema', () => {
  it('validates a record with failures, a violation, a CI context, a machine and notices', () => {
    const record = richRecord();
    expect(record.violations.length).toBeGreaterThan(0);
    expect(record.ci).not.toBeNull();
    expect(schemaErrors('run-record', record)).toEqual([]);
  });

  it('validates the plain record outside CI, and names its format', () => {
    const record = buildRunRecord(computeBudgetReport(makeInput({ tests: [makeTest()] })), SAMPLE_FACTS, makeConfig());
    expect(record).toMatchObject({ format: 'flakeguard-run-record', version: 2 });
    expect(schemaErrors('run-record', record)).toEqual([]);
  });

  it('refuses a field the schema does not name, a missing one and a wrong enum value', () => {
    const record = richRecord();
    expect(schemaErrors('run-record', { ...record, extra: 1 })).not.toEqual([]);
    const { runId: _runId, ...noRunId } = record;
    expect(schemaErrors('run-record', noRunId)).not.toEqual([]);
    expect(schemaErrors('run-record', { ...record, exitReason: 'crashed' })).not.toEqual([]);
  });
});
