/**
 * The quarantine and release proposals of `flakeguard history` (docs/quarantine.md): read from the
 * store on the default branch, computed in core, and with --write written into the allowance files
 * through the quarantine commands' writer.
 */

import { allowanceKey } from '../../core/allowances/allowance-match.js';
import type { Config } from '../../core/config.js';
import type { HistoryInput, HistoryQuery } from '../../core/history/history-report.js';
import {
  computeQuarantineProposals,
  proposalReason,
  type QuarantinePolicy,
  type QuarantineProposals,
} from '../../core/quarantine/quarantine-proposals.js';
import { loadAllowanceStore } from '../../io/allowances/allowance-store.js';
import { gatherProjectState } from '../../io/allowances/allowances-state.js';
import { findDefaultBranch } from '../../io/git/git.js';
import { readTestCounts } from '../../io/history/history-counts.js';
import type { HistoryFilter } from '../../io/history/history-query.js';
import type { HistoryStore } from '../../io/history/history-store.js';
import { lastRunsOfTest } from '../../io/history/test-history.js';
import { addQuarantine, removeQuarantine } from '../../io/quarantine/quarantine-write.js';
import { commandUsageError } from '../command-args.js';
import { HISTORY_COMMAND } from './history-options.js';

/** `5%` or `0.5%` to a share; a usage error names the value otherwise. */
export function parsePolicy(
  above: string | undefined,
  after: string | undefined,
  defaults: QuarantinePolicy,
): QuarantinePolicy {
  let quarantineAbove = defaults.quarantineAbove;
  if (above !== undefined) {
    const m = /^(\d+(?:\.\d+)?)%$/.exec(above.trim());
    const share = m ? Number(m[1]) / 100 : Number.NaN;
    if (!(share > 0 && share <= 1))
      throw commandUsageError(
        HISTORY_COMMAND,
        `--quarantine-above "${above}" is not a percentage; write one between 0.1% and 100%, e.g. 5%`,
      );
    quarantineAbove = share;
  }
  let releaseAfter = defaults.releaseAfter;
  if (after !== undefined) {
    if (!/^\d{1,5}$/.test(after) || Number(after) < 1 || Number(after) > 10_000)
      throw commandUsageError(
        HISTORY_COMMAND,
        `--release-after "${after}" must be a whole number of runs from 1 to 10000`,
      );
    releaseAfter = Number(after);
  }
  return { quarantineAbove, releaseAfter };
}

/** The branch proposals are judged on: --branch, else the default branch's name (origin/main -> main). */
export async function proposalBranch(root: string, branch: string | null): Promise<string | null> {
  if (branch !== null) return branch;
  const found = await findDefaultBranch(root).catch(() => null);
  return found === null ? null : found.replace(/^[^/]+\//, '');
}

export async function readQuarantineProposals(input: {
  readonly store: HistoryStore;
  readonly root: string;
  readonly config: Config;
  readonly branch: string | null;
  readonly policy: QuarantinePolicy;
  readonly filter: HistoryFilter;
  readonly query: HistoryQuery;
  readonly queried: HistoryInput;
}): Promise<QuarantineProposals> {
  const { store, branch, policy } = input;
  // The counts alone on another branch: no durations, series or causes.
  const onBranch =
    branch === input.filter.branch ? input.queried.tests : await readTestCounts(store, { ...input.filter, branch });
  const tests = onBranch.map((t) => ({
    project: t.project,
    file: t.file,
    fullName: t.fullName,
    runs: t.runs,
    flakyRuns: t.retriedRuns + t.rerunPassedRuns,
  }));
  const held = loadAllowanceStore(input.root, input.config.allowances).allowances.filter((a) => a.quarantine !== null);
  const quarantined = [];
  for (const a of held) {
    const lastRuns = await lastRunsOfTest(
      store,
      // A quarantine applies in every project: its runs in all of them (project null matches any).
      { project: null, file: a.file, fullName: a.fullName },
      { branch, limit: policy.releaseAfter },
    );
    quarantined.push({ id: a.id, file: a.file, fullName: a.fullName, lastRuns });
  }
  return computeQuarantineProposals({ branch, policy, tests, quarantined });
}

/** Writes every proposal; returns one line per change. */
export async function writeQuarantineProposals(
  root: string,
  config: Config,
  proposals: QuarantineProposals,
  expires: string,
): Promise<string[]> {
  const lines: string[] = [];
  // A quarantine names no project: a test flaky in two projects gets one.
  const written = new Set<string>();
  for (const p of proposals.quarantine) {
    if (written.has(allowanceKey(p))) continue;
    written.add(allowanceKey(p));
    const state = await gatherProjectState(root, config);
    lines.push(
      addQuarantine(
        state,
        { file: p.file, fullName: p.fullName, reason: proposalReason(p, proposals.branch), expires, link: undefined },
        root,
      ),
    );
  }
  for (const r of proposals.release) {
    const state = await gatherProjectState(root, config);
    lines.push(removeQuarantine(state, r.id));
  }
  return lines;
}
