/**
 * The budget report for GitHub Actions: workflow-command annotations (`::error`, `::warning`) at
 * each test's file and line, and a Markdown section for `$GITHUB_STEP_SUMMARY`. Pure.
 */

import { formatDuration } from '../duration.js';
import { describeQuarantine } from '../quarantine/run-quarantine.js';
import { projectTag } from '../test-id.js';
import { escapeTerminal, escapeWorkflowData, escapeWorkflowProperty } from '../untrusted-text.js';
import type { BudgetReport } from './budget-report.js';
import {
  expiredQuarantineFailures,
  formatAllowanceCommand,
  formatError,
  formatFlaky,
  formatNearFigures,
  formatOverFigures,
  formatPlace,
  formatQuarantined,
  formatVerdictLine,
  limitLabel,
  oneLine,
  ownersNote,
  quarantinedFailures,
} from './budget-text.js';

/** Escaping from the workflow-commands spec (core/untrusted-text.ts): data escapes %, CR, LF; properties also : and ,. */
export {
  escapeWorkflowData as escapeAnnotationData,
  escapeWorkflowProperty as escapeAnnotationProperty,
} from '../untrusted-text.js';

function annotation(
  level: 'error' | 'warning',
  place: { readonly file: string; readonly line: number | null } | null,
  title: string,
  message: string,
): string {
  const props = [
    ...(place ? [`file=${escapeWorkflowProperty(place.file)}`] : []),
    ...(place?.line != null ? [`line=${place.line}`] : []),
    `title=${escapeWorkflowProperty(title)}`,
  ];
  return `::${level} ${props.join(',')}::${escapeWorkflowData(message)}`;
}

export function formatGithubAnnotations(report: BudgetReport): string {
  const out = [...budgetAnnotations(report), ...failureAnnotations(report)];
  const explainsItself = report.verdict.causes.every((c) => c.kind === 'failing-tests' || c.kind === 'budget');
  if (report.verdict.red && !explainsItself)
    out.push(annotation('error', null, 'flakeguard: why the run is red', formatVerdictLine(report)));
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}

/** Over budget (errors, with how to allow it) and near budget (warnings). */
function budgetAnnotations(report: BudgetReport): string[] {
  const out: string[] = [];
  for (const v of report.violations) {
    const what = `${v.kind === 'test' ? (v.fullName ?? '') : 'whole file'}${projectTag(v.project ?? null)}`;
    const fix =
      v.kind === 'test'
        ? `\nTo allow it: ${formatAllowanceCommand(v)}`
        : '\nSplit the file or raise budget.file in flakeguard.yaml.';
    out.push(
      annotation(
        'error',
        v,
        'flakeguard: over duration budget',
        `over budget  ${what}  ${formatOverFigures(v, report.platform)}${ownersNote(report, v.file)}${fix}`,
      ),
    );
  }
  for (const n of report.near) {
    const what = `${n.kind === 'test' ? (n.fullName ?? '') : 'whole file'}${projectTag(n.project ?? null)}`;
    out.push(
      annotation(
        'warning',
        n,
        'flakeguard: near duration budget',
        `near budget  ${what}  ${formatNearFigures(n, report.platform)}${ownersNote(report, n.file)}`,
      ),
    );
  }
  return out;
}

/** Flaky and quarantined tests that failed (warnings), and failures whose quarantine has ended (errors). */
function failureAnnotations(report: BudgetReport): string[] {
  const out: string[] = [];
  for (const f of report.flaky) {
    out.push(
      annotation(
        'warning',
        f,
        'flakeguard: flaky test',
        `flaky  ${f.fullName}${projectTag(f.project)}  ${formatFlaky(f)}${ownersNote(report, f.file)}`,
      ),
    );
  }
  for (const q of quarantinedFailures(report)) {
    out.push(
      annotation(
        'warning',
        q,
        'flakeguard: quarantined test failed',
        `quarantined  ${q.fullName}${projectTag(q.project)}  ${formatQuarantined(q)}${ownersNote(report, q.file)}`,
      ),
    );
  }
  for (const q of expiredQuarantineFailures(report)) {
    out.push(
      annotation(
        'error',
        q,
        'flakeguard: quarantine expired',
        `failed  ${q.fullName}${projectTag(q.project)}  its ${describeQuarantine(q.quarantine)}; it fails the run again${ownersNote(report, q.file)}`,
      ),
    );
  }
  return out;
}

