/** Factories for budget-report tests: plain observed tests and files with overridable fields. */
import type { BudgetReportInput, ObservedFile, ObservedTest } from '../../../src/core/budget/budget-report.js';
import { type Config, DEFAULT_CONFIG } from '../../../src/core/config.js';

export function makeTest(over: Partial<ObservedTest> = {}): ObservedTest {
  return {
    file: 'test/hub/tracker.test.ts',
    fullName: 'tracker > reloads journal',
    project: '',
    line: 42,
    column: 3,
    state: 'passed',
    durationMs: 100,
    retries: 0,
    flaky: false,
    errors: [],
    ...over,
  };
}

export function makeFile(over: Partial<ObservedFile> = {}): ObservedFile {
  return {
    file: 'test/hub/tracker.test.ts',
    project: '',
    state: 'passed',
    durationMs: 100,
    errors: [],
    hookErrors: [],
    ...over,
  };
}

export function makeConfig(budget: Partial<Config['budget']> = {}): Config {
  return { ...DEFAULT_CONFIG, budget: { ...DEFAULT_CONFIG.budget, ...budget } };
}

export function makeInput(over: Partial<BudgetReportInput> = {}): BudgetReportInput {
  return {
    config: makeConfig(),
    platform: 'linux',
    tests: [],
    files: [],
    unhandledErrors: [],
    allowances: new Map(),
    notices: [],
    reason: 'passed',
    vitestExitCode: null,
    ...over,
  };
}
