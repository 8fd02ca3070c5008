/**
 * The gate report as text: the terminal table (stdout) and the progress line (stderr). Formatting
 * only: everything is computed in core/gate/gate-report.ts; the pull-request comment is
 * core/gate/gate-markdown.ts and the phrases both share are core/gate/gate-phrases.ts.
 */
import { escapeTerminal as u } from '../../core/untrusted-text.js';
import type { GateReport } from '../../core/gate/gate-report.js';
import { describeLoad, gateSummary, ms, ownersSuffix, selectionLabel, triesText, verdictLabel } from '../../core/gate/gate-phrases.js';
import type { GateVerdict } from '../../core/gate/gate-verdict.js';
import { paint, type Screen, type Style } from '../../io/terminal.js';
import { formatTestPast } from '../../core/history/test-history-summary.js';

const STYLE: Record<GateVerdict, Style> = {
  stable: 'green',
  flaky: 'yellow',
  failing: 'red',
  'order-dependent': 'yellow',
  'over-budget': 'red',
  'near-budget': 'yellow',
};

export function formatGateText(report: GateReport, screen: Pick<Screen, 'color'>): string {
  const out: string[] = [];
  const w = report.load.workers;
  const loadText = w > 0 ? `under load (${w} busy worker${w === 1 ? '' : 's'})` : 'without load';
  out.push(
    `flakeguard gate: ${report.tests.length} new or changed test${report.tests.length === 1 ? '' : 's'} since ${report.baseRef} (${report.base.slice(0, 10)}), ${triesText(report)} ${loadText}; ${report.unchanged} unchanged in the changed files`,
  );
  out.push('');
  for (const t of report.tests) {
    const label = paint(screen, STYLE[t.verdict], verdictLabel(t).padEnd(16));
    out.push(`${label} ${u(`${t.file}:${t.line} > ${t.name}  [${selectionLabel(t)}]`)}${ownersSuffix(t.owners)}`);
    const limit = t.limitSource === 'allowance' ? `allowance ${t.allowanceId ?? ''}`.trim() : 'budget';
    out.push(
      `${' '.repeat(17)}${t.passes}/${t.runs} passed  tries ${t.durationsMs.map((d) => ms(d)).join(' ')}  median ${ms(t.medianMs)}  max ${ms(t.maxMs)}  limit ${ms(t.limitMs)} (${limit})`,
    );
    out.push(`${' '.repeat(17)}${paint(screen, 'dim', u(t.reason))}`);
    if (t.failureRateText) out.push(`${' '.repeat(17)}${paint(screen, 'dim', t.failureRateText)}`);
    if (t.history) out.push(`${' '.repeat(17)}${paint(screen, 'dim', formatTestPast(t.history))}`);
    if (t.error && t.verdict !== 'stable') out.push(`${' '.repeat(17)}first error: ${u(t.error)}`);
  }
  if (report.notRun.length > 0) {
    out.push('');
    out.push('changed but not run one by one (they do not fail the gate; run them yourself):');
    for (const n of report.notRun) out.push(`  ${u(`${n.file}:${n.line} > ${n.name}: ${n.reason}`)}`);
  }
  if (report.proposals.length > 0) {
    out.push('');
    out.push(report.proposals.every((p) => p.written) ? 'allowances written (commit them with the tests):' : 'allowances to add to this change (or run again with --write-allowances):');
    for (const p of report.proposals) {
      out.push(`# ${p.storeFile}${p.written ? ' (written)' : ''}`);
      out.push(p.yaml.trimEnd());
    }
  }
  for (const n of report.notices) out.push(`note: ${u(n)}`);
  out.push('');
  out.push(describeLoad(report));
  out.push(paint(screen, report.verdict === 'pass' ? 'green' : 'red', `${gateSummary(report)} (${ms(report.wallMs)})`));
  return `${out.join('\n')}\n`;
}

export interface GateProgress {
  readonly phase: string;
  readonly testIndex: number;
  readonly tests: number;
  readonly attempt: number;
  readonly runs: number;
  readonly name: string;
  readonly state: string;
  readonly elapsedMs: number;
  readonly load: number;
}

export function formatGateProgress(p: GateProgress): string {
  const load = p.load > 0 ? `load ${p.load} workers` : 'no load';
  return `gate ${p.phase}: test ${p.testIndex}/${p.tests} try ${p.attempt}/${p.runs} ${p.state} ${u(p.name)} (${(p.elapsedMs / 1000).toFixed(1)}s, ${load})`;
}
