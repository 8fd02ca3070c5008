/**
 * Phrases the gate's terminal table, its Markdown comment and its HTML share: a test's verdict and
 * selection, the tries, the load. Pure.
 */
import { formatDuration } from '../duration.js';
import { formatOwners } from '../owners/codeowners.js';
import { GATE_VERDICTS, type GateReport } from './gate-report.js';
import type { GateReportTest } from './gate-report-test.js';

export const ms = (v: number | null): string => (v === null ? '-' : formatDuration(v));
const pct = (v: number | null): string => (v === null ? 'not measured' : `${Math.round(v * 100)}%`);
const avg = (v: readonly number[] | null): string => (v === null ? 'not measured' : (v[0] ?? 0).toFixed(2));

export function verdictLabel(t: GateReportTest): string {
  return t.loadSensitive ? `${t.verdict} (load-sensitive)` : t.verdict;
}

export function selectionLabel(t: GateReportTest): string {
  const project = t.project ? `project ${t.project}, ` : '';
  return `${project}${selectionKind(t)}`;
}

function selectionKind(t: GateReportTest): string {
  if (t.selection === 'affected')
    return (t.affectedBy ?? []).length > 0 ? `affected by ${(t.affectedBy ?? []).join(', ')}` : 'affected';
  if (t.previous === null || t.selection === 'changed') return t.selection;
  const from = t.previous.file === t.file ? t.previous.fullName : `${t.previous.file} > ${t.previous.fullName}`;
  return `${t.selection} from "${from}"`;
}

/** The cost tiers the tries are told by: a test's median try under each bound. */
const TIERS: readonly { readonly underMs: number; readonly label: string }[] = [
  { underMs: 50, label: 'under 50ms' },
  { underMs: 1000, label: '50ms-1s' },
  { underMs: Number.POSITIVE_INFINITY, label: '1s and over' },
];

/**
 * "3-5 cold tries each, then warm repeats up to 150: 38-150 for tests under 50ms, 5-6 for 1s and
 * over", or "5 to 10 tries each" when it has no tests to tell tiers by (reports from before cold
 * tries have no maxTries). The cold tries are counted in the reference tries (`cold` not false):
 * a cheap test that passed its first ones makes up the rest with warm repeats.
 */
export function triesText(report: GateReport): string {
  const max = report.maxTries ?? report.tries;
  if (max <= report.tries) return `${report.tries} tries each`;
  const tiers = TIERS.map((tier, i) => {
    const low = i === 0 ? 0 : (TIERS[i - 1]?.underMs ?? 0);
    const counts = report.tests
      .filter((t) => t.medianMs !== null && t.medianMs >= low && t.medianMs < tier.underMs)
      .map((t) => t.tryCount);
    if (counts.length === 0) return null;
    const lo = Math.min(...counts);
    const hi = Math.max(...counts);
    return `${lo === hi ? lo : `${lo}-${hi}`} for tests ${tier.label}`;
  }).filter((x) => x !== null);
  if (tiers.length === 0) return `${report.tries} to ${max} tries each`;
  return `${coldRange(report)} cold tries each, then warm repeats up to ${max}: ${tiers.join(', ')}`;
}

/** "3-5": the fewest and most cold tries (a fresh worker each) a run test got at the reference. */
function coldRange(report: GateReport): string {
  const counts = report.tests
    .filter((t) => t.tries.length > 0)
    .map((t) => t.tries.filter((x) => x.cold !== false).length);
  if (counts.length === 0) return String(report.tries);
  const lo = Math.min(...counts);
  const hi = Math.max(...counts);
  return lo === hi ? String(lo) : `${lo}-${hi}`;
}

export function describeLoad(report: GateReport): string {
  const l = report.load;
  if (l.workers === 0) {
    return `load: none (--load 0); the test worker got ${pct(l.testsCpuShare)} of a CPU during its tries (measured over each try's process tree, /proc)`;
  }
  return [
    `load: ${l.workers} busy worker${l.workers === 1 ? '' : 's'} on ${l.cpus} CPU${l.cpus === 1 ? '' : 's'} (pids ${l.pids.join(', ')})`,
    `took ${pct(l.workersMachineShare)} of the machine (measured, /proc)`,
    `1-min load average ${avg(l.loadavgBefore)} -> ${avg(l.loadavgAfter)} (measured)`,
    `the test worker got ${pct(l.testsCpuShare)} of a CPU during its tries (measured over each try's process tree, /proc)`,
  ].join('; ');
}

export function gateSummary(report: GateReport): string {
  const parts = GATE_VERDICTS.filter((v) => report.counts[v] > 0).map((v) => `${report.counts[v]} ${v}`);
  return `gate ${report.verdict === 'pass' ? 'passed' : 'failed'}: ${parts.join(', ') || 'no tests run'}`;
}

/** The tests that are not stable, the most serious verdict first (failing, flaky, ... near-budget). */
export function unstableFirst(report: GateReport): GateReportTest[] {
  const rank = (t: GateReportTest): number => GATE_VERDICTS.indexOf(t.verdict);
  return report.tests.filter((t) => t.verdict !== 'stable').sort((a, b) => rank(a) - rank(b));
}

/** ` (owners: @org/web)`, or nothing for a test without owners. */
export function ownersSuffix(owners: readonly string[] | undefined): string {
  const text = formatOwners(owners);
  return text === '' ? '' : ` (${text})`;
}
