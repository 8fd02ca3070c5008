/**
 * What flakeguard's runner and the process that drives Vitest share: the plan (which tests to repeat
 * and how often) and the record of each try, kept in the test's meta.
 */
export const PLAN_ENV = 'FLAKEGUARD_RUNNER_PLAN';
export const TRIES_META_KEY = 'flakeguardTries';

export interface PlannedTest {
  /** Absolute path of the test file. */
  readonly file: string;
  /** Titles joined with ' > ', without the file. */
  readonly fullName: string;
}

export interface RunnerPlan {
  /** Times each planned test runs (1 = once, as Vitest would). */
  readonly runs: number;
  readonly tests: readonly PlannedTest[];
  /** File to append one JSON line per finished try to (progress), or null. */
  readonly progressFile: string | null;
}

export type TryState = 'passed' | 'failed' | 'skipped';

export interface TryRecord {
  readonly state: TryState;
  /** From before beforeEach to after afterEach (hooks included), measured in the test worker. */
  readonly durationMs: number;
  /** CPU time the test worker process got during the try (process.cpuUsage, user + system). */
  readonly cpuMs: number;
  /** First line of the first error this try added, when it failed. */
  readonly error?: string;
}

export interface ProgressLine {
  readonly file: string;
  readonly fullName: string;
  readonly attempt: number;
  readonly runs: number;
  readonly state: TryState;
  readonly durationMs: number;
}

