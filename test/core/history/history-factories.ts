/** Run records for history tests, built the way the reporter builds them (the shared record factory). */
import { computeBudgetReport } from '../../../src/core/budget/budget-report.js';
import { buildRunRecord } from '../../../src/core/budget/run-record-build.js';
import type { RunRecord, TestState } from '../../../src/core/record/run-record.js';
import { makeConfig, makeInput, makeTest } from '../budget/budget-factories.js';
import { SAMPLE_FACTS } from '../record/record-factories.js';

interface TestSpec {
  readonly file?: string;
  readonly name: string;
  readonly state?: TestState;
  readonly durationMs?: number | null;
  readonly flaky?: boolean;
  readonly project?: string;
  readonly error?: string;
}

export interface RecordSpec {
  readonly runId: string;
  readonly startedAt: string;
  readonly platform?: string;
  readonly commit?: string | null;
  readonly merged?: boolean;
  readonly tests: readonly TestSpec[];
}

export function makeRecord(spec: RecordSpec): RunRecord {
  const tests = spec.tests.map((t) => {
    const state = t.state ?? 'passed';
    const flaky = t.flaky ?? false;
    const error = t.error ?? (state === 'failed' || flaky ? `expected true to be false (${t.name})` : undefined);
    return makeTest({
      file: t.file ?? 'test/a.test.ts',
      fullName: t.name,
      project: t.project ?? '',
      line: null,
      column: null,
      state,
      durationMs: t.durationMs === undefined ? 100 : t.durationMs,
      retries: flaky ? 1 : 0,
      flaky,
      errors: error === undefined ? [] : [{ message: error, frame: null }],
    });
  });
  const red = tests.some((t) => t.state === 'failed');
  const platform = spec.platform ?? 'linux';
  const report = computeBudgetReport(makeInput({ tests, platform, reason: red ? 'failed' : 'passed' }));
  return buildRunRecord(
    report,
    {
      ...SAMPLE_FACTS,
      runId: spec.runId,
      startedAt: spec.startedAt,
      endedAt: new Date(Date.parse(spec.startedAt) + 1000).toISOString(),
      platform,
      git: { commit: spec.commit === undefined ? 'c0ffee' : spec.commit, dirty: false },
      merged: spec.merged ?? false,
      exitReason: red ? 'failed' : 'passed',
    },
    makeConfig(),
  );
}

const DAY_MS = 86_400_000;

/** `count` daily runs ending at `endMs`: `durationAt(i)` for a test "tracker > reloads" and a steady one. */
export function dailyRuns(
  count: number,
  endMs: number,
  durationAt: (i: number) => number,
  prefix = 'run',
): RunRecord[] {
  return Array.from({ length: count }, (_, i) =>
    makeRecord({
      runId: `${prefix}-${String(i).padStart(4, '0')}`,
      startedAt: new Date(endMs - (count - 1 - i) * DAY_MS).toISOString(),
      commit: `commit-${i}`,
      tests: [
        { file: 'test/tracker.test.ts', name: 'tracker > reloads', durationMs: durationAt(i) },
        { file: 'test/steady.test.ts', name: 'steady > adds', durationMs: 50 },
      ],
    }),
  );
}
