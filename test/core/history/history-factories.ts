/** Run records for history tests: a few tests per run, every field a real record has. */
import type { RecordedTest, RunRecord } from '../../../src/core/record/run-record.js';

export interface TestSpec {
  readonly file?: string;
  readonly name: string;
  readonly state?: RecordedTest['state'];
  readonly durationMs?: number | null;
  readonly flaky?: boolean;
  readonly limitMs?: number;
  readonly project?: string;
  readonly error?: string;
}

export function makeRecordTest(spec: TestSpec): RecordedTest {
  const file = spec.file ?? 'test/a.test.ts';
  const state = spec.state ?? 'passed';
  const flaky = spec.flaky ?? false;
  const error = spec.error ?? (state === 'failed' || flaky ? `expected true to be false (${spec.name})` : undefined);
  return {
    key: `${file}::${spec.name}`,
    file,
    name: spec.name,
    line: null,
    state,
    durationMs: spec.durationMs === undefined ? 100 : spec.durationMs,
    retries: flaky ? 1 : 0,
    flaky,
    errors: error === undefined ? [] : [{ message: error, frame: null }],
    limitMs: spec.limitMs ?? 5000,
    limitSource: 'budget',
    ...(spec.project === undefined ? {} : { project: spec.project }),
  };
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
  const tests = spec.tests.map(makeRecordTest);
  const red = tests.some((t) => t.state === 'failed');
  return {
    version: 1,
    runId: spec.runId,
    startedAt: spec.startedAt,
    endedAt: new Date(Date.parse(spec.startedAt) + 1000).toISOString(),
    root: '/project',
    platform: spec.platform ?? 'linux',
    arch: 'x64',
    cpus: 2,
    loadavgStart: [0, 0, 0],
    loadavgEnd: [0, 0, 0],
    nodeVersion: 'v20.20.2',
    vitestVersion: '4.1.12',
    git: { commit: spec.commit === undefined ? 'c0ffee' : spec.commit, dirty: false },
    shard: null,
    merged: spec.merged ?? false,
    exitReason: red ? 'failed' : 'passed',
    exitCode: red ? 1 : null,
    unhandledErrors: [],
    budget: { testMs: 5000, fileMs: null, warnAt: 0.8 },
    violations: [],
    tests,
    files: [],
  };
}

const DAY_MS = 86_400_000;

/** `count` daily runs ending at `endMs`: `durationAt(i)` for a test "tracker > reloads" and a steady one. */
export function dailyRuns(count: number, endMs: number, durationAt: (i: number) => number, prefix = 'run'): RunRecord[] {
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
