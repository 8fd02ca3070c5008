/**
 * The history report for people: the terminal and a Markdown file (a step summary or a pull-request
 * comment). Pure; the same phrases serve both, and the HTML page.
 */

import { describeCause } from '../cause/cause.js';
import { formatDuration } from '../duration.js';
import { formatRatePercent } from '../failure-rate.js';
import { formatOwners } from '../owners/codeowners.js';
import { projectTag } from '../test-id.js';
import { escapeTerminal as u } from '../untrusted-text.js';
import { describeTestMachines } from './history-machines.js';
import { type HistoryPlatform, type HistoryReport, type HistoryTest, nearestFirst } from './history-report.js';
import { NEAR_HORIZON_DAYS, NEAR_HORIZON_RUNS } from './history-trend.js';
import { describeDurationTrend } from './history-trend-text.js';

/** "4.90s of 5s (linux median; p95 4.95s)". */
export function describeDurations(p: HistoryPlatform): string {
  return `${formatDuration(p.durationMs.median)} of ${formatDuration(p.limitMs)} (${p.platform} median of ${p.runs}; p95 ${formatDuration(p.durationMs.p95)})`;
}

/** "+40ms a day (95% CI +31ms to +52ms; +12ms a run): crosses in about 2.5 days (1.9 to 3.4)": history-trend-text.ts. */
export function describeTrend(p: HistoryPlatform): string {
  return p.trend === null
    ? 'trend not fitted (not among the tests nearest their limit)'
    : describeDurationTrend(p.trend);
}

/** "2 of 40 runs flaky (5%; below 16.9% at 95% confidence): 1 failed, 1 passed on retry". */
export function describeFlakes(t: HistoryTest): string {
  const upper = t.flakeRateUpper ?? 1;
  const bound = upper >= 1 ? '' : `; below ${formatRatePercent(upper)} at 95% confidence`;
  const rate = t.flakeRate === null ? '' : ` (${formatRatePercent(t.flakeRate)}${bound})`;
  const parts = [`${t.failedRuns} failed`, `${t.retriedRuns} passed on retry`];
  const rerun = t.flakyRuns - t.retriedRuns;
  if (rerun > 0) parts.push(`${rerun} failed on a commit that passed on a re-run`);
  return `${t.flakyRuns} of ${t.runs} runs flaky${rate}: ${parts.join(', ')}`;
}

/** "why: timing (inferred): …" and "fix: …" for a test with flaky runs that its runs tell a class for. */
export function causeLines(t: HistoryTest): string[] {
  if (!t.cause || t.cause.class === 'unknown') return [];
  return [describeCause(t.cause, 'why'), `fix: ${t.cause.fix}`];
}

function header(report: HistoryReport): string {
  const branch = report.branch === null ? 'every branch' : `branch ${report.branch}`;
  return `flakeguard history since ${report.since} (${branch}): ${report.runs} run${report.runs === 1 ? '' : 's'}`;
}

function testLines(t: HistoryTest, indent: string): string[] {
  const project = projectTag(t.project);
  const owners = formatOwners(t.owners);
  const lines = [
    `${indent}${u(`${t.file}${project}  ${t.fullName}`)}${owners === '' ? '' : `  (${owners})`}`,
    `${indent}  ${describeFlakes(t)}`,
    ...causeLines(t).map((l) => `${indent}  ${u(l)}`),
  ];
  for (const p of t.platforms) lines.push(`${indent}  ${describeDurations(p)}, ${describeTrend(p)}`);
  if (t.platforms.length === 0) lines.push(`${indent}  no passing run with a duration in the window`);
  const machines = describeTestMachines(t.machines ?? []);
  if (machines !== '') lines.push(`${indent}  ${u(machines)}`);
  return lines;
}

export function formatHistoryReport(report: HistoryReport): string {
  const out = [header(report)];
  if (report.runs === 0) return `${out[0]}\nNo runs in the window: widen --since, or check --branch.\n`;
  const section = (title: string, tests: readonly HistoryTest[], empty: string): void => {
    out.push('', title);
    if (tests.length === 0) out.push(`  ${empty}`);
    for (const t of tests) out.push(...testLines(t, '  '));
  };
  if (report.view === 'filtered') {
    section(`Matching tests (${report.tests.length}):`, report.tests, 'no test matches --test/--file in the window');
  } else {
    section(
      'Flakiest:',
      report.tests.filter((t) => t.listedFor.includes('flaky')),
      'no test failed a try in the window',
    );
    const rule = `recent p95 at or above ${Math.round(report.warnAt * 100)}% of it, or a crossing projected within ${NEAR_HORIZON_DAYS} days (${NEAR_HORIZON_RUNS} runs)`;
    section(
      'Near their limit:',
      nearestFirst(report.tests.filter((t) => t.listedFor.includes('near-limit'))),
      `no test near its limit (${rule})`,
    );
  }
  return `${out.join('\n')}\n`;
}

const cell = (text: string): string => u(text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' '));

export function formatHistoryMarkdown(report: HistoryReport): string {
  const out = [`### ${cell(header(report))}`, ''];
  if (report.tests.length === 0) return `${out.join('\n')}No test to show in the window.\n`;
  out.push(
    '| Test | Runs | Flaky runs | Flake rate (95% bound) | Median / p95 | Limit | Trend |',
    '| --- | ---: | ---: | --- | --- | --- | --- |',
  );
  for (const t of report.tests) {
    const head = t.platforms[0];
    const rate =
      t.flakeRate === null ? '-' : `${formatRatePercent(t.flakeRate)} (< ${formatRatePercent(t.flakeRateUpper ?? 1)})`;
    const durations = head
      ? `${formatDuration(head.durationMs.median)} / ${formatDuration(head.durationMs.p95)} (${head.platform})`
      : '-';
    out.push(
      `| \`${cell(t.file)}\` ${cell(t.fullName)}${(t.owners ?? []).length > 0 ? ` (${cell(formatOwners(t.owners))})` : ''} | ${t.runs} | ${t.flakyRuns} | ${rate} | ${durations} | ${head ? formatDuration(head.limitMs) : '-'} | ${head ? cell(describeTrend(head)) : '-'} |`,
    );
  }
  const why = report.tests.filter((t) => causeLines(t).length > 0);
  if (why.length > 0) out.push('');
  for (const t of why) out.push(`- \`${cell(t.file)}\` ${cell(t.fullName)}: ${causeLines(t).map(cell).join('; ')}`);
  return `${out.join('\n')}\n`;
}
