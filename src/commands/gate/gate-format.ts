/**
 * The gate report as text: the terminal table (stdout), the Markdown for a pull-request comment or
 * job summary, and the progress line (stderr). Formatting only: everything is computed in
 * core/gate-report.ts.
 */
import { formatDuration } from '../../core/duration.js';
import type { GateReport, GateReportTest } from '../../core/gate/gate-report.js';
import { GATE_VERDICTS } from '../../core/gate/gate-report.js';
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

const ms = (v: number | null): string => (v === null ? '-' : formatDuration(v));
const pct = (v: number | null): string => (v === null ? 'not measured' : `${Math.round(v * 100)}%`);
const avg = (v: readonly number[] | null): string => (v === null ? 'not measured' : (v[0] ?? 0).toFixed(2));

function verdictLabel(t: GateReportTest): string {
  return t.loadSensitive ? `${t.verdict} (load-sensitive)` : t.verdict;
}

function selectionLabel(t: GateReportTest): string {
  const project = t.project ? `project ${t.project}, ` : '';
  return `${project}${selectionKind(t)}`;
}

function selectionKind(t: GateReportTest): string {
  if (t.selection === 'affected') return (t.affectedBy ?? []).length > 0 ? `affected by ${(t.affectedBy ?? []).join(', ')}` : 'affected';
  if (t.previous === null || t.selection === 'changed') return t.selection;
  const from = t.previous.file === t.file ? t.previous.name : `${t.previous.file} > ${t.previous.name}`;
  return `${t.selection} from "${from}"`;
}

/** "5 to 10 cold tries each" (reports from before cold tries have no maxRuns). */
function triesText(report: GateReport): string {
  const max = report.maxRuns ?? report.runs;
  return max > report.runs ? `${report.runs} to ${max} cold tries each` : `${report.runs} tries each`;
}

export function describeLoad(report: GateReport): string {
  const l = report.load;
  if (l.workers === 0) {
    return `load: none (--load 0); the test worker got ${pct(l.testsCpuShare)} of a CPU during its tries (measured, process.cpuUsage)`;
  }
  return [
    `load: ${l.workers} busy worker${l.workers === 1 ? '' : 's'} on ${l.cpus} CPU${l.cpus === 1 ? '' : 's'} (pids ${l.pids.join(', ')})`,
    `took ${pct(l.workersMachineShare)} of the machine (measured, /proc)`,
    `1-min load average ${avg(l.loadavgBefore)} -> ${avg(l.loadavgAfter)} (measured)`,
    `the test worker got ${pct(l.testsCpuShare)} of a CPU during its tries (measured, process.cpuUsage)`,
  ].join('; ');
}

function summary(report: GateReport): string {
  const parts = GATE_VERDICTS.filter((v) => report.counts[v] > 0).map((v) => `${report.counts[v]} ${v}`);
  return `gate ${report.verdict === 'pass' ? 'passed' : 'failed'}: ${parts.join(', ') || 'no tests run'}`;
}

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
    out.push(`${label} ${t.file}:${t.line} > ${t.name}  [${selectionLabel(t)}]`);
    const limit = t.limitSource === 'allowance' ? `allowance ${t.allowanceId ?? ''}`.trim() : 'budget';
    out.push(
      `${' '.repeat(17)}${t.passes}/${t.runs} passed  tries ${t.durationsMs.map((d) => ms(d)).join(' ')}  median ${ms(t.medianMs)}  max ${ms(t.maxMs)}  limit ${ms(t.limitMs)} (${limit})`,
    );
    out.push(`${' '.repeat(17)}${paint(screen, 'dim', t.reason)}`);
    if (t.failureRateText) out.push(`${' '.repeat(17)}${paint(screen, 'dim', t.failureRateText)}`);
    if (t.history) out.push(`${' '.repeat(17)}${paint(screen, 'dim', formatTestPast(t.history))}`);
    if (t.error && t.verdict !== 'stable') out.push(`${' '.repeat(17)}first error: ${t.error}`);
  }
  if (report.notRun.length > 0) {
    out.push('');
    out.push('changed but not run one by one (they do not fail the gate; run them yourself):');
    for (const n of report.notRun) out.push(`  ${n.file}:${n.line} > ${n.name}: ${n.reason}`);
  }
  if (report.proposals.length > 0) {
    out.push('');
    out.push(report.proposals.every((p) => p.written) ? 'allowances written (commit them with the tests):' : 'allowances to add to this change (or run again with --write-allowances):');
    for (const p of report.proposals) {
      out.push(`# ${p.storeFile}${p.written ? ' (written)' : ''}`);
      out.push(p.yaml.trimEnd());
    }
  }
  for (const n of report.notices) out.push(`note: ${n}`);
  out.push('');
  out.push(describeLoad(report));
  out.push(paint(screen, report.verdict === 'pass' ? 'green' : 'red', `${summary(report)} (${ms(report.wallMs)})`));
  return `${out.join('\n')}\n`;
}

const mdEscape = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function formatGateMarkdown(report: GateReport): string {
  const out: string[] = [];
  out.push(`### flakeguard gate: ${report.verdict === 'pass' ? 'passed' : 'failed'}`);
  out.push('');
  out.push(`${report.tests.length} new or changed tests since \`${report.baseRef}\` (\`${report.base.slice(0, 10)}\`), ${triesText(report)}${report.load.workers > 0 ? ` under load (${report.load.workers} busy workers)` : ' without load'}.`);
  out.push('');
  if (report.tests.length > 0) {
    out.push('| verdict | test | selection | passed | median | max | limit | why |');
    out.push('|---|---|---|---|---|---|---|---|');
    for (const t of report.tests) {
      out.push(
        `| ${verdictLabel(t)} | \`${mdEscape(t.file)}:${t.line}\` ${mdEscape(t.name)} | ${mdEscape(selectionLabel(t))} | ${t.passes}/${t.runs} | ${ms(t.medianMs)} | ${ms(t.maxMs)} | ${ms(t.limitMs)} | ${mdEscape(t.reason)}${t.failureRateText ? `; ${mdEscape(t.failureRateText)}` : ''} |`,
      );
    }
    out.push('');
  }
  if (report.notRun.length > 0) {
    out.push('Changed but not run one by one:');
    for (const n of report.notRun) out.push(`- \`${mdEscape(n.file)}:${n.line}\` ${mdEscape(n.name)}: ${mdEscape(n.reason)}`);
    out.push('');
  }
  if (report.proposals.length > 0) {
    out.push('Allowances to ship with this change:');
    out.push('');
    for (const p of report.proposals) {
      out.push(`\`${p.storeFile}\``);
      out.push('```yaml');
      out.push(p.yaml.trimEnd());
      out.push('```');
    }
    out.push('');
  }
  out.push(`<sub>${mdEscape(describeLoad(report))}</sub>`);
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
  const load = p.load > 0 ? `, load ${p.load} workers` : '';
  return `gate ${p.phase}: test ${p.testIndex}/${p.tests} try ${p.attempt} of at most ${p.runs} ${p.state} ${p.name} (${(p.elapsedMs / 1000).toFixed(1)}s${load})`;
}
