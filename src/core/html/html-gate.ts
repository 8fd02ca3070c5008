/**
 * The gate report as one self-contained HTML page: the verdict and its counts, the load during the
 * gate, a chart of every test's tries against its limit, each test's figures, the proposed
 * allowances and the notes. Pure: takes exactly what `flakeguard gate --json` prints.
 */

import { describeCalibration, describeTestOnCi } from '../calibration/calibration-phrases.js';
import { describeCause } from '../cause/cause.js';
import { GATE_VERDICTS, type GateContention, type GateReport } from '../gate/gate-report.js';
import type { GateReportTest } from '../gate/gate-report-test.js';
import type { GateVerdict } from '../gate/gate-verdict.js';
import type { SelectionKind } from '../gate/test-selection.js';
import { formatOwners } from '../owners/codeowners.js';
import { describeReplayOutcome } from '../replay/gate-replay.js';
import { type ChartSeries, renderChartLegend, renderTryChart, type TryMark } from './html-chart.js';
import {
  badge,
  countTile,
  foldedPre,
  formatPercent,
  formatTime,
  h,
  plural,
  renderPage,
  type Tone,
} from './html-page.js';

export type GateHtmlTest = GateReportTest;

/** The gate JSON (core/gate/gate-report.ts GATE_REPORT_VERSION). */
export type GateHtmlReport = GateReport;

export interface GateHtmlOptions {
  /** budget.warnAt from flakeguard.yaml (share of the limit, 0.8 = 80%); else the report's, else 0.8. */
  readonly warnAt?: number;
}

/** flakeguard.yaml's default budget.warnAt. */
const DEFAULT_WARN_AT = 0.8;

const VERDICT_TONE: Readonly<Record<GateVerdict, Tone>> = {
  stable: 'good',
  flaky: 'warn',
  failing: 'bad',
  'order-dependent': 'accent',
  'over-budget': 'bad',
  'near-budget': 'warn',
  fragile: 'warn',
  inconclusive: 'bad',
};

const SELECTION_TONE: Readonly<Record<SelectionKind, Tone>> = {
  new: 'info',
  changed: 'accent',
  renamed: 'muted',
  moved: 'muted',
  affected: 'muted',
};

/** Which tries failed: each try's own state (a skipped try is not a pass). */
export function tryMarks(t: GateHtmlTest): TryMark[] {
  return t.tries.map((x) => (x.state === 'passed' ? 'passed' : 'failed'));
}

function toSeries(t: GateHtmlTest, warnAt: number): ChartSeries {
  const marks = tryMarks(t);
  return {
    id: `${t.file} > ${t.fullName}`,
    label: t.fullName,
    sublabel: `${t.file}:${t.line}`,
    tries: t.tries.map((x, i) => ({ durationMs: x.durationMs, mark: marks[i] ?? 'unknown' })),
    limitMs: t.limitMs,
    warnAt,
    note: t.tryCount === 0 ? t.reason : null,
    tag: { text: t.loadSensitive ? `${t.verdict} \u00b7 load` : t.verdict, tone: VERDICT_TONE[t.verdict] },
  };
}

function ownersText(owners: readonly string[] | undefined): string {
  const text = formatOwners(owners);
  return text === '' ? '' : ` \u00b7 ${text}`;
}

function selectionText(t: GateReportTest): string {
  if (t.previous === null) return '';
  const from = t.previous.file === t.file ? t.previous.fullName : `${t.previous.file} > ${t.previous.fullName}`;
  return ` \u00b7 ${t.selection} from \u201c${from}\u201d`;
}

