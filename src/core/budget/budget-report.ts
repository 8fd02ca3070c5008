/**
 * computeBudgetReport: every finished test and file of a run checked against its limit, plus the
 * flaky tests, the failures and why the run is red. Pure: the reporter gathers the inputs.
 */
import type { Config } from '../config.js';
import type { OwnersOf } from '../owners/codeowners.js';
import { isQuarantineActive, type QuarantinedTest, type RunQuarantine } from '../quarantine/run-quarantine.js';
import type {
  BudgetViolation,
  ExitReason,
  FileState,
  LimitSource,
  RecordedError,
  RecordedNotice,
  RecordedUnhandledError,
  TestState,
} from '../record/run-record.js';
import { computeRunVerdict, type RunVerdict } from '../record/run-verdict.js';
import { testKey } from '../test-id.js';
import {
  type BudgetStatus,
  classifyDuration,
  type LimitKey,
  type RunAllowance,
  resolveFileLimit,
  resolveTestLimit,
} from './budget.js';

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

export interface BudgetReportInput {
  readonly config: Pick<Config, 'budget'>;
  readonly platform: string;
  readonly tests: readonly ObservedTest[];
  readonly files: readonly ObservedFile[];
  readonly unhandledErrors: readonly RecordedUnhandledError[];
  /** Allowance per test key (see testKey), from the allowance engine. */
  readonly allowances: ReadonlyMap<string, RunAllowance>;
  readonly notices: readonly RecordedNotice[];
  /** Quarantine entry per test key (see testKey), applying or expired; absent: none. */
  readonly quarantine?: ReadonlyMap<string, RunQuarantine>;
  readonly reason: ExitReason;
  /** process.exitCode when the run ended, before flakeguard touched it. */
  readonly vitestExitCode: number | null;
  /** The owners of a test file from CODEOWNERS; absent: no owners. */
  readonly ownersOf?: OwnersOf;
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

export interface BudgetReport {
  readonly platform: string;
  readonly warnAt: number;
  readonly tests: readonly CheckedTest[];
  readonly files: readonly CheckedFile[];
  readonly violations: readonly (BudgetViolation & { readonly allowanceId?: string })[];
  readonly near: readonly NearBudget[];
  readonly flaky: readonly FlakyTest[];
  /** Failed tests that fail the run (a failure under an applying quarantine is not one). */
  readonly failing: readonly CheckedTest[];
  /** Every test under a quarantine entry that ran, applying or expired. */
  readonly quarantined: readonly QuarantinedTest[];
  readonly unhandledErrors: readonly RecordedUnhandledError[];
  readonly notices: readonly RecordedNotice[];
  readonly verdict: RunVerdict;
  /** CODEOWNERS owners of each test file the report names (failed, flaky, over or near budget, quarantined). */
  readonly owners?: ReadonlyMap<string, readonly string[]>;
}

function checkTest(test: ObservedTest, input: BudgetReportInput): CheckedTest {
  const key = testKey(test.file, test.name);
  const limit = resolveTestLimit({
    config: input.config,
    platform: input.platform,
    allowance: input.allowances.get(key),
  });
  const quarantine = input.quarantine?.get(key);
  // Only a passed test can be over budget: a failed one is already red, a skipped one did not run.
  const status =
    test.state === 'passed'
      ? classifyDuration(test.durationMs, limit.limitMs, input.config.budget.warnAt)
      : 'unchecked';
  return {
    ...test,
    key,
    limitMs: limit.limitMs,
    limitSource: limit.source,
    limitKey: limit.platformKey,
    ...(limit.allowanceId === undefined ? {} : { allowanceId: limit.allowanceId }),
    status,
    ...(quarantine === undefined ? {} : { quarantine }),
  };
}

function checkFile(file: ObservedFile, input: BudgetReportInput): CheckedFile {
  const limit = resolveFileLimit(input.config, input.platform);
  const ran = file.state === 'passed' || file.state === 'failed';
  const status =
    ran && limit ? classifyDuration(file.durationMs, limit.limitMs, input.config.budget.warnAt) : 'unchecked';
  return { ...file, limitMs: limit?.limitMs ?? null, limitKey: limit?.platformKey ?? null, status };
}

export const byPlace = <
  T extends { readonly file: string; readonly line: number | null; readonly name: string | null },
>(
  a: T,
  b: T,
): number =>
  a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.name ?? '').localeCompare(b.name ?? '');