function cell(text: string): string {
  return escapeTerminal(text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' '));
}

function code(text: string): string {
  return `\`${escapeTerminal(text.replace(/`/g, "'"))}\``;
}

export function formatStepSummary(report: BudgetReport, title = 'flakeguard'): string {
  const lines: string[] = [
    `## ${title}: duration budgets (${report.platform})`,
    '',
    `**${cell(formatVerdictLine(report))}**`,
    '',
  ];
  lines.push(...budgetSection(report), ...flakySection(report), ...quarantinedSection(report));
  if (report.unhandledErrors.length > 0) {
    lines.push('### Unhandled errors', '', '| Type | From file | Message |', '|---|---|---|');
    for (const e of report.unhandledErrors)
      lines.push(`| ${cell(e.type)} | ${e.file ? code(e.file) : 'unknown'} | ${cell(oneLine(e.message))} |`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/** The tests and files over or near budget as a table, then the commands that allow the tests over it. */
function budgetSection(report: BudgetReport): string[] {
  const lines: string[] = [];
  const rows = [
    ...report.violations.map((v) => ({ status: '🔴 over budget', v })),
    ...report.near.map((v) => ({ status: '🟡 near budget', v })),
  ];
  if (rows.length > 0) {
    lines.push('| Status | Test | Place | Duration | Limit | Limit from |', '|---|---|---|---:|---:|---|');
    for (const { status, v } of rows) {
      const name = v.kind === 'file' ? '(whole file)' : (v.fullName ?? '');
      lines.push(
        `| ${status} | ${cell(name + ownersNote(report, v.file))} | ${code(formatPlace(v))} | ${formatDuration(v.durationMs)} | ${formatDuration(v.limitMs)} | ${cell(limitLabel(v, report.platform))} |`,
      );
    }
    lines.push('');
  }
  const overTests = report.violations.filter((v) => v.kind === 'test');
  if (overTests.length > 0) {
    lines.push('To give a test more time, add an allowance next to it and commit it with the test:', '', '```sh');
    for (const v of overTests) lines.push(escapeTerminal(formatAllowanceCommand(v)));
    lines.push('```', '');
  }
  return lines;
}

function flakySection(report: BudgetReport): string[] {
  const lines: string[] = [];
  if (report.flaky.length > 0) {
    lines.push(
      '### Flaky (passed only after a retry)',
      '',
      '| Test | Place | Retries | First error |',
      '|---|---|---:|---|',
    );
    for (const f of report.flaky)
      lines.push(
        `| ${cell(f.fullName + ownersNote(report, f.file))} | ${code(formatPlace(f))} | ${f.retries} | ${cell(formatError(f.firstError))} |`,
      );
    lines.push('');
  }
  return lines;
}

function quarantinedSection(report: BudgetReport): string[] {
  const lines: string[] = [];
  const excused = quarantinedFailures(report);
  if (excused.length > 0) {
    lines.push(
      '### Quarantined, failed (not counted)',
      '',
      '| Test | Place | Quarantine | First error |',
      '|---|---|---|---|',
    );
    for (const q of excused)
      lines.push(
        `| ${cell(q.fullName + ownersNote(report, q.file))} | ${code(formatPlace(q))} | ${cell(describeQuarantine(q.quarantine))} | ${cell(formatError(q.firstError))} |`,
      );
    lines.push('');
  }
  return lines;
}