function testCard(t: GateHtmlTest, report: Pick<GateReport, 'contention'>): string {
  const onCi = describeTestOnCi(t, report.contention);
  const tone = VERDICT_TONE[t.verdict];
  const limit = t.limitSource === 'allowance' ? `allowance${t.allowanceId ? ` ${t.allowanceId}` : ''}` : 'budget';
  const figures = [
    `<span><b>${t.passes}/${t.tryCount}</b> passed</span>`,
    `<span>median <b>${h(t.medianMs === null ? '-' : formatTime(t.medianMs))}</b></span>`,
    `<span>max <b>${h(t.maxMs === null ? '-' : formatTime(t.maxMs))}</b></span>`,
    `<span>limit <b>${h(formatTime(t.limitMs))}</b> <span class="dim">(${h(limit)})</span></span>`,
  ];
  if (t.idle) figures.push(`<span>without load <b>${t.idle.passes}/${t.idle.tryCount}</b> passed</span>`);
  if (t.alone) figures.push(`<span>alone <b>${t.alone.passes}/${t.alone.tryCount}</b> passed</span>`);
  const unknown = tryMarks(t).includes('unknown')
    ? '<p class="dim">The report says how many tries failed, not which: the chart draws them grey.</p>'
    : '';
  return [
    `<article class="card ${tone}">`,
    '<div class="head">',
    badge(tone, t.verdict),
    t.loadSensitive ? badge('warn', 'load-sensitive', 'failed every try under load, passed some without load') : '',
    badge(SELECTION_TONE[t.selection], t.selection),
    `<h3>${h(t.fullName)}</h3>`,
    '</div>',
    `<div class="where">${h(`${t.file}:${t.line}${selectionText(t)}${ownersText(t.owners)}`)}</div>`,
    `<div class="figures">${figures.join('')}</div>`,
    `<p>${h(t.reason)}</p>`,
    t.failureRateText ? `<p class="dim">${h(t.failureRateText)}</p>` : '',
    onCi ? `<p class="dim">${h(onCi)}</p>` : '',
    ...(t.missing ?? []).map((m) => `<p class="missing"><b>missing:</b> ${h(m)}</p>`),
    t.cause ? `<p class="cause">${h(describeCause(t.cause))}</p><p><b>fix:</b> ${h(t.cause.fix)}</p>` : '',
    t.replay
      ? `<p class="replay"><b>replay (${h(describeReplayOutcome(t.replay))}):</b> <code>${h(t.replay.command)}</code>${t.replay.uncontrolled ? ` <span class="dim">${h(t.replay.uncontrolled)}</span>` : ''}</p>`
      : '',
    unknown,
    t.error !== null && t.verdict !== 'stable' ? foldedPre('First error', t.error.split('\n')) : '',
    '</article>',
  ].join('');
}

function loadPanel(report: GateReport): string {
  const l = report.load;
  const fact = (label: string, value: string): string => `<div><dt>${h(label)}</dt><dd>${h(value)}</dd></div>`;
  const avg = (v: readonly number[] | null): string => (v === null || v[0] === undefined ? '?' : v[0].toFixed(2));
  const facts =
    l.workers === 0
      ? [
          fact('synthetic load', 'none (--load 0)'),
          fact('CPUs', String(l.cpus)),
          fact('test worker CPU share', `${formatPercent(l.testsCpuShare)} of a CPU`),
        ]
      : [
          fact('synthetic load', `${plural(l.workers, 'busy worker')} on ${plural(l.cpus, 'CPU')}`),
          fact('load workers took', `${formatPercent(l.workersMachineShare)} of the machine`),
          fact(
            '1-min load average',
            l.loadavgBefore === null && l.loadavgAfter === null
              ? 'not measured'
              : `${avg(l.loadavgBefore)} \u2192 ${avg(l.loadavgAfter)}`,
          ),
          fact('test worker CPU share', `${formatPercent(l.testsCpuShare)} of a CPU`),
        ];
  const pids =
    l.pids.length > 0
      ? `<p class="dim">Load worker pids: ${h(l.pids.join(', '))} (all stopped when the gate ended).</p>`
      : '';
  return `<section class="panel"><dl class="facts">${facts.join('')}</dl>${pids}<p class="dim">Measured: load average from os.loadavg(), machine share from /proc, the test worker's share from its CPU time over wall time (Node's cpuUsage).</p></section>`;
}

