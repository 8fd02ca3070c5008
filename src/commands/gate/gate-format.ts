/**
 * The gate report as text: the terminal table (stdout) and the progress line (stderr). Formatting
 * only: everything is computed in core/gate/gate-report.ts; the pull-request comment is
 * core/gate/gate-markdown.ts and the phrases both share are core/gate/gate-phrases.ts.
 */

import { describeCalibration, describeTestOnCi } from '../../core/calibration/calibration-phrases.js';
import { describeCause } from '../../core/cause/cause.js';
import { describeBreakRange } from '../../core/gate/breaking-point.js';
import {
  describeLoad,
  gateSummary,
  ms,
  ownersSuffix,
  selectionLabel,
  triesText,
  verdictLabel,
} from '../../core/gate/gate-phrases.js';
import type { GateContention, GateReport } from '../../core/gate/gate-report.js';
import type { GateReportTest } from '../../core/gate/gate-report-test.js';
import type { GateVerdict } from '../../core/gate/gate-verdict.js';
import { describeFactor } from '../../core/gate/pacer.js';
import { formatContention } from '../../core/gate/slowdown.js';
import { formatTestPast } from '../../core/history/test-history-summary.js';
import { describeReplayOutcome } from '../../core/replay/gate-replay.js';
import { escapeTerminal as u } from '../../core/untrusted-text.js';
import { paint, type Screen, type Style } from '../../io/terminal.js';

const STYLE: Record<GateVerdict, Style> = {
  stable: 'green',
  flaky: 'yellow',
  failing: 'red',
  'order-dependent': 'yellow',
  'over-budget': 'red',
  'near-budget': 'yellow',
  fragile: 'yellow',
  inconclusive: 'red',
};

/** Above this many tests, the text report lists only the tests that are not stable. */
const LIST_ALL_UP_TO = 50;

function describeBreakingPoint(t: GateReportTest): string | null {
  if ((t.holdsAt ?? null) === null && (t.breaksAt ?? null) === null) return null;
  return describeBreakRange(t.holdsAt ?? null, t.breaksAt ?? null);
}

export function formatGateText(report: GateReport, screen: Pick<Screen, 'color'>): string {
  const out: string[] = [formatHeadline(report), ''];
  // Many tests (500 new ones in a file): the stable ones as a count, the others in full.
  const many = report.tests.length > LIST_ALL_UP_TO;
  const listed = many ? report.tests.filter((t) => t.verdict !== 'stable') : report.tests;
  if (many)
    out.push(
      `${report.tests.length - listed.length} stable tests not listed (--json, --markdown and --html have every test)`,
    );
  for (const t of listed) out.push(...formatTestLines(t, screen, report.contention));
  if (report.notRun.length > 0) {
    out.push('');
    out.push('changed but not run one by one (they do not fail the gate; run them yourself):');
    for (const n of report.notRun) out.push(`  ${u(`${n.file}:${n.line} > ${n.fullName}: ${n.reason}`)}`);
  }
  out.push(...formatProposals(report));
  for (const n of report.notices) out.push(`note: ${u(n)}`);
  out.push('');
  out.push(describeLoad(report));
  if (report.contention) out.push(formatContention(report.contention));
  if (report.seed !== null)
    out.push(
      `seed ${report.seed}: each try's random draws derive from it (flakeguard gate --seed ${report.seed}); each try's own seed is in --json`,
    );
  const calibration = report.contention?.calibration;
  if (calibration)
    out.push(
      `slowdown target x${report.contention?.target} (${describeCalibration(calibration, report.contention?.target ?? 1)})`,
    );
  out.push(paint(screen, report.verdict === 'pass' ? 'green' : 'red', `${gateSummary(report)} (${ms(report.wallMs)})`));
  return `${out.join('\n')}\n`;
}

/** The first line: how many tests, since which base, how many tries and under what load. */
function formatHeadline(report: GateReport): string {
  const w = report.load.workers;
  const c = report.contention;
  const at = c && c.target > 1 ? `at ${describeFactor(c.target, c.achieved)} slowdown` : '';
  const loadText =
    [at, w > 0 ? `under load (${w} busy worker${w === 1 ? '' : 's'})` : ''].filter((x) => x !== '').join(' ') ||
    'without load';
  return `flakeguard gate: ${report.tests.length} new or changed test${report.tests.length === 1 ? '' : 's'} since ${u(report.baseRef)} (${report.base.slice(0, 10)}), ${triesText(report)} ${loadText}; ${report.unchanged} unchanged in the changed files`;
}

