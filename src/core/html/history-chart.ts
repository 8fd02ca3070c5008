/**
 * The chart of one test's runs on one platform: its durations over the runs (oldest on the left) on
 * a y axis fitted to its own durations, the limit as a line when it is in that range (else an arrow
 * with its value at the top), failed runs as crosses and the rolling median as a line. Up to
 * MAX_MARKS runs get a mark each; more are binned into BINS marks (the median of the bin's passed
 * runs, a bar from its fastest to its slowest, a cross when one of them failed), so 1,000 runs draw
 * a few hundred SVG nodes, not thousands. Pure; every label is escaped.
 */
import { median } from 'simple-statistics';
import type { HistoryPlatform, SeriesPoint } from '../history/history-platform.js';
import { formatTime, h, plural } from './html-page.js';
import { TONE_COLOURS } from './html-style.js';

const W = 960;
const H = 180;
const PAD = { left: 60, right: 20, top: 22, bottom: 26 };
const NEAR = '#f08c00';
const MEDIAN = '#1c7ed6';
export const MAX_MARKS = 150;
export const BINS = 100;
/** The limit is drawn in the chart when it is at most this many times the slowest run; else marked above it. */
const LIMIT_IN_RANGE = 2;

export const HISTORY_CHART_CSS = `.history-chart{display:block;width:100%;height:auto}.history-chart .axis{font:11px var(--mono);fill:#59636e}
.history-chart .grid{stroke:#eef1f4}.history-chart .zero{stroke:#adb5bd}.history-chart .limit{stroke:${TONE_COLOURS.bad};stroke-width:2}
.history-chart .limit-label{font:700 11px var(--sans);fill:${TONE_COLOURS.bad}}.history-chart .limit-off path{fill:${TONE_COLOURS.bad}}
.history-chart .run.passed{fill:${TONE_COLOURS.good}}.history-chart .run.near{fill:${NEAR}}.history-chart .run.over{fill:${TONE_COLOURS.bad}}
.history-chart .run.failed{stroke:${TONE_COLOURS.bad};stroke-width:2.5;fill:none}.history-chart .range{stroke:#8ce99a;stroke-width:2}
.history-chart .median{fill:none;stroke:${MEDIAN};stroke-width:2;stroke-opacity:.8}`;

/** A round step (1, 2, 2.5 or 5 times a power of ten) that gives about four ticks up to `top`. */
function niceStep(top: number): number {
  const raw = top / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 2.5, 5, 10].find((m) => m * power >= raw - 1e-12) ?? 10) * power;
}

/** One mark: a run, or a bin of consecutive runs. */
interface Mark {
  readonly from: number;
  readonly to: number;
  readonly passed: readonly number[];
  readonly failed: readonly number[];
}

function marksOf(points: readonly SeriesPoint[]): Mark[] {
  const bins = points.length <= MAX_MARKS ? points.length : BINS;
  return Array.from({ length: bins }, (_, b) => {
    const from = Math.floor((b * points.length) / bins);
    const to = Math.floor(((b + 1) * points.length) / bins) - 1;
    const slice = points.slice(from, to + 1);
    return {
      from,
      to,
      passed: slice.filter((s) => s.state === 'passed').map((s) => s.durationMs),
      failed: slice.filter((s) => s.state === 'failed').map((s) => s.durationMs),
    };
  });
}

/** The centred rolling median of the passed durations, at each passed run's index. */
function rollingMedian(points: readonly SeriesPoint[]): { index: number; ms: number }[] {
  const passed = points.flatMap((s, index) => (s.state === 'passed' ? [{ index, ms: s.durationMs }] : []));
  const half = Math.max(1, Math.min(25, Math.floor(passed.length / 20)));
  if (passed.length < 3) return [];
  return passed.map((p, i) => ({
    index: p.index,
    ms: median(passed.slice(Math.max(0, i - half), i + half + 1).map((q) => q.ms)),
  }));
}

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/** The chart's scale: where a run and a duration are drawn, the top and step of the y axis, whether the limit is in range. */
interface Scale {
  readonly x: (i: number) => number;
  readonly y: (ms: number) => number;
  readonly top: number;
  readonly step: number;
  readonly limitIn: boolean;
}

const f = (v: number): string => v.toFixed(1);

export function renderHistoryChart(p: HistoryPlatform, title: string, warnAt: number): string {
  const points = p.points;
  if (points.length === 0) return '<p class="dim">No run with a duration in the window.</p>';
  const scale = scaleChart(p);
  const binned = points.length > MAX_MARKS;
  const marks = marksOf(points);
  const parts = [
    ...drawGrid(scale),
    drawLimit(p, scale),
    // The rolling median first, so the marks are drawn over it.
    ...drawRollingMedian(points, marks, binned, scale),
    ...marks.flatMap((m) => drawMark(m, p, warnAt, binned, scale)),
  ];
  const footer = binned
    ? `newest (${plural(points.length, 'run')}; each mark: the median of about ${Math.round(points.length / BINS)} runs)`
    : `newest (${plural(points.length, 'run')})`;
  parts.push(
    `<text class="axis" x="${PAD.left}" y="${H - 6}">oldest</text><text class="axis" x="${W - PAD.right}" y="${H - 6}" text-anchor="end">${h(footer)}</text>`,
  );
  return `<svg class="history-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" role="img" aria-label="${h(title)}">${parts.join('')}</svg>`;
}

