/**
 * The triage report as a pull-request comment (`triage --markdown`): the marker line, the run's
 * verdict with its counts, the finding to act on first, then one section per class with each
 * finding's cause, action and folded evidence; never over GitHub's comment limit
 * (core/markdown/pr-comment.ts). Pure.
 */

import { describeCause } from '../cause/cause.js';
import { inertMarkdown } from '../markdown/markdown-text.js';
import { buildPrComment, type CommentSection } from '../markdown/pr-comment.js';
import { formatOwners } from '../owners/codeowners.js';
import { escapeTerminal as u } from '../untrusted-text.js';
import { checkLines } from './triage-caught-by.js';
import type { FindingClass } from './triage-config.js';
import { historyHeader, measuredLabel, subject } from './triage-format.js';
import { describeOwnerFilter } from './triage-owners.js';
import type { Finding, TriageReport } from './triage-types.js';

const TRIAGE_COMMENT_MARKER = 'flakeguard:triage';

const CLASSES: readonly FindingClass[] = ['infrastructure', 'escape', 'flake', 'budget'];

/** User text (names, errors, causes that quote them): no mention, reference, link or HTML of it. */
const md = (text: string): string => inertMarkdown(text).replace(/>/g, '&gt;');
/** CODEOWNERS owners: mentions on purpose (the owners are asked to look). */
const ownerText = (text: string): string => u(text.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;'));

function owned(f: Finding): string {
  const owners = formatOwners(f.owners);
  return owners === '' ? '' : ` · ${ownerText(owners)}`;
}

/** The replay command in a shell block (user text in it cannot end the block), or the note without one. */
function replayBlock(f: Finding): string[] {
  const r = f.replay;
  if (!r) return [];
  if (r.command === null) return [`**Replay:** ${md(r.note)}`, ''];
  return [`**Replay** (${md(r.note)}):`, '', '```sh', u(r.command.replace(/```/g, "'''")), '```', ''];
}

function findingItem(f: Finding, index: number): string {
  return [
    `**${index + 1}. ${f.class} (${measuredLabel(f)}): ${md(subject(f))}**${owned(f)}`,
    '',
    ...checkLines(f).map((line) => `${md(line)}  `),
    `**Cause:** ${md(f.cause)}`,
    '',
    `**Action:** ${md(f.action)}`,
    '',
    ...(f.flakeCause ? [`**${md(describeCause(f.flakeCause, 'Why'))}**; fix: ${md(f.flakeCause.fix)}`, ''] : []),
    ...replayBlock(f),
    '<details><summary>Evidence</summary>',
    '',
    '```',
    ...f.evidence.map((e) => u(e.replace(/```/g, "'''"))),
    '```',
    '</details>',
    '',
  ].join('\n');
}

export function formatTriageMarkdown(report: TriageReport, limit?: number): string {
  const first = report.findings[0];
  const headline = [
    `## flakeguard triage: run ${report.verdict}${report.exitCode === null ? '' : ` (exit code ${report.exitCode})`}`,
    '',
    '| class | findings |',
    '|---|---|',
    ...CLASSES.map((c) => `| ${c} | ${report.counts[c]} |`),
    ...(report.history !== null ? ['', md(historyHeader(report.history))] : []),
    ...(report.ownerFilter ? ['', ownerText(describeOwnerFilter(report.ownerFilter))] : []),
    '',
    first === undefined
      ? report.verdict === 'green'
        ? 'Nothing to act on.'
        : 'No findings.'
      : `**Do first:** ${md(first.action)} (${first.class}: ${md(subject(first))}${owned(first)})`,
  ];
  const numbered = report.findings.map((f, i) => ({ f, text: findingItem(f, i) }));
  const sections: CommentSection[] = CLASSES.map((c) => ({
    title: c,
    items: numbered.filter((n) => n.f.class === c).map((n) => n.text),
  }));
  return buildPrComment({ marker: TRIAGE_COMMENT_MARKER, headline, sections }, limit);
}
