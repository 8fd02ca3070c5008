/**
 * The lists a budget report is made of, drawn from the checked tests and files: the entries over
 * and near their limits, the tests that passed only on retry, and the quarantined ones. Unsorted:
 * computeBudgetReport (budget-report.ts) orders them by place.
 */
import type { QuarantinedTest, RunQuarantine } from '../quarantine/run-quarantine.js';
import type { BudgetExcessEntry, CheckedFile, CheckedTest, FlakyTest, NearBudget } from './budget-entry-types.js';

/** Tests over their limit (violations) and near it, in the order checked. */
export function splitTestExcesses(tests: readonly CheckedTest[]): {
  over: BudgetExcessEntry[];
  near: NearBudget[];
} {
  const over: BudgetExcessEntry[] = [];
  const near: NearBudget[] = [];
  for (const t of tests) {
    if ((t.status !== 'over' && t.status !== 'near') || t.durationMs === null) continue;
    const entry = {
      kind: 'test' as const,
      project: t.project,
      file: t.file,
      fullName: t.fullName,
      line: t.line,
      durationMs: t.durationMs,
      limitMs: t.limitMs,
      limitSource: t.limitSource,
      platformKey: t.limitKey,
      ...(t.allowanceId === undefined ? {} : { allowanceId: t.allowanceId }),
    };
    (t.status === 'over' ? over : near).push(entry);
  }
  return { over, near };
}

/** Files over their budget and near it, in the order checked. */
export function splitFileExcesses(files: readonly CheckedFile[]): { over: BudgetExcessEntry[]; near: NearBudget[] } {
  const over: BudgetExcessEntry[] = [];
  const near: NearBudget[] = [];
  for (const f of files) {
    if ((f.status !== 'over' && f.status !== 'near') || f.durationMs === null || f.limitMs === null) continue;
    const entry = {
      kind: 'file' as const,
      project: f.project,
      file: f.file,
      fullName: null,
      line: null,
      durationMs: f.durationMs,
      limitMs: f.limitMs,
      limitSource: 'budget' as const,
      platformKey: f.limitKey ?? 'all',
    };
    (f.status === 'over' ? over : near).push(entry);
  }
  return { over, near };
}

/** Tests that passed after failing (marked flaky, or retried with errors). */
export function listFlakyTests(tests: readonly CheckedTest[]): FlakyTest[] {
  return tests
    .filter((t) => t.state === 'passed' && (t.flaky || (t.retries > 0 && t.errors.length > 0)))
    .map((t) => ({
      project: t.project,
      file: t.file,
      fullName: t.fullName,
      line: t.line,
      retries: t.retries,
      firstError: t.errors[0] ?? null,
    }));
}

/** Quarantined tests that ran (passed or failed). */
export function listQuarantinedTests(tests: readonly CheckedTest[]): QuarantinedTest[] {
  return tests
    .filter((t) => t.quarantine !== undefined && (t.state === 'passed' || t.state === 'failed'))
    .map((t) => ({
      project: t.project,
      file: t.file,
      fullName: t.fullName,
      line: t.line,
      state: t.state,
      quarantine: t.quarantine as RunQuarantine,
      firstError: t.errors[0] ?? null,
    }));
}
