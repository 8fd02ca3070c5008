/**
 * The history page: per listed test, its figures and a chart of its durations over the runs (one
 * point per run, oldest on the left), its limit as a line and failed runs marked with a cross.
 * Built from the HTML report's blocks (core/html); pure.
 */
import { badge, countTile, formatTime, h, plural, renderPage } from '../html/html-page.js';
import { TONE_COLOURS } from '../html/html-style.js';
import { describeDurations, describeFlakes, describeTrend } from './history-format.js';
import type { HistoryPlatform, HistoryReport, HistoryTest } from './history-report.js';

const W = 960;
const H = 170;
const PAD = { left: 56, right: 16, top: 12, bottom: 26 };
const NEAR = '#f08c00';
const CSS = `.history-chart{display:block;width:100%;height:auto}.history-chart .axis{font:11px var(--mono);fill:#59636e}
.history-chart .grid{stroke:#eef1f4}.history-chart .limit{stroke:${TONE_COLOURS.bad};stroke-width:2}
.history-chart .limit-label{font:700 11px var(--sans);fill:${TONE_COLOURS.bad}}.history-chart .run.passed{fill:${TONE_COLOURS.good}}
.history-chart .run.near{fill:${NEAR}}.history-chart .run.over{fill:${TONE_COLOURS.bad}}.history-chart .run.failed{stroke:${TONE_COLOURS.bad};stroke-width:2.5}`;

/** The chart of one platform's runs: durations against the limit, failed runs as crosses. */
export function renderHistoryChart(p: HistoryPlatform, title: string): string {
  const points = p.points;
  if (points.length === 0) return '<p class="dim">No run with a duration in the window.</p>';
  const top = Math.max(p.limitMs * 1.15, ...points.map((s) => s.durationMs)) || 1;
  const x = (i: number): number => PAD.left + (points.length === 1 ? 0.5 : i / (points.length - 1)) * (W - PAD.left - PAD.right);
  const y = (ms: number): number => PAD.top + (1 - Math.min(ms, top) / top) * (H - PAD.top - PAD.bottom);
  const parts: string[] = [];
  for (const share of [0, 0.25, 0.5, 0.75, 1]) {
    const ms = top * share;
    parts.push(`<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(ms).toFixed(1)}" y2="${y(ms).toFixed(1)}"/>`);
    parts.push(`<text class="axis" x="${PAD.left - 6}" y="${(y(ms) + 4).toFixed(1)}" text-anchor="end">${h(formatTime(ms))}</text>`);
  }
  const ly = y(p.limitMs).toFixed(1);
  parts.push(`<line class="limit" x1="${PAD.left}" x2="${W - PAD.right}" y1="${ly}" y2="${ly}"/>`);
  parts.push(`<text class="limit-label" x="${W - PAD.right}" y="${(Number(ly) - 4).toFixed(1)}" text-anchor="end">limit ${h(formatTime(p.limitMs))}</text>`);
  points.forEach((s, i) => {
    const cx = x(i).toFixed(1);
    const cy = y(s.durationMs).toFixed(1);
    const day = new Date(s.atMs).toISOString().slice(0, 16).replace('T', ' ');
    const label = `<title>${h(`${day} UTC: ${formatTime(s.durationMs)} (${s.state})`)}</title>`;
    if (s.state === 'failed') {
      const [a, b] = [Number(cx), Number(cy)];
      parts.push(`<path class="run failed" data-state="failed" d="M${a - 4} ${b - 4}L${a + 4} ${b + 4}M${a - 4} ${b + 4}L${a + 4} ${b - 4}">${label}</path>`);
    } else {
      const tone = s.durationMs > p.limitMs ? 'over' : s.durationMs >= p.limitMs * 0.8 ? 'near' : 'passed';
      parts.push(`<circle class="run ${tone}" data-state="passed" cx="${cx}" cy="${cy}" r="3.2">${label}</circle>`);
    }
  });
  parts.push(`<text class="axis" x="${PAD.left}" y="${H - 6}">oldest</text><text class="axis" x="${W - PAD.right}" y="${H - 6}" text-anchor="end">newest (${h(plural(points.length, 'run'))})</text>`);
  return `<svg class="history-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" role="img" aria-label="${h(title)}">${parts.join('')}</svg>`;
}

function testSection(t: HistoryTest): string {
  const tone = t.daysToLimit === 0 ? 'bad' : t.flakyRuns > 0 ? 'warn' : 'good';
  const badges = [
    t.listedFor.includes('flaky') ? badge('warn', 'flaky') : '',
    t.listedFor.includes('near-limit') ? badge(t.daysToLimit === 0 ? 'bad' : 'accent', t.daysToLimit === null ? 'near its limit' : t.daysToLimit === 0 ? 'at its limit' : `crosses in ~${Math.ceil(t.daysToLimit)} d`) : '',
  ].join(' ');
  const platforms = t.platforms.map(
    (p) =>
      `<div class="platform" data-platform="${h(p.platform)}"><p>${h(`${describeDurations(p)}; ${describeTrend(p)}`)}</p>` +
      `<div class="chart">${renderHistoryChart(p, `${t.name}: durations on ${p.platform} against the ${formatTime(p.limitMs)} limit`)}</div></div>`,
  );
  return (
    `<article class="card ${tone} history-test" data-test="${h(`${t.file}::${t.name}`)}"><div class="head">${badges}<h3>${h(t.name)}</h3></div>` +
    `<div class="where">${h(t.project === '' ? t.file : `${t.file} [${t.project}]`)}</div><p>${h(describeFlakes(t))}</p>${platforms.join('')}</article>`
  );
}

export function renderHistoryHtml(report: HistoryReport): string {
  const flaky = report.tests.filter((t) => t.flakyRuns > 0).length;
  const crossing = report.tests.filter((t) => t.daysToLimit !== null).length;
  const body = [
    '<header class="top"><h1>flakeguard history</h1></header>',
    `<p class="sub">${h(`Since ${report.since}, ${report.branch === null ? 'every branch' : `branch ${report.branch}`}: ${plural(report.runs, 'run')}.`)}</p>`,
    `<div class="tiles">${countTile('info', report.runs, 'runs')}${countTile('warn', flaky, 'flaky tests listed')}${countTile('accent', crossing, 'trending to their limit')}</div>`,
    '<h2>Tests</h2>',
    `<div class="legend"><span><span class="key" style="background:${TONE_COLOURS.good}"></span>passed</span><span><span class="key" style="background:${NEAR}"></span>passed, at or above 80% of the limit</span><span><span class="key" style="background:${TONE_COLOURS.bad}"></span>passed, over the limit</span><span>\u00d7 failed</span><span><span class="line" style="border-color:${TONE_COLOURS.bad}"></span>limit</span></div>`,
    report.tests.length === 0 ? '<p class="dim">No test to show in the window.</p>' : `<div class="cards">${report.tests.map(testSection).join('')}</div>`,
  ].join('\n');
  return renderPage({
    title: `flakeguard history since ${report.since}`,
    tone: flaky > 0 || crossing > 0 ? 'warn' : 'good',
    body,
    footer: `flakeguard history report \u00b7 JSON schema version ${report.version}`,
    css: CSS,
  });
}