export function computeBudgetReport(input: BudgetReportInput): BudgetReport {
  const tests = input.tests.map((t) => checkTest(t, input));
  const files = input.files.map((f) => checkFile(f, input));
  const violations: (BudgetViolation & { allowanceId?: string })[] = [];
  const near: NearBudget[] = [];
  for (const t of tests) {
    if ((t.status !== 'over' && t.status !== 'near') || t.durationMs === null) continue;
    const entry = {
      kind: 'test' as const,
      file: t.file,
      name: t.name,
      line: t.line,
      durationMs: t.durationMs,
      limitMs: t.limitMs,
      limitSource: t.limitSource,
      platformKey: t.limitKey,
      ...(t.allowanceId === undefined ? {} : { allowanceId: t.allowanceId }),
    };
    (t.status === 'over' ? violations : near).push(entry);
  }
  const fileViolations: BudgetViolation[] = [];
  const fileNear: NearBudget[] = [];
  for (const f of files) {
    if ((f.status !== 'over' && f.status !== 'near') || f.durationMs === null || f.limitMs === null) continue;
    const entry = {
      kind: 'file' as const,
      file: f.file,
      name: null,
      line: null,
      durationMs: f.durationMs,
      limitMs: f.limitMs,
      limitSource: 'budget' as const,
      platformKey: f.limitKey ?? 'all',
    };
    (f.status === 'over' ? fileViolations : fileNear).push(entry);
  }
  violations.sort(byPlace);
  near.sort(byPlace);
  const flaky: FlakyTest[] = tests
    .filter((t) => t.state === 'passed' && (t.flaky || (t.retries > 0 && t.errors.length > 0)))
    .map((t) => ({ file: t.file, name: t.name, line: t.line, retries: t.retries, firstError: t.errors[0] ?? null }))
    .sort(byPlace);
  const failed = tests.filter((t) => t.state === 'failed').sort(byPlace);
  const failing = failed.filter((t) => !isQuarantineActive(t.quarantine));
  const quarantined: QuarantinedTest[] = tests
    .filter((t) => t.quarantine !== undefined && (t.state === 'passed' || t.state === 'failed'))
    .map((t) => ({
      file: t.file,
      name: t.name,
      line: t.line,
      state: t.state,
      quarantine: t.quarantine as RunQuarantine,
      firstError: t.errors[0] ?? null,
    }))
    .sort(byPlace);
  const allViolations = [...violations, ...fileViolations.sort(byPlace)];
  const verdict = computeRunVerdict({
    failing: failing.length,
    quarantinedFailing: failed.length - failing.length,
    testViolations: violations.length,
    fileViolations: fileViolations.length,
    files,
    unhandledErrors: input.unhandledErrors,
    notices: input.notices,
    reason: input.reason,
    vitestExitCode: input.vitestExitCode,
  });
  const named = [...allViolations, ...near, ...fileNear, ...flaky, ...failed, ...quarantined].map((t) => t.file);
  const ownersOf = input.ownersOf;
  return {
    ...(ownersOf ? { owners: new Map(named.map((file) => [file, ownersOf(file)])) } : {}),
    platform: input.platform,
    warnAt: input.config.budget.warnAt,
    tests,
    files,
    violations: allViolations,
    near: [...near, ...fileNear.sort(byPlace)],
    flaky,
    failing,
    quarantined,
    unhandledErrors: input.unhandledErrors,
    notices: input.notices,
    verdict,
  };
}
