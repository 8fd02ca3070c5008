/**
 * What decided a finding, as a closed set: the passes of computeTriage steer on `RuleKind`, never on
 * the printed rule text. The printed `rule` is the kind, or for a signature its id (data: a project
 * adds its own), or `exit-<code>` for a signal exit.
 */
import type { Finding } from './triage-types.js';

export type RuleKind =
  /** A log signature (its id is the printed rule), matched in a failure's errors or in the log. */
  | 'signature'
  | 'failed-not-rerun'
  | 'rerun-failed'
  | 'rerun-passed'
  /** Failed in the run; the history store shows it failed and then passed before without a change of code. */
  | 'history-flake'
  | 'retry-pass'
  | 'attempt-pass'
  | 'budget-test'
  | 'budget-file'
  | 'report-truncated'
  | 'report-corrupt'
  | 'report-empty'
  | 'report-missing-report'
  | 'signal-exit'
  | 'unfinished-file'
  | 'unexplained-exit'
  | 'interrupted-run';

/** Where the finding came from: a failure the inputs name, or the run as a whole. */
export type FindingSource = 'failure' | 'unhandled' | 'budget' | 'input' | 'log' | 'exit' | 'unfinished' | 'silence';

/** A finding with what decided it, as the passes see it. Immutable: a pass returns new drafts. */
export interface Draft {
  readonly finding: Finding;
  readonly kind: RuleKind;
  /** The signature that decided it (kind 'signature'), else null. */
  readonly signature: string | null;
  readonly source: FindingSource;
}

export function makeDraft(
  finding: Finding,
  kind: RuleKind,
  source: FindingSource,
  signature: string | null = null,
): Draft {
  return { finding, kind, signature, source };
}

/** The same draft with evidence lines it did not have yet. */
export function addEvidence(d: Draft, lines: readonly string[]): Draft {
  const extra = lines.filter((l) => !d.finding.evidence.includes(l));
  return extra.length === 0 ? d : { ...d, finding: { ...d.finding, evidence: [...d.finding.evidence, ...extra] } };
}

/** A finding about the run as a whole (no test, no file) that the log or the exit code decided: what a signal exit or a missing report joins. */
export function isRunLevelCause(d: Draft): boolean {
  return (
    d.finding.class === 'infrastructure' &&
    d.finding.fullName === null &&
    d.finding.file === null &&
    d.source !== 'input'
  );
}

/** Replaces the first draft that satisfies `pick` with `change(it)`; returns null when none does. */
export function updateFirst(
  drafts: readonly Draft[],
  pick: (d: Draft) => boolean,
  change: (d: Draft) => Draft,
): Draft[] | null {
  const i = drafts.findIndex(pick);
  if (i === -1) return null;
  return drafts.map((d, j) => (j === i ? change(d) : d));
}
