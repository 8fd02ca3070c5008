/**
 * The tests and files a budget report is computed from (as the reporter observed them) and what
 * it says of each (checked against its limit), plus the report's near-budget and flaky entries.
 */
import type { RunQuarantine } from '../quarantine/run-quarantine.js';
import type { BudgetViolation, FileState, LimitSource, RecordedError, TestState } from '../record/run-record.js';
import type { BudgetStatus, LimitKey } from './budget.js';

export interface ObservedTest {
  /** Relative to the project root, with `/`. */
  readonly file: string;
  /** Full name joined with ' > '. */
  readonly name: string;
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

/** A test or file at or above warnAt of its limit (same fields as a violation). */
export interface NearBudget extends BudgetViolation {
  readonly platformKey: LimitKey;
}

export interface FlakyTest {
  readonly file: string;
  readonly name: string;
  readonly line: number | null;
  readonly retries: number;
  readonly firstError: RecordedError | null;
}