function proposalsSection(report: GateReport): string {
  if (report.proposals.length === 0) return '';
  const all = report.proposals.every((p) => p.written);
  const intro = all
    ? 'Written by --write-allowances: commit them with the tests.'
    : 'Add these to the change (or run the gate again with --write-allowances), so the allowance ships with the test.';
  const items = report.proposals.map(
    (p) =>
      `<article class="card warn"><div class="head">${badge(p.written ? 'good' : 'warn', p.written ? 'written' : 'to add')}<h3>${h(p.fullName)}</h3></div>` +
      `<div class="where">${h(`${p.storeFile} \u00b7 limit ${formatTime(p.limitMs)} on ${p.platformKey}`)}</div><p class="dim">${h(p.reason)}</p><pre>${h(p.yaml.trimEnd())}</pre></article>`,
  );
  return `<h2>Proposed allowances</h2><p>${h(intro)}</p><div class="cards">${items.join('')}</div>`;
}

/** With auto, the target and how it was chosen. */
function calibrationLine(c: GateContention | undefined): string {
  return c?.calibration
    ? `<p class="sub">${h(`slowdown x${c.target} (${describeCalibration(c.calibration, c.target)})`)}</p>`
    : '';
}

function listSection(title: string, items: readonly string[]): string {
  return items.length === 0
    ? ''
    : `<h2>${h(title)}</h2><ul class="plain">${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;
}

export function renderGateHtml(report: GateHtmlReport, options: GateHtmlOptions = {}): string {
  const warnAt = options.warnAt ?? report.warnAt ?? DEFAULT_WARN_AT;
  const pass = report.verdict === 'pass';
  const n = report.tests.length;
  const loadText =
    report.load.workers > 0 ? `under load (${plural(report.load.workers, 'busy worker')})` : 'without load';
  const meta = [
    report.platform,
    report.vitestVersion === null ? null : `Vitest ${report.vitestVersion}`,
    `took ${formatTime(report.wallMs)}`,
  ].filter((x) => x !== null);
  const tiles = GATE_VERDICTS.map((v) => countTile(VERDICT_TONE[v], report.counts[v] ?? 0, v));
  if (report.notRun.length > 0) tiles.push(countTile('muted', report.notRun.length, 'not run'));
  const body = [
    `<header class="top"><h1>flakeguard gate</h1><span class="verdict ${pass ? 'good' : 'bad'}">${pass ? 'passed' : 'failed'}</span></header>`,
    `<p class="sub">${h(`${plural(n, 'new or changed test')} since ${report.baseRef} (${report.base.slice(0, 10)}), ${plural(report.tries, 'try', 'tries')} each ${loadText}; ${report.unchanged} unchanged in the changed files.`)}</p>`,
    `<p class="sub">${h(meta.join(' \u00b7 '))}</p>${calibrationLine(report.contention)}`,
    `<div class="tiles">${tiles.join('')}</div>`,
    '<h2>Tries against their limits</h2>',
    renderChartLegend(
      warnAt,
      report.tests.some((t) => tryMarks(t).includes('unknown')),
    ),
    `<div class="chart">${renderTryChart(
      report.tests.map((t) => toSeries(t, warnAt)),
      `each test's tries against its limit, in seconds`,
    )}</div>`,
    '<h2>Load during the gate</h2>',
    loadPanel(report),
    n > 0 ? `<h2>Tests</h2><div class="cards">${report.tests.map((t) => testCard(t, report)).join('')}</div>` : '',
    proposalsSection(report),
    listSection(
      'Changed but not run one by one',
      report.notRun.map(
        (r) => `<code>${h(`${r.file}:${r.line}`)}</code> ${h(r.fullName)}: <span class="dim">${h(r.reason)}</span>`,
      ),
    ),
    listSection(
      'Notes',
      report.notices.map((x) => h(x)),
    ),
  ].join('\n');
  return renderPage({
    title: `flakeguard gate ${pass ? 'passed' : 'failed'}: ${plural(n, 'test')}`,
    tone: pass ? 'good' : 'bad',
    body,
    footer: `flakeguard gate report \u00b7 JSON schema version ${report.version} \u00b7 base ${report.base}`,
  });
}
