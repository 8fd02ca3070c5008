/**
 * Where the allowance engine (src/io/allowances/allowances-for-run.ts, its loadAllowancesForRun) plugs into the reporter. The reporter
 * calls loadReporterAllowances once per run, after the tests finished and before budgets are checked:
 * - `allowances` maps a test's `allowanceKey` (file and full name: an allowance names no project) to the allowance that applies to it;
 *   its budget then replaces the configured test budget for that test (see resolveTestLimit).
 * - `notices` are printed with the report and stored in the run record: an allowance that followed
 *   a renamed or moved test, orphans, expired entries and invalid allowance files (warnings: the
 *   run keeps going and `flakeguard allowances check` fails on them). A FlakeguardError from the
 *   engine is an error notice (the run fails with code 1); the run does not crash.
 */

import type { RunAllowance } from '../core/budget/budget.js';
import type { ObservedTest } from '../core/budget/budget-report.js';
import type { Config } from '../core/config.js';
import type { RunQuarantine } from '../core/quarantine/run-quarantine.js';
import type { RecordedNotice } from '../core/record/run-record.js';
import { loadAllowancesForRun as loadFromStore } from '../io/allowances/allowances-for-run.js';
import { systemClock } from '../io/clock.js';

export interface ReporterAllowancesInput {
  /** Absolute project root (the folder of flakeguard.yaml); test files are relative to it. */
  readonly root: string;
  readonly config: Config;
  readonly platform: string;
  readonly tests: readonly ObservedTest[];
  /** YYYY-MM-DD, a UTC day (io/clock.ts): the day expiry dates are judged against. */
  readonly today?: string;
  /** The project's test files, from the running Vitest (asked only when an allowance does not match exactly). */
  readonly testFiles?: () => Promise<readonly string[]>;
}

export interface ReporterAllowances {
  readonly allowances: ReadonlyMap<string, RunAllowance>;
  /** The quarantine over each test key, applying or expired. */
  readonly quarantine: ReadonlyMap<string, RunQuarantine>;
  readonly notices: readonly RecordedNotice[];
}

export async function loadReporterAllowances(input: ReporterAllowancesInput): Promise<ReporterAllowances> {
  const result = await loadFromStore({
    root: input.root,
    config: input.config,
    platform: input.platform,
    today: input.today ?? systemClock.today(),
    tests: input.tests.map((t) => ({ file: t.file, fullName: t.fullName, line: t.line })),
    ...(input.testFiles ? { testFiles: input.testFiles } : {}),
  });
  const allowances = new Map<string, RunAllowance>();
  for (const [key, applied] of result.applied) allowances.set(key, { id: applied.id, budget: applied.budget });
  const notices: RecordedNotice[] = [
    ...result.notices.map((message) => ({ level: 'warning' as const, message })),
    ...result.warnings.map((message) => ({ level: 'warning' as const, message })),
  ];
  return { allowances, quarantine: result.quarantine, notices };
}
