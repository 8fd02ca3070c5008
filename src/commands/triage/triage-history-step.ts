/**
 * The history step of `flakeguard triage`: which store (flakeguard.yaml's `history`,
 * FLAKEGUARD_HISTORY_URL, --history / --no-history), which branch (--branch, else the default
 * branch), and one warning line when the store could not be used: triage then runs without it.
 */

import type { HistoryConfig } from '../../core/history/history-config.js';
import type { TestId } from '../../core/test-id.js';
import type { TriageHistory } from '../../core/triage/triage-history.js';
import { escapeTerminal } from '../../core/untrusted-text.js';
import type { ProjectPlaces } from '../../io/places/project-places.js';
import { readTriageHistory } from '../../io/triage/triage-history.js';

export interface TriageHistoryStep {
  readonly places: ProjectPlaces;
  readonly config: HistoryConfig;
  readonly flags: { readonly history?: boolean; readonly 'no-history'?: boolean; readonly branch?: string };
  /** Run ids of the run records triaged (gathered once with them): their runs are left out of the history. */
  readonly runIds: readonly string[];
  readonly tests: readonly TestId[];
  readonly warn?: (line: string) => void;
}

export async function triageHistory(step: TriageHistoryStep): Promise<TriageHistory | null> {
  const force = step.flags['no-history'] ? false : step.flags.history ? true : undefined;
  if (step.tests.length === 0 && force !== true) return null;
  const warn = step.warn ?? ((line: string) => process.stderr.write(`${escapeTerminal(line)}\n`));
  const outcome = await readTriageHistory({
    places: step.places,
    config: step.config,
    force,
    branch: step.flags.branch,
    tests: step.tests,
    excludeRunIds: new Set(step.runIds),
  });
  if (outcome.kind === 'used') return outcome.history;
  if (outcome.kind === 'not-used')
    warn(
      `flakeguard: warning: history was not used${outcome.where === null ? '' : ` (${outcome.where})`}: ${outcome.reason}; the findings are from the run's own inputs`,
    );
  return null;
}
