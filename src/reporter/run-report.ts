/**
 * The budget report at the end of a run: the tests Vitest ran, their allowances, quarantines and
 * owners, checked against their limits (core/budget/budget-report.ts); then lines found for the
 * tests it names that Vitest gave none, and the recent failures of quarantined tests.
 */
import type { TestModule } from 'vitest/node';
import { testsNamedWithoutLine, withReportPlaces } from '../core/budget/budget-places.js';
import { type BudgetReport, computeBudgetReport } from '../core/budget/budget-report.js';
import { quarantinedFailures } from '../core/budget/budget-text.js';
import type { Config } from '../core/config.js';
import { withRecentFailures } from '../core/quarantine/run-quarantine.js';
import { testKey } from '../core/test-id.js';
import type { HistorySession } from '../io/history/reporter-history.js';
import { readProjectOwners } from '../io/owners/codeowners-file.js';
import type { ReporterAllowances, ReporterAllowancesInput } from './allowance-seam.js';
import { observeRun, observeUnhandledError } from './observe.js';
import { findTestPlaces, type TestPlace } from './test-lines.js';

/** How many recent runs the quarantine block counts failures over. */
const QUARANTINE_HISTORY_WINDOW = 20;

export interface RunReportInput {
  readonly root: string;
  readonly config: Config;
  readonly platform: string;
  readonly testModules: ReadonlyArray<TestModule>;
  readonly unhandledErrors: ReadonlyArray<unknown>;
  readonly reason: 'passed' | 'failed' | 'interrupted';
  readonly vitestExitCode: number | null;
  readonly testFiles: () => Promise<readonly string[]>;
  readonly loadAllowances: (input: ReporterAllowancesInput) => Promise<ReporterAllowances>;
}

export async function gatherRunReport(input: RunReportInput): Promise<BudgetReport> {
  const { root, config, platform } = input;
  const observed = observeRun(input.testModules, root);
  const unhandled = input.unhandledErrors.map((e) =>
    observeUnhandledError(e as Parameters<typeof observeUnhandledError>[0], root),
  );
  const { allowances, quarantine, notices } = await input.loadAllowances({
    root,
    config,
    platform,
    tests: observed.tests,
    testFiles: input.testFiles,
  });
  const { ownersOf } = readProjectOwners(root);
  const report = computeBudgetReport({
    config,
    platform,
    tests: observed.tests,
    files: observed.files,
    unhandledErrors: unhandled,
    allowances,
    quarantine,
    notices,
    reason: input.reason,
    vitestExitCode: input.vitestExitCode,
    ownersOf,
  });
  // Lines for the tests the report names, when Vitest did not record locations: added, not recomputed.
  const named = testsNamedWithoutLine(report);
  if (named.length === 0) return report;
  return withReportPlaces(report, await findTestPlaces(root, named).catch(() => new Map<string, TestPlace>()));
}

/** The recent failures of each quarantined test that failed, from the history store. */
export async function addRecentFailures(report: BudgetReport, history: HistorySession | null): Promise<BudgetReport> {
  const excused = quarantinedFailures(report);
  if (!history || excused.length === 0) return report;
  const recent = await history.recentFailures(
    excused.map((q) => ({ project: q.project ?? '', file: q.file, fullName: q.fullName })),
    QUARANTINE_HISTORY_WINDOW,
  );
  return withRecentFailures(report, recent, testKey);
}
