/**
 * `flakeguard history`'s CI speeds (each CI platform relative to this machine, with its trend) and
 * `--propose-timeouts` (per-platform budgets and testTimeout as config text to review, never
 * written): read from the store in the query's window, computed in core/calibration.
 */

import { DEFAULT_TEST_BUDGET_MS } from '../../core/budget/budget-config.js';
import { type CiPlatformSpeed, computeCiSpeedReport } from '../../core/calibration/ci-speed-report.js';
import { formatTimeoutProposals, proposeTimeouts } from '../../core/calibration/timeout-proposals.js';
import type { Config } from '../../core/config.js';
import { resolvePlatformValue } from '../../core/platform-value.js';
import { readCalibrationSample } from '../../io/history/ci-speed-read.js';
import type { HistoryStore } from '../../io/history/history-store.js';
import { readMachineIdentity } from '../../io/machine.js';

/** Each CI platform's speed relative to here, from the runs started at or after `cutoffMs`. */
export async function readCiSpeeds(store: HistoryStore, cutoffMs: number): Promise<CiPlatformSpeed[]> {
  const here = { platform: process.platform, machine: readMachineIdentity() };
  return computeCiSpeedReport(await readCalibrationSample(store, here, cutoffMs));
}

/** Prints the --propose-timeouts text (budgets from budget.test here); exit 0. */
export function printProposedTimeouts(platforms: readonly CiPlatformSpeed[], config: Config): number {
  const budget = resolvePlatformValue(config.budget.test, process.platform)?.value ?? DEFAULT_TEST_BUDGET_MS;
  process.stdout.write(formatTimeoutProposals(proposeTimeouts(platforms, budget), budget, process.platform));
  return 0;
}
