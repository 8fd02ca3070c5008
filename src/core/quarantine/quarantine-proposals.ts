/**
 * Proposals from history (docs/quarantine.md): quarantine a test whose flake rate on the default
 * branch is, at 95% confidence, above a threshold (the lower Clopper-Pearson bound, so a handful of
 * unlucky runs never proposes it); release a quarantined test that passed each of its last N runs
 * there. Pure: the edge reads the store and writes the entries.
 */

import { allowanceKey } from '../allowances/allowance-match.js';
import { failureRateUpperBound, formatRatePercent } from '../failure-rate.js';
import { projectTag, type TestId, type TestRef } from '../test-id.js';
import { escapeTerminal as u } from '../untrusted-text.js';

export interface QuarantinePolicy {
  /** Propose quarantine when the flake rate's lower bound is at least this share (0..1). */
  readonly quarantineAbove: number;
  /** Propose release after this many passing runs in a row (no retry). */
  readonly releaseAfter: number;
}

export const DEFAULT_QUARANTINE_POLICY: QuarantinePolicy = { quarantineAbove: 0.05, releaseAfter: 20 };

export interface FlakeCounts extends TestId {
  readonly runs: number;
  /** Runs that passed only after a retry, or failed on a commit that passed in another run. */
  readonly flakyRuns: number;
}

/** A quarantine held in an allowance file: it names no project (it applies in every project). */
export interface QuarantinedEntry extends TestRef {
  readonly id: string;
  /** The test's last runs on the branch, newest first. */
  readonly lastRuns: readonly { readonly state: string; readonly flaky: boolean }[];
}

export interface QuarantineProposal extends TestId {
  readonly runs: number;
  readonly flakyRuns: number;
  /** At 95% confidence the flake rate is at least this. */
  readonly lowerBound: number;
}

interface ReleaseProposal extends TestRef {
  readonly id: string;
  readonly passedRuns: number;
}

export interface QuarantineProposals {
  readonly branch: string | null;
  readonly policy: QuarantinePolicy;
  readonly quarantine: readonly QuarantineProposal[];
  readonly release: readonly ReleaseProposal[];
}

/** One-sided lower Clopper-Pearson bound of a rate at 95% confidence (0 when nothing happened). */
export function rateLowerBound(events: number, runs: number, confidence = 0.95): number {
  if (events === 0) return 0;
  return 1 - failureRateUpperBound(runs - events, runs, confidence).upper;
}

export function computeQuarantineProposals(input: {
  readonly branch: string | null;
  readonly policy: QuarantinePolicy;
  readonly tests: readonly FlakeCounts[];
  readonly quarantined: readonly QuarantinedEntry[];
}): QuarantineProposals {
  const held = new Set(input.quarantined.map((q) => allowanceKey(q)));
  const quarantine = input.tests
    .filter((t) => t.runs > 0 && t.flakyRuns > 0 && !held.has(allowanceKey(t)))
    .map((t) => ({
      project: t.project,
      file: t.file,
      fullName: t.fullName,
      runs: t.runs,
      flakyRuns: t.flakyRuns,
      lowerBound: rateLowerBound(t.flakyRuns, t.runs),
    }))
    .filter((p) => p.lowerBound >= input.policy.quarantineAbove)
    .sort(
      (a, b) =>
        b.lowerBound - a.lowerBound || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.fullName < b.fullName ? -1 : 1),
    );
  const release = input.quarantined
    .filter(
      (q) =>
        q.lastRuns.length >= input.policy.releaseAfter &&
        q.lastRuns.slice(0, input.policy.releaseAfter).every((r) => r.state === 'passed' && !r.flaky),
    )
    .map((q) => ({ id: q.id, file: q.file, fullName: q.fullName, passedRuns: input.policy.releaseAfter }));
  return { branch: input.branch, policy: input.policy, quarantine, release };
}

/** The proposals as `history --json` prints them (history report version 2: `fullName`, and each proposal's `project`). */
export function toQuarantineProposalsJson(proposals: QuarantineProposals): QuarantineProposals {
  return proposals;
}

/** The reason written into a quarantine proposed from history. */
export function proposalReason(p: QuarantineProposal, branch: string | null): string {
  return `flakeguard history: flaky in ${p.flakyRuns} of ${p.runs} runs${p.project ? ` in project ${p.project}` : ''}${branch ? ` on ${branch}` : ''} (at least ${formatRatePercent(p.lowerBound)} at 95% confidence); find an owner`;
}

export function formatQuarantineProposals(proposals: QuarantineProposals, write: boolean): string {
  if (proposals.quarantine.length === 0 && proposals.release.length === 0) return '';
  const where = proposals.branch ? ` on ${proposals.branch}` : '';
  const lines = [
    `Proposals${where} (quarantine at a flake rate of at least ${formatRatePercent(proposals.policy.quarantineAbove)} at 95% confidence; release after ${proposals.policy.releaseAfter} passing runs):`,
  ];
  for (const p of proposals.quarantine)
    lines.push(
      `  quarantine  ${u(`${p.file}${projectTag(p.project)}`)}  ${u(p.fullName)}  flaky in ${p.flakyRuns} of ${p.runs} runs (at least ${formatRatePercent(p.lowerBound)})`,
    );
  for (const r of proposals.release)
    lines.push(
      `  release     ${u(r.file)}  ${u(r.fullName)}  quarantine ${r.id}: passed its last ${r.passedRuns} runs`,
    );
  lines.push(
    write
      ? '  written: see the lines above this block.'
      : '  Run flakeguard history --write to write them (reviewed with the code like any allowance change).',
  );
  return `${lines.join('\n')}\n`;
}
