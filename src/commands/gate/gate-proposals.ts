/**
 * Allowance proposals for near- and over-budget tests: the entry (YAML, ready to paste) and, with
 * --write-allowances, the entry written into the allowance file next to the test: into the entry
 * the test already has (core/allowances/allowance-upsert.ts), else replacing the gate's earlier
 * proposal for the same test (same id), so it ships in the same change.
 */

import { allowanceFileFor } from '../../core/allowances/allowance.js';
import { type NewAllowanceEntry, serializeEntry } from '../../core/allowances/allowance-serialize.js';
import { type UpsertedEntry, upsertTestEntry } from '../../core/allowances/allowance-upsert.js';
import { resolveTestLimit } from '../../core/budget/budget.js';
import type { Config } from '../../core/config.js';
import { proposeAllowance } from '../../core/gate/gate-proposal.js';
import type { GateProposal } from '../../core/gate/gate-report.js';
import type { GateTestInput } from '../../core/gate/gate-report-test.js';
import type { SelectedTest } from '../../core/gate/test-selection.js';
import type { PlatformKey } from '../../core/platform-value.js';
import { hashText } from '../../core/source/fingerprint.js';
import type { SourceTest } from '../../core/source/test-source.js';
import { updateAllowanceFile } from '../../io/allowances/allowance-store.js';
import { recordFollowedAllowances } from '../../io/allowances/allowances-write.js';
import { systemClock } from '../../io/clock.js';

export interface ProposalInput {
  readonly root: string;
  readonly config: Config;
  readonly platform: string;
  readonly tests: readonly GateTestInput[];
  readonly selected: readonly SelectedTest<SourceTest>[];
  readonly workers: number;
  readonly write: boolean;
}

/** The id the gate gives a test's allowance: stable, so a second proposal replaces the first. */
export function proposalId(file: string, name: string): string {
  return hashText(`flakeguard-gate::${file}::${name}`).slice(0, 8);
}

export async function buildProposals(input: ProposalInput): Promise<GateProposal[]> {
  const budgetMs = resolveTestLimit({ config: input.config, platform: input.platform }).limitMs;
  const today = systemClock.today();
  const proposals: GateProposal[] = [];
  // Followed allowances get their new name and place in this change, so main never says "run migrate".
  if (input.write)
    for (const line of await recordFollowedAllowances(input.root, input.config))
      process.stderr.write(`flakeguard gate: ${line}\n`);
  for (const t of input.tests) {
    const proposal = proposeAllowance(
      { file: t.file, fullName: t.fullName },
      t.result,
      budgetMs,
      input.platform,
      input.workers,
    );
    if (proposal === null) continue;
    const source = input.selected.find((s) => s.test.file === t.file && s.test.fullName === t.fullName)?.test;
    const entry: NewAllowanceEntry = {
      id: proposalId(t.file, t.fullName),
      fullName: t.fullName,
      file: t.file,
      fingerprint: source?.fingerprint ?? null,
      budget: { kind: 'map', values: { [input.platform as PlatformKey]: proposal.limitMs } },
      reason: proposal.reason,
      added: today,
      expires: null,
    };
    const storeFile = allowanceFileFor(input.config.allowances, t.file);
    // Written into the entry the test already has, if any (its id kept), never beside it.
    const written = input.write ? writeProposal(input.root, storeFile, entry) : null;
    proposals.push({
      file: t.file,
      fullName: t.fullName,
      id: written?.id ?? entry.id,
      limitMs: proposal.limitMs,
      platformKey: input.platform,
      reason: proposal.reason,
      storeFile,
      yaml: written?.block || serializeEntry(entry),
      written: written !== null,
    });
  }
  return proposals;
}

/** The proposal written under the file's lock; returns the entry as written. */
function writeProposal(root: string, storeFile: string, entry: NewAllowanceEntry): UpsertedEntry {
  const done: { entry?: UpsertedEntry } = {};
  updateAllowanceFile(root, storeFile, (before) => {
    done.entry = upsertTestEntry(before, entry, storeFile);
    return done.entry.text;
  });
  return done.entry ?? { text: '', id: entry.id, block: '' };
}
