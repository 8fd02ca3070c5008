/**
 * A TriageReport as terminal text, Markdown (a CI job summary) and the versioned JSON document.
 * Pure: colour is a function the CLI passes (identity when colour is off).
 */

import { describeCause } from '../cause/cause.js';
import { formatOwners } from '../owners/codeowners.js';
import { projectTag } from '../test-id.js';
import { type Paint, plainText } from '../text-style.js';
import { escapeTerminal as u } from '../untrusted-text.js';
import { checkLines, UNKNOWN_CHECK } from './triage-caught-by.js';
import type { FindingClass } from './triage-config.js';
import { describeOwnerFilter } from './triage-owners.js';
import {
  type Finding,
  type FindingReplay,
  TRIAGE_FORMAT,
  type TRIAGE_VERSION,
  type TriageReport,
} from './triage-types.js';

export type { Paint };

const CLASSES: readonly FindingClass[] = ['infrastructure', 'escape', 'flake', 'budget'];

export function formatCounts(report: TriageReport): string {
  return CLASSES.map((c) => `${c} ${report.counts[c]}`).join(', ');
}

export function subject(f: Finding): string {
  const project = projectTag(f.project);
  if (f.fullName !== null) return `${f.file ?? '?'}${project} > ${f.fullName}`;
  if (f.file !== null) return `${f.file}${project}`;
  return '(run)';
}

/** "history: branch main, the last 200 runs of each failed or slow test (2 tests known)". */
export function historyHeader(h: NonNullable<TriageReport['history']>): string {
  return `history: branch ${h.branch}, the last ${h.window} runs of each failed or slow test (${h.tests} known to the store)`;
}

/** "replay: npx flakeguard replay ... --seed 12 (the seed its failed attempt ...)" or "replay: no seed recorded (...)". */
function replayLine(r: FindingReplay): string {
  return r.command === null ? `replay: ${r.note}` : `replay: ${r.command} (${r.note})`;
}

export function measuredLabel(f: Finding): string {
  return f.measured ? 'measured' : 'inferred';
}

export function formatTriage(report: TriageReport, paint: Paint = plainText): string {
  const out: string[] = [];
  const verdict = report.verdict === 'red' ? paint('red', 'red') : paint('green', 'green');
  const exit = report.exitCode === null ? '' : ` (exit code ${report.exitCode})`;
  out.push(
    `${paint('bold', 'flakeguard triage')}: run ${verdict}${exit}, ${report.findings.length} finding${report.findings.length === 1 ? '' : 's'}`,
  );
  // The counts once, on one line.
  out.push(`  ${formatCounts(report)}`);
  if (report.history !== null) out.push(paint('dim', `  ${u(historyHeader(report.history))}`));
  if (report.ownerFilter) out.push(paint('dim', `  ${describeOwnerFilter(report.ownerFilter)}`));
  report.findings.forEach((f, i) => {
    out.push('');
    const tag =
      f.class === 'infrastructure'
        ? paint('yellow', f.class)
        : f.class === 'escape'
          ? paint('red', f.class)
          : paint('cyan', f.class);
    out.push(`${i + 1}. ${tag} (${measuredLabel(f)}) ${paint('bold', u(subject(f)))}`);
    const owners = formatOwners(f.owners);
    if (owners !== '') out.push(`   ${owners}`);
    for (const line of checkLines(f)) out.push(`   ${u(line)}`);
    out.push(`   cause: ${u(f.cause)}`);
    for (const e of f.evidence) out.push(paint('dim', `   - ${u(e)}`));
    out.push(`   action: ${u(f.action)}`);
    if (f.replay) out.push(`   ${u(replayLine(f.replay))}`);
    if (f.flakeCause) out.push(`   ${u(describeCause(f.flakeCause, 'why'))}`, `   fix: ${u(f.flakeCause.fix)}`);
  });
  if (report.findings.length === 0) out.push('', report.verdict === 'green' ? 'Nothing to act on.' : 'No findings.');
  return `${out.join('\n')}\n`;
}

export interface TriageJson {
  readonly format: typeof TRIAGE_FORMAT;
  readonly version: typeof TRIAGE_VERSION;
  readonly verdict: 'red' | 'green';
  readonly exitCode: number | null;
  readonly counts: Readonly<Record<FindingClass, number>>;
  /** A finding as printed: everything but what `--rerun` would run; `caughtBy` and `seenBy` always written. */
  readonly findings: readonly Omit<Finding, 'rerunTarget'>[];
  /** The history store's branch and window when history was used, else null. */
  readonly history?: TriageReport['history'];
  /** `--owner`: the owner the findings were filtered to and how many were left out. */
  readonly ownerFilter?: TriageReport['ownerFilter'];
}

export function toTriageJson(report: TriageReport): TriageJson {
  return {
    format: TRIAGE_FORMAT,
    version: report.version,
    verdict: report.verdict,
    exitCode: report.exitCode,
    counts: report.counts,
    findings: report.findings.map((f) => ({
      class: f.class,
      project: f.project,
      fullName: f.fullName,
      file: f.file,
      cause: f.cause,
      evidence: f.evidence,
      measured: f.measured,
      action: f.action,
      rule: f.rule,
      owners: f.owners ?? [],
      caughtBy: f.caughtBy ?? UNKNOWN_CHECK,
      seenBy: f.seenBy ?? [],
      ...(f.class === 'flake' ? { flakeCause: f.flakeCause ?? null } : {}),
      ...(f.replay ? { replay: f.replay } : {}),
    })),
    history: report.history,
    ...(report.ownerFilter ? { ownerFilter: report.ownerFilter } : {}),
  };
}