function scaleChart(p: HistoryPlatform): Scale {
  const points = p.points;
  const slowest = Math.max(...points.map((s) => s.durationMs), 0);
  const limitIn = p.limitMs > 0 && p.limitMs <= Math.max(slowest, 1) * LIMIT_IN_RANGE;
  const want = Math.max(slowest * 1.1, limitIn ? p.limitMs * 1.08 : 0, 1);
  const step = niceStep(want);
  const top = Math.ceil(want / step - 1e-9) * step;
  const plotW = W - PAD.left - PAD.right;
  const x = (i: number): number => PAD.left + (points.length === 1 ? 0.5 : i / (points.length - 1)) * plotW;
  const y = (ms: number): number => PAD.top + (1 - Math.min(Math.max(ms, 0), top) / top) * (H - PAD.top - PAD.bottom);
  return { x, y, top, step, limitIn };
}

function drawGrid({ y, top, step }: Scale): string[] {
  const parts: string[] = [];
  for (let ms = 0; ms <= top + 1e-9; ms += step) {
    parts.push(
      `<line class="${ms === 0 ? 'zero' : 'grid'}" x1="${PAD.left}" x2="${W - PAD.right}" y1="${f(y(ms))}" y2="${f(y(ms))}"/>`,
    );
    parts.push(
      `<text class="axis" x="${PAD.left - 6}" y="${f(y(ms) + 4)}" text-anchor="end">${h(formatTime(ms))}</text>`,
    );
  }
  return parts;
}

/** The limit as a line, or, when it is far above the slowest run, a mark at the top. */
function drawLimit(p: HistoryPlatform, { y, limitIn }: Scale): string {
  if (limitIn) {
    const ly = f(y(p.limitMs));
    return (
      `<line class="limit" x1="${PAD.left}" x2="${W - PAD.right}" y1="${ly}" y2="${ly}"/>` +
      `<text class="limit-label" x="${W - PAD.right}" y="${f(Number(ly) - 4)}" text-anchor="end">limit ${h(formatTime(p.limitMs))}</text>`
    );
  }
  const ax = W - PAD.right - 6;
  return (
    `<g class="limit-off" data-limit-ms="${p.limitMs}"><path d="M${ax} 3L${ax + 5} 11L${ax - 5} 11Z"/>` +
    `<text class="limit-label" x="${ax - 9}" y="12" text-anchor="end">limit ${h(formatTime(p.limitMs))} (above the chart)</text></g>`
  );
}

function drawRollingMedian(
  points: readonly SeriesPoint[],
  marks: readonly Mark[],
  binned: boolean,
  { x, y }: Scale,
): string[] {
  const rolling = rollingMedian(points);
  const sampled = binned
    ? marks
        .map((m) => rolling.find((r) => r.index >= (m.from + m.to) / 2) ?? rolling.at(-1))
        .filter((r) => r !== undefined)
    : rolling;
  if (sampled.length < 2) return [];
  const d = sampled.map((r) => `${f(x(r.index))},${f(y(r.ms))}`).join(' ');
  return [`<polyline class="median" points="${d}"><title>rolling median of the passed runs</title></polyline>`];
}

/** One run, or the median of a bin of runs: a dot for the passed ones, a cross for the failed. */
function drawMark(m: Mark, p: HistoryPlatform, warnAt: number, binned: boolean, { x, y }: Scale): string[] {
  const points = p.points;
  const parts: string[] = [];
  const tone = (ms: number): string => (ms > p.limitMs ? 'over' : ms >= p.limitMs * warnAt ? 'near' : 'passed');
  const cx = x((m.from + m.to) / 2);
  const when =
    m.from === m.to
      ? `${day(points[m.from]!.atMs)} UTC`
      : `runs ${m.from + 1}-${m.to + 1} (${day(points[m.from]!.atMs)} to ${day(points[m.to]!.atMs)} UTC)`;
  const runs = binned ? ` data-runs="${m.to - m.from + 1}"` : '';
  if (m.passed.length > 0) {
    const mid = median([...m.passed]);
    const [lo, hi] = [Math.min(...m.passed), Math.max(...m.passed)];
    if (binned && hi > lo)
      parts.push(`<line class="range" x1="${f(cx)}" x2="${f(cx)}" y1="${f(y(lo))}" y2="${f(y(hi))}"/>`);
    const what = binned
      ? `median ${formatTime(mid)} of ${m.passed.length} passed (${formatTime(lo)} to ${formatTime(hi)})`
      : `${formatTime(mid)} (passed)`;
    parts.push(
      `<circle class="run ${tone(mid)}" data-state="passed"${runs} cx="${f(cx)}" cy="${f(y(mid))}" r="3.2"><title>${h(`${when}: ${what}`)}</title></circle>`,
    );
  }
  if (m.failed.length > 0) {
    const what = binned ? `${plural(m.failed.length, 'failed run')}` : `${formatTime(m.failed[0]!)} (failed)`;
    parts.push(drawCross(cx, y(median([...m.failed])), runs, `${when}: ${what}`));
  }
  return parts;
}

function drawCross(cx: number, cy: number, attrs: string, label: string): string {
  return `<path class="run failed" data-state="failed"${attrs} d="M${f(cx - 4)} ${f(cy - 4)}L${f(cx + 4)} ${f(cy + 4)}M${f(cx - 4)} ${f(cy + 4)}L${f(cx + 4)} ${f(cy - 4)}"><title>${h(label)}</title></path>`;
}
