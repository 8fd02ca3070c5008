/**
 * computeBudgetReport: every finished test and file of a run checked against its limit, plus the
 * flaky tests, the failures and why the run is red. Pure: the reporter gathers the inputs.
 */

import { allowanceKey } from '../allowances/allowance-match.js';
import type { OwnersOf } from '../owners/codeowners.js';
import { isQuarantineActive, type QuarantinedTest, type RunQuarantine } from '../quarantine/run-quarantine.js';
import type { ExitReason, RecordedNotice, RecordedUnhandledError } from '../record/run-record.js';
import { computeRunVerdict, type RunVerdict } from '../record/run-verdict.js';
import { testKey } from '../test-id.js';
import { classifyDuration, type RunAllowance, resolveFileLimit, resolveTestLimit } from './budget.js';
import type { BudgetConfig } from './budget-config.js';
import type {
  BudgetExcessEntry,
  CheckedFile,
  CheckedTest,
  FlakyTest,
  NearBudget,
  ObservedFile,
  ObservedTest,
} from './budget-entry-types.js';
import { listFlakyTests, listQuarantinedTests, splitFileExcesses, splitTestExcesses } from './budget-excesses.js';

/** The entry types, where their importers have always found them. */
export type * from './budget-entry-types.js';

export interface BudgetReportInput {
  readonly config: { readonly budget: BudgetConfig };
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

export interface BudgetReport {
  readonly platform: string;
  readonly warnAt: number;
  readonly tests: readonly CheckedTest[];
  readonly files: readonly CheckedFile[];
  readonly violations: readonly BudgetExcessEntry[];
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
  const key = testKey(test);
  // An allowance and its quarantine name no project: they apply in every project.
  const allowed = allowanceKey(test);
  const limit = resolveTestLimit({
    config: input.config,
    platform: input.platform,
    allowance: input.allowances.get(allowed),
  });
  const quarantine = input.quarantine?.get(allowed);
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
  T extends { readonly file: string; readonly line: number | null; readonly fullName: string | null },
>(
  a: T,
  b: T,
): number =>
  a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.fullName ?? '').localeCompare(b.fullName ?? '');

export function computeBudgetReport(input: BudgetReportInput): BudgetReport {
  const tests = input.tests.map((t) => checkTest(t, input));
  const files = input.files.map((f) => checkFile(f, input));
  const { over: violations, near } = splitTestExcesses(tests);
  const { over: fileViolations, near: fileNear } = splitFileExcesses(files);
  violations.sort(byPlace);
  near.sort(byPlace);
  const flaky: FlakyTest[] = listFlakyTests(tests).sort(byPlace);
  const failed = tests.filter((t) => t.state === 'failed').sort(byPlace);
  const failing = failed.filter((t) => !isQuarantineActive(t.quarantine));
  const quarantined: QuarantinedTest[] = listQuarantinedTests(tests).sort(byPlace);
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
