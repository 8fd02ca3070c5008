/**
 * The tests and files a budget report is computed from (as the reporter observed them) and what
 * it says of each (checked against its limit), plus the report's near-budget and flaky entries.
 */
import type { RunQuarantine } from '../quarantine/run-quarantine.js';
import type { BudgetViolation, FileState, LimitSource, RecordedError, TestState } from '../record/run-record.js';
import type { TestId } from '../test-id.js';
import type { BudgetStatus, LimitKey } from './budget.js';

/** A test as the reporter observed it: its identity (project '' when unnamed) and its result. */
export interface ObservedTest extends TestId {
  readonly project: string;
  readonly line: number | null;
  readonly column: number | null;
  readonly state: TestState;
  readonly durationMs: number | null;
  readonly retries: number;
  readonly flaky: boolean;
  readonly errors: readonly RecordedError[];
  /** Each attempt's duration and outcome, where Vitest reports them (5.x `TestCase.attempts()`). */
  readonly attempts?: readonly { readonly durationMs: number; readonly state: 'passed' | 'failed' }[];
  /**
   * The seed each attempt started with and the first failed one's (`seed: true` and the
   * flakeguard/seed setup file; core/replay/ci-seed.ts TestSeeds); absent: not seeded.
   */
  readonly seeds?: {
    readonly runSeed: number;
    readonly seeds: readonly number[];
    readonly failedSeed: number | null;
  };
}

export interface ObservedFile {
  readonly file: string;
  readonly project: string;
  readonly state: FileState;
  readonly durationMs: number | null;
  /** Collection or import errors. */
  readonly errors: readonly RecordedError[];
  /** beforeAll/afterAll errors of the file's suites. */
  readonly hookErrors: readonly RecordedError[];
}

export interface CheckedTest extends ObservedTest {
  readonly key: string;
  readonly limitMs: number;
  readonly limitSource: LimitSource;
  readonly limitKey: LimitKey;
  readonly allowanceId?: string;
  readonly status: BudgetStatus;
  readonly quarantine?: RunQuarantine;
}

export interface CheckedFile extends ObservedFile {
  readonly limitMs: number | null;
  readonly limitKey: LimitKey | null;
  readonly status: BudgetStatus;
}

/**
 * A test or file over its limit (a violation) or at or above warnAt of it (near): the run record's
 * BudgetViolation (`fullName` null for a file).
 */
export interface BudgetExcessEntry extends BudgetViolation {
  readonly allowanceId?: string;
}

/** A test or file at or above warnAt of its limit (same fields as a violation). */
export interface NearBudget extends BudgetExcessEntry {
  readonly platformKey: LimitKey;
}

export interface FlakyTest extends TestId {
  readonly line: number | null;
  readonly retries: number;
  readonly firstError: RecordedError | null;
}
