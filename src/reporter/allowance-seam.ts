/**
 * The hook point where the allowance engine (issue 3) plugs into the reporter. The reporter calls
 * loadAllowancesForRun once per run, after the tests finished and before budgets are checked:
 * - `allowances` maps a test key (makeTestKey(file, fullName)) to the allowance that applies to it;
 *   its budget then replaces the configured test budget for that test (see resolveTestLimit).
 * - `notices` are printed with the report and stored in the run record; a notice of level 'error'
 *   (an invalid allowance file, say) makes the run fail with exit code 1.
 * A FlakeguardError thrown here is shown as an error notice; the run does not crash.
 *
 * For now it returns no allowances and no notices: budgets alone apply.
 */
import type { RunAllowance } from '../core/budget.js';
import type { Config } from '../core/config.js';
import type { ObservedTest } from '../core/budget-report.js';
import type { RecordedNotice } from '../core/run-record.js';

export interface AllowancesForRunInput {
  /** Absolute project root (the folder of flakeguard.yaml); test files are relative to it. */
  readonly root: string;
  readonly config: Config;
  readonly platform: string;
  readonly tests: readonly ObservedTest[];
}

export interface AllowancesForRun {
  readonly allowances: ReadonlyMap<string, RunAllowance>;
  readonly notices: readonly RecordedNotice[];
}

export async function loadAllowancesForRun(_input: AllowancesForRunInput): Promise<AllowancesForRun> {
  return { allowances: new Map(), notices: [] };
}
