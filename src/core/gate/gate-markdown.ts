/**
 * The gate report as a pull-request comment (`gate --markdown`): the marker line, the verdict and the
 * test to fix first, the tests that are not stable, the stable ones folded, what could not run
 * alone, the allowances to ship; never over GitHub's comment limit (core/markdown/pr-comment.ts).
 * Pure.
 */

import { describeCalibration, describeTestOnCi } from '../calibration/calibration-phrases.js';
import { describeCause } from '../cause/cause.js';
import { inertCode, inertMarkdown } from '../markdown/markdown-text.js';
import { buildPrComment, type CommentSection } from '../markdown/pr-comment.js';
import { describeReplayOutcome } from '../replay/gate-replay.js';
import { escapeTerminal as u } from '../untrusted-text.js';
import {
  describeLoad,
  gateSummary,
  ms,
  ownersSuffix,
  selectionLabel,
  triesText,
  unstableFirst,
  verdictLabel,
} from './gate-phrases.js';
import type { GateContention, GateReport } from './gate-report.js';
import type { GateReportTest } from './gate-report-test.js';

const GATE_COMMENT_MARKER = 'flakeguard:gate';

/** User text in a cell or a line: no mention, reference, link or HTML of it (core/markdown/markdown-text.ts). */
const cell = (s: string): string => inertMarkdown(s.replace(/\r?\n/g, ' '));
/** A file name or ref inside a code span. */
const code = (s: string): string => inertCode(s.replace(/\r?\n/g, ' '));
/** CODEOWNERS owners: mentions on purpose (the owners are asked to look). */
const ownerCell = (s: string): string => u(s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').replace(/</g, '&lt;'));
const TABLE = [
  '| verdict | test | selection | passed | median | max | limit | why | owners |',
  '|---|---|---|---|---|---|---|---|---|',
];

/** A fenced block longer than any run of backticks in `text` (a test name may hold ```), as lines. */
function fenced(lang: string, text: string): string[] {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${lang}`, text, fence];
}

function row(t: GateReportTest, contention: GateContention | undefined): string {
  const onCi = describeTestOnCi(t, contention);
  const missing = (t.missing ?? []).map((m) => `; missing: ${cell(m)}`).join('');
  const cause = `${missing}${t.cause ? `; **${cell(describeCause(t.cause))}**; fix: ${cell(t.cause.fix)}` : ''}${replayCell(t)}`;
  const why = `${cell(t.reason)}${t.failureRateText ? `; ${cell(t.failureRateText)}` : ''}${onCi ? `; ${cell(onCi)}` : ''}${cause}`;
  const owners = (t.owners ?? []).map(ownerCell).join(' ');
  return `| ${verdictLabel(t)} | \`${code(t.file)}:${t.line}\` ${cell(t.fullName)} | ${cell(selectionLabel(t))} | ${t.passes}/${t.tryCount} | ${ms(t.medianMs)} | ${ms(t.maxMs)} | ${ms(t.limitMs)} | ${why} | ${owners} |`;
}

/** The replay with how it went ("replay (reproduced 5/5): `npx flakeguard replay ...`"), and what it could not make when it did not fail. */
function replayCell(t: GateReportTest): string {
  if (!t.replay) return '';
  const why = t.replay.uncontrolled ? ` (${cell(t.replay.uncontrolled)})` : '';
  return `; replay (${describeReplayOutcome(t.replay)}): \`${code(t.replay.command)}\`${why}`;
}

function firstStep(report: GateReport): string {
  const first = unstableFirst(report)[0];
  if (first === undefined)
    return report.tests.length === 0
      ? 'Nothing to run: no new or changed test.'
      : 'Nothing to do: every new or changed test is stable.';
  const error = first.error ? ` First error: ${cell(first.error)}` : '';
  const cause = first.cause ? ` ${cell(describeCause(first.cause))}; fix: ${cell(first.cause.fix)}.` : '';
  const project = first.project ? ` [${cell(first.project)}]` : '';
  return `**Fix first:** \`${code(first.file)}:${first.line}\`${project} ${cell(first.fullName)}${ownerCell(ownersSuffix(first.owners))}: ${first.verdict}, ${cell(first.reason)}.${cause}${error}`;
}

/** With auto, the target and how it was chosen, after the load line. */
function calibrationNote(c: GateContention | undefined): string {
  return c?.calibration ? `; slowdown x${c.target} (${cell(describeCalibration(c.calibration, c.target))})` : '';
}

export function formatGateMarkdown(report: GateReport, limit?: number): string {
  const unstable = unstableFirst(report);
  const stable = report.tests.filter((t) => t.verdict === 'stable');
  const load = report.load.workers > 0 ? ` under load (${report.load.workers} busy workers)` : ' without load';
  const sections: CommentSection[] = [
    { title: 'Not stable', head: TABLE, items: unstable.map((t) => row(t, report.contention)) },
    { title: 'Stable', head: TABLE, items: stable.map((t) => row(t, report.contention)), folded: true },
    {
      title: 'Changed but not run one by one',
      items: report.notRun.map((n) => `- \`${code(n.file)}:${n.line}\` ${cell(n.fullName)}: ${cell(n.reason)}`),
    },
    {
      title: 'Allowances to ship with this change',
      items: report.proposals.map((p) => [`\`${code(p.storeFile)}\``, ...fenced('yaml', p.yaml.trimEnd())].join('\n')),
      folded: true,
    },
    { title: 'Notes', items: report.notices.map((n) => `- ${cell(n)}`) },
  ];
  return buildPrComment(
    {
      marker: GATE_COMMENT_MARKER,
      headline: [
        `### flakeguard gate: ${report.verdict === 'pass' ? 'passed' : 'failed'}`,
        '',
        `${gateSummary(report)}. ${report.tests.length} new or changed tests since \`${code(report.baseRef)}\` (\`${report.base.slice(0, 10)}\`), ${triesText(report)}${load}.`,
        '',
        firstStep(report),
      ],
      sections,
      footer: [`<sub>${cell(describeLoad(report))}${calibrationNote(report.contention)}</sub>`],
    },
    limit,
  );
}