/** One test: its verdict and place, its figures, why, and where it breaks, its past and first error when known. */
function formatTestLines(t: GateReportTest, screen: Pick<Screen, 'color'>, contention?: GateContention): string[] {
  const indent = ' '.repeat(17);
  const label = paint(screen, STYLE[t.verdict], verdictLabel(t).padEnd(16));
  const limit = t.limitSource === 'allowance' ? `allowance ${t.allowanceId ?? ''}`.trim() : 'budget';
  const out = [
    `${label} ${u(`${t.file}:${t.line} > ${t.fullName}  [${selectionLabel(t)}]`)}${ownersSuffix(t.owners)}`,
    `${indent}${t.passes}/${t.tryCount} passed  tries ${listTries(t.tries)}  median ${ms(t.medianMs)}  max ${ms(t.maxMs)}  limit ${ms(t.limitMs)} (${limit})`,
    `${indent}${paint(screen, 'dim', u(t.reason))}`,
  ];
  const point = describeBreakingPoint(t);
  if (point) out.push(`${indent}${paint(screen, 'dim', point)}`);
  const onCi = describeTestOnCi(t, contention);
  if (onCi) out.push(`${indent}${paint(screen, 'dim', onCi)}`);
  if (t.failureRateText) out.push(`${indent}${paint(screen, 'dim', t.failureRateText)}`);
  if (t.history) out.push(`${indent}${paint(screen, 'dim', formatTestPast(t.history))}`);
  for (const m of t.missing ?? []) out.push(`${indent}missing: ${u(m)}`);
  if (t.cause) out.push(`${indent}${u(describeCause(t.cause))}`, `${indent}fix: ${u(t.cause.fix)}`);
  if (t.replay) out.push(`${indent}replay (${describeReplayOutcome(t.replay)}): ${u(t.replay.command)}`);
  if (t.replay?.uncontrolled) out.push(`${indent}${paint(screen, 'dim', u(t.replay.uncontrolled))}`);
  if (t.error && t.verdict !== 'stable') out.push(`${indent}first error: ${u(t.error)}`);
  return out;
}

/** The proposed allowances as YAML under their file, written or to add. */
function formatProposals(report: GateReport): string[] {
  if (report.proposals.length === 0) return [];
  const out = [
    '',
    report.proposals.every((p) => p.written)
      ? 'allowances written (commit them with the tests):'
      : 'allowances to add to this change (or run again with --write-allowances):',
  ];
  for (const p of report.proposals) {
    out.push(`# ${p.storeFile}${p.written ? ' (written)' : ''}`);
    out.push(p.yaml.trimEnd());
  }
  return out;
}

export interface GateProgress {
  readonly phase: string;
  readonly testIndex: number;
  readonly tests: number;
  readonly attempt: number;
  readonly maxTries: number;
  readonly label: string;
  readonly state: string;
  readonly elapsedMs: number;
  readonly load: number;
}

export function formatGateProgress(p: GateProgress): string {
  const load = p.load > 0 ? `, load ${p.load} workers` : '';
  return `gate ${p.phase}: test ${p.testIndex}/${p.tests} try ${p.attempt} of at most ${p.maxTries} ${p.state} ${u(p.label)} (${(p.elapsedMs / 1000).toFixed(1)}s${load})`;
}

/** Tries shown by their durations in the text report; the JSON keeps every one. */
const TRIES_SHOWN = 12;

/** "14ms 9ms ... (+138 more)": the first TRIES_SHOWN, then how many more. */
function listTries(tries: readonly { readonly durationMs: number }[]): string {
  const shown = tries.slice(0, TRIES_SHOWN).map((x) => ms(x.durationMs));
  const more = tries.length - shown.length;
  return more > 0 ? `${shown.join(' ')} (+${more} more)` : shown.join(' ');
}
