/**
 * formatBudgetReport: the block printed after Vitest's summary. Each test and file over budget
 * with figures, how to add an allowance, near-budget warnings, flaky tests with their first error,
 * the other reasons a run is red, and a last line that says why. Pure.
 */

import { describeQuarantine } from '../quarantine/run-quarantine.js';
import { testKey } from '../test-id.js';
import type { Paint } from '../text-style.js';
import { escapeTerminal as u } from '../untrusted-text.js';
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
  formatUnhandled,
  formatVerdictLine,
  oneLine,
  ownersNote,
  quarantinedFailures,
} from './budget-text.js';

export interface ReportScreen {
  readonly paint: Paint;
}

const PLAIN_SCREEN: ReportScreen = { paint: (_style, text) => text };

const MAX_LISTED = 50;

function capped<T>(items: readonly T[], render: (item: T) => string, screen: ReportScreen): string[] {
  const lines = items.slice(0, MAX_LISTED).map(render);
  if (items.length > MAX_LISTED)
    lines.push(screen.paint('dim', `  … and ${items.length - MAX_LISTED} more (all of them are in the run record)`));
  return lines;
}

export function formatBudgetReport(report: BudgetReport, screen: ReportScreen = PLAIN_SCREEN): string {
  const p = screen.paint;
  const lines = [
    ...formatViolations(report, screen),
    ...formatNearSection(report, screen),
    ...formatFlakySection(report, screen),
    ...formatQuarantinedSection(report, screen),
    ...formatFailingSection(report, screen),
    ...formatProblemsSection(report, screen),
  ];
  const last = u(formatVerdictLine(report));
  lines.push(report.verdict.red ? p('bold', p('red', last)) : p('green', last));
  return `${lines.join('\n')}\n`;
}

/** Each test and file over budget with figures, then how to give a test more time. */
function formatViolations(report: BudgetReport, screen: ReportScreen): string[] {
  const p = screen.paint;
  const lines: string[] = [];
  const overTests = report.violations.filter((v) => v.kind === 'test');
  const overFiles = report.violations.filter((v) => v.kind === 'file');
  if (report.violations.length === 0) return lines;
  lines.push(p('bold', p('red', `Duration budgets exceeded (${report.platform}):`)));
  lines.push(
    ...capped(
      overTests,
      (v) =>
        `  ${p('red', 'over budget')}  ${u(formatPlace(v))}  ${u(v.fullName ?? '')}  ${formatOverFigures(v, report.platform)}${ownersNote(report, v.file)}`,
      screen,
    ),
  );
  lines.push(
    ...capped(
      overFiles,
      (v) =>
        `  ${p('red', 'over budget')}  ${u(v.file)}  (whole file)  ${formatOverFigures(v, report.platform)}${ownersNote(report, v.file)}`,
      screen,
    ),
  );
  if (overTests.length > 0) {
    lines.push('', '  To give a test more time, add an allowance next to it and commit it with the test:');
    // A name with a control character is shown escaped: the line is safe, not a paste of that name.
    lines.push(...capped(overTests, (v) => `    ${u(formatAllowanceCommand(v))}`, screen));
    lines.push('  or make the test faster.');
  }
  if (overFiles.length > 0) {
    lines.push(
      '',
      '  A file over its file budget: split it or speed up its tests, or raise budget.file in flakeguard.yaml.',
    );
  }
  return lines;
}

function formatNearSection(report: BudgetReport, screen: ReportScreen): string[] {
  const p = screen.paint;
  if (report.near.length === 0) return [];
  return [
    p(
      'yellow',
      `Near duration budget (at or above ${Math.round(report.warnAt * 100)}% of the limit; the run does not fail on these):`,
    ),
    ...capped(
      report.near,
      (n) =>
        `  ${p('yellow', 'near budget')}  ${u(formatPlace(n))}  ${n.kind === 'file' ? '(whole file)' : u(n.fullName ?? '')}  ${formatNearFigures(n, report.platform)}${ownersNote(report, n.file)}`,
      screen,
    ),
  ];
}

function formatFlakySection(report: BudgetReport, screen: ReportScreen): string[] {
  const p = screen.paint;
  if (report.flaky.length === 0) return [];
  return [
    p('yellow', 'Flaky (passed only after a retry):'),
    ...capped(
      report.flaky,
      (f) =>
        `  ${p('yellow', 'flaky')}  ${u(formatPlace(f))}  ${u(f.fullName)}  ${u(formatFlaky(f))}${ownersNote(report, f.file)}`,
      screen,
    ),
  ];
}

function formatQuarantinedSection(report: BudgetReport, screen: ReportScreen): string[] {
  const p = screen.paint;
  const excused = quarantinedFailures(report);
  if (excused.length === 0) return [];
  return [
    p('yellow', 'Quarantined (still run; their failures do not fail the run):'),
    ...capped(
      excused,
      (q) =>
        `  ${p('yellow', 'quarantined')}  ${u(formatPlace(q))}  ${u(q.fullName)}  ${u(formatQuarantined(q))}${ownersNote(report, q.file)}`,
      screen,
    ),
  ];
}

/** Failed tests with their first error; a test whose quarantine ended says so. */
function formatFailingSection(report: BudgetReport, screen: ReportScreen): string[] {
  const p = screen.paint;
  if (report.failing.length === 0) return [];
  const ended = new Map(expiredQuarantineFailures(report).map((q) => [testKey(q), q.quarantine]));
  return [
    p('red', 'Failed tests:'),
    ...capped(
      report.failing,
      (t) => {
        const q = ended.get(testKey(t));
        const note = q ? `  (its ${u(describeQuarantine(q))}; it fails the run again)` : '';
        return `  ${p('red', 'failed')}  ${u(formatPlace(t))}  ${u(t.fullName)}  ${u(formatError(t.errors[0] ?? null))}${note}${ownersNote(report, t.file)}`;
      },
      screen,
    ),
  ];
}

/** The other reasons a run is red: unhandled errors, load and hook errors, allowance notices. */
function formatProblemsSection(report: BudgetReport, screen: ReportScreen): string[] {
  const p = screen.paint;
  const problems: string[] = [];
  for (const e of report.unhandledErrors) problems.push(`  ${p('red', 'unhandled')}  ${u(formatUnhandled(e))}`);
  for (const f of report.files) {
    for (const e of f.errors) problems.push(`  ${p('red', 'load error')}  ${u(f.file)}  ${u(formatError(e))}`);
    for (const e of f.hookErrors) problems.push(`  ${p('red', 'hook error')}  ${u(f.file)}  ${u(formatError(e))}`);
  }
  for (const n of report.notices)
    problems.push(
      `  ${p(n.level === 'error' ? 'red' : 'yellow', n.level === 'error' ? 'allowance error' : 'allowance')}  ${u(oneLine(n.message, 300))}`,
    );
  return problems.length > 0 ? [p('red', 'Other problems in this run:'), ...problems] : [];
}
