/**
 * The history page: per listed test, its figures and, per platform, a chart of its durations over
 * the runs (history-chart.ts). The header's "near their limit" count and each card's tag read the
 * same field (HistoryTest.nearLimit). Built from the HTML report's blocks (core/html); pure.
 */

import { causeLines, describeDurations, describeFlakes, describeTrend } from '../history/history-format.js';
import type { HistoryReport, HistoryTest } from '../history/history-report.js';
import { projectTag } from '../test-id.js';
import { HISTORY_CHART_CSS, renderHistoryChart } from './history-chart.js';
import { badge, countTile, formatTime, h, plural, renderPage } from './html-page.js';
import { TONE_COLOURS } from './html-style.js';

const NEAR = '#f08c00';

/** The card's tag, from the same decision as the header's count (HistoryTest.nearLimit). */
function nearTag(t: HistoryTest): string {
  switch (t.nearLimit) {
    case null:
      return '';
    case 'over':
      return badge('bad', 'at its limit');
    case 'warn':
    case 'crossing': {
      const range = t.daysToLimitRange ?? t.runsToLimitRange;
      const unit = t.daysToLimitRange === null ? 'runs' : 'd';
      if (range === null) return badge('accent', 'near its limit');
      const [a, b] = [Math.floor(range[0]), Math.ceil(range[1])];
      return badge('accent', `crosses in ${a === b ? `~${a}` : `${a}-${b}`} ${unit}`);
    }
    default: {
      const never: never = t.nearLimit;
      return never;
    }
  }
}

function testSection(t: HistoryTest, warnAt: number): string {
  const tone = t.nearLimit === 'over' ? 'bad' : t.flakyRuns > 0 || t.nearLimit !== null ? 'warn' : 'good';
  const badges = [t.listedFor.includes('flaky') ? badge('warn', 'flaky') : '', nearTag(t)].join(' ');
  const platforms = t.platforms.map(
    (p) =>
      `<div class="platform" data-platform="${h(p.platform)}"><p>${h(`${describeDurations(p)}; ${describeTrend(p)}`)}</p>` +
      `<div class="chart">${renderHistoryChart(p, `${t.fullName}: durations on ${p.platform} against the ${formatTime(p.limitMs)} limit`, warnAt)}</div></div>`,
  );
  return (
    `<article class="card ${tone} history-test" data-test="${h(`${t.file}::${t.fullName}`)}"${t.project ? ` data-project="${h(t.project)}"` : ''}><div class="head">${badges}<h3>${h(t.fullName)}</h3></div>` +
    `<div class="where">${h(`${t.file}${projectTag(t.project)}`)}</div><p>${h(describeFlakes(t))}</p>${causeLines(t)
      .map((l) => `<p>${h(l)}</p>`)
      .join('')}${platforms.join('')}</article>`
  );
}

function emptyNote(report: HistoryReport): string {
  if (report.view === 'filtered') return 'No test matches --test/--file in the window.';
  return `No test was flaky or near its limit in the window (recent p95 at or above ${Math.round(report.warnAt * 100)}% of it, or a crossing projected soon); flakeguard history --test <name> shows any test.`;
}

export function renderHistoryHtml(report: HistoryReport): string {
  const flaky = report.tests.filter((t) => t.flakyRuns > 0).length;
  const near = report.tests.filter((t) => t.nearLimit !== null).length;
  const body = [
    '<header class="top"><h1>flakeguard history</h1></header>',
    `<p class="sub">${h(`Since ${report.since}, ${report.branch === null ? 'every branch' : `branch ${report.branch}`}: ${plural(report.runs, 'run')}.`)}</p>`,
    `<div class="tiles">${countTile('info', report.runs, 'runs')}${countTile('warn', flaky, 'flaky tests listed')}${countTile('accent', near, 'near their limit')}</div>`,
    '<h2>Tests</h2>',
    `<div class="legend"><span><span class="key" style="background:${TONE_COLOURS.good}"></span>passed</span><span><span class="key" style="background:${NEAR}"></span>passed, at or above ${Math.round(report.warnAt * 100)}% of the limit</span><span><span class="key" style="background:${TONE_COLOURS.bad}"></span>passed, over the limit</span><span>\u00d7 failed</span><span><span class="line" style="border-color:${TONE_COLOURS.bad}"></span>limit (an arrow at the top when above the chart)</span><span><span class="line" style="border-color:#1c7ed6"></span>rolling median</span></div>`,
    report.tests.length === 0
      ? `<p class="dim">${h(emptyNote(report))}</p>`
      : `<div class="cards">${report.tests.map((t) => testSection(t, report.warnAt)).join('')}</div>`,
  ].join('\n');
  return renderPage({
    title: `flakeguard history since ${report.since}`,
    tone: flaky > 0 || near > 0 ? 'warn' : 'good',
    body,
    footer: `flakeguard history report \u00b7 JSON schema version ${report.version}`,
    css: HISTORY_CHART_CSS,
  });
}
