/**
 * An inline SVG chart of each test's tries against its limit: one row (series) per test, one bar per
 * try (a dot per try beyond 12 tries), a solid line at the limit and a dashed line at warnAt, an axis
 * in seconds, and the slowest try as "4.90 s of 5.00 s". Pure; every label is escaped.
 */
import { formatTime, h, type Tone } from './html-page.js';
import { TONE_COLOURS } from './html-style.js';

export type TryMark = 'passed' | 'failed' | 'unknown';

export interface ChartTry {
  readonly durationMs: number;
  readonly mark: TryMark;
}

export interface ChartSeries {
  /** Identifies the series in the page (data-test attribute): file and full name. */
  readonly id: string;
  readonly label: string;
  readonly sublabel: string;
  /** One bar per try: its duration and whether it passed ('unknown' when the source does not say). */
  readonly tries: readonly ChartTry[];
  /** null when there is no limit to draw. */
  readonly limitMs: number | null;
  /** Share of the limit at which a test is near budget (0.8 = 80%). */
  readonly warnAt: number;
  /** Shown in the row when there are no tries (e.g. "did not run: ..."). */
  readonly note: string | null;
  /** A word under the figures on the right (the test's verdict), in its tone. */
  readonly tag: { readonly text: string; readonly tone: Tone } | null;
}

const WIDTH = 1000;
const LEFT = 14;
const RIGHT = 200;
const TRACK_END = WIDTH - RIGHT;
const BAR = 11;
const GAP = 3;
const MAX_BARS = 12;
const NEAR = '#f08c00';
const PASS = TONE_COLOURS.good;
const STEPS = [
  0.001, 0.002, 0.005, 0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10, 15, 30, 60, 120, 300, 600, 1800,
  3600,
];

const fin = (v: number): number => (Number.isFinite(v) && v > 0 ? v : 0);
const r1 = (v: number): string => (Math.round(v * 10) / 10).toString();
const pct = (ratio: number): string => (ratio > 9.99 ? '>999%' : `${Math.round(ratio * 100)}%`);

/** A step in seconds that gives at most six ticks over [0, maxS]. */
function tickStep(maxS: number): number {
  return STEPS.find((s) => maxS / s <= 6) ?? Math.ceil(maxS / 6 / 3600) * 3600;
}

function tickLabel(seconds: number, step: number): string {
  const decimals = Number.isInteger(step) ? 0 : Number.isInteger(step * 10) ? 1 : Number.isInteger(step * 100) ? 2 : 3;
  return `${Number(seconds.toFixed(decimals)).toString()} s`;
}

export type TryTone = 'pass' | 'near' | 'over' | 'failed' | 'unknown';

/** How one try is drawn: failed tries in red hatching, passing tries by their share of the limit. */
export function classifyTry(state: TryMark, durationMs: number, limitMs: number | null, warnAt: number): TryTone {
  if (state === 'failed') return 'failed';
  if (state === 'unknown') return 'unknown';
  if (limitMs === null) return 'pass';
  if (durationMs > limitMs) return 'over';
  return durationMs >= limitMs * warnAt ? 'near' : 'pass';
}

const FILL: Record<TryTone, string> = {
  pass: PASS,
  near: NEAR,
  over: TONE_COLOURS.bad,
  failed: 'url(#fg-failed)',
  unknown: TONE_COLOURS.muted,
};
const WORD: Record<TryTone, string> = {
  pass: 'passed',
  near: 'passed, near its limit',
  over: 'passed, over its limit',
  failed: 'failed',
  unknown: 'passed or failed (not recorded)',
};

function axis(x: (ms: number) => number, domainMs: number, y: number, avoid: readonly number[]): string[] {
  const step = tickStep(domainMs / 1000);
  const out = [`<line x1="${LEFT}" y1="${r1(y)}" x2="${TRACK_END}" y2="${r1(y)}" stroke="#d8dee4"/>`];
  for (let i = 0; i * step <= domainMs / 1000 + 1e-9; i += 1) {
    const px = x(i * step * 1000);
    out.push(`<line x1="${r1(px)}" y1="${r1(y)}" x2="${r1(px)}" y2="${r1(y + 4)}" stroke="#adb5bd"/>`);
    if (avoid.some((a) => Math.abs(a - px) < 34)) continue;
    out.push(
      `<text x="${r1(px)}" y="${r1(y + 16)}" text-anchor="middle" class="tick">${h(tickLabel(i * step, step))}</text>`,
    );
  }
  return out;
}

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}\u2026`;
}

function renderSeries(s: ChartSeries, top: number): { svg: string; height: number } {
  const durations = s.tries.map((t) => fin(t.durationMs));
  // A limit under a millisecond is no limit any budget can express: drawn as none.
  const limit = s.limitMs !== null && fin(s.limitMs) >= 1 ? fin(s.limitMs) : null;
  const slowest = durations.length > 0 ? Math.max(...durations) : 0;
  const rawMax = Math.max(limit === null ? 0 : limit * 1.15, slowest * 1.05, 100);
  const step = tickStep(rawMax / 1000) * 1000;
  const domain = Math.ceil(rawMax / step - 1e-9) * step;
  const x = (ms: number): number => LEFT + (Math.min(ms, domain) / domain) * (TRACK_END - LEFT);
  const bars = durations.length <= MAX_BARS;
  const trackTop = top + 24;
  const trackH = durations.length === 0 ? 22 : bars ? durations.length * (BAR + GAP) - GAP : 26;
  const trackBottom = trackTop + trackH;
  const out: string[] = [`<g class="series" data-test="${h(s.id)}">`];
  out.push(`<title>${h(`${s.label} (${s.sublabel})`)}</title>`);
  // About 7.4 px a character for the 13px name and 7.3 px for the 12px mono place: keep both left of the figures.
  const name = truncate(s.label, 78);
  const room = Math.floor((TRACK_END - LEFT - 14 - [...name].length * 7.4) / 7.3);
  out.push(
    `<text x="${LEFT}" y="${r1(top + 14)}" class="name">${h(name)}<tspan class="where" dx="10">${h(truncate(s.sublabel, Math.max(16, room)))}</tspan></text>`,
  );
  out.push(
    `<rect x="${LEFT}" y="${r1(trackTop - 3)}" width="${TRACK_END - LEFT}" height="${r1(trackH + 6)}" fill="#f8f9fa"/>`,
  );
  if (durations.length === 0) {
    out.push(`<text x="${LEFT + 8}" y="${r1(trackTop + 15)}" class="note">${h(s.note ?? 'no tries')}</text>`);
  }
  durations.forEach((d, i) => {
    const tone = classifyTry(s.tries[i]?.mark ?? 'unknown', d, limit, s.warnAt);
    const share = limit === null ? '' : ` (${pct(d / limit)} of the limit)`;
    const tip = `<title>${h(`try ${i + 1}: ${formatTime(d)}, ${WORD[tone]}${share}`)}</title>`;
    const stroke = tone === 'failed' ? ` stroke="${TONE_COLOURS.bad}" stroke-width="1.2"` : '';
    if (bars) {
      const y = trackTop + i * (BAR + GAP);
      const w = Math.max(2, x(d) - LEFT);
      out.push(
        `<rect class="try ${tone}" x="${LEFT}" y="${r1(y)}" width="${r1(w)}" height="${BAR}" rx="2" fill="${FILL[tone]}"${stroke}>${tip}</rect>`,
      );
      const label = d > domain ? `${formatTime(d)} \u2192` : formatTime(d);
      out.push(`<text x="${r1(LEFT + w + 4)}" y="${r1(y + BAR - 2)}" class="val">${h(label)}</text>`);
    } else {
      const y = trackTop + 5 + (i % 5) * 4;
      out.push(
        `<circle class="try ${tone}" cx="${r1(x(d))}" cy="${r1(y)}" r="3.6" fill="${FILL[tone]}" fill-opacity="0.85"${stroke}>${tip}</circle>`,
      );
    }
  });
  const avoid: number[] = [];
  if (limit !== null) {
    const wx = x(limit * s.warnAt);
    const lx = x(limit);
    out.push(
      `<line class="warn-line" x1="${r1(wx)}" y1="${r1(trackTop - 6)}" x2="${r1(wx)}" y2="${r1(trackBottom + 4)}" stroke="${NEAR}" stroke-width="1.5" stroke-dasharray="4 3"/>`,
    );
    // A white halo keeps the limit visible across a red (over-limit) bar.
    out.push(
      `<line x1="${r1(lx)}" y1="${r1(trackTop - 8)}" x2="${r1(lx)}" y2="${r1(trackBottom + 4)}" stroke="#ffffff" stroke-width="5"/>`,
    );
    out.push(
      `<line class="limit-line" x1="${r1(lx)}" y1="${r1(trackTop - 8)}" x2="${r1(lx)}" y2="${r1(trackBottom + 4)}" stroke="${TONE_COLOURS.bad}" stroke-width="2"/>`,
    );
    avoid.push(lx);
    out.push(
      `<text x="${r1(lx)}" y="${r1(trackBottom + 20)}" text-anchor="middle" class="limit">${h(`limit ${formatTime(limit)}`)}</text>`,
    );
    if (Math.abs(lx - wx) > 78) {
      avoid.push(wx);
      out.push(
        `<text x="${r1(wx)}" y="${r1(trackBottom + 20)}" text-anchor="middle" class="warn">${h(`${Math.round(s.warnAt * 100)}%`)}</text>`,
      );
    }
  }
  out.push(...axis(x, domain, trackBottom + 4, avoid));
  const ratio = limit === null || durations.length === 0 ? null : slowest / limit;
  const anyPassed = s.tries.some((t) => t.mark === 'passed');
  const tone = ratio === null || !anyPassed ? 'muted' : ratio > 1 ? 'bad' : ratio >= s.warnAt ? 'warn' : 'good';
  const right = TRACK_END + 18;
  if (durations.length > 0) {
    out.push(`<text x="${right}" y="${r1(trackTop + 10)}" class="max">${h(`max ${formatTime(slowest)}`)}</text>`);
    const of = limit === null ? 'no limit' : `of ${formatTime(limit)} \u00b7 ${pct(ratio ?? 0)}`;
    out.push(`<text x="${right}" y="${r1(trackTop + 28)}" class="ratio ${tone}">${h(of)}</text>`);
  }
  if (s.tag !== null) {
    out.push(`<text x="${right}" y="${r1(top + 14)}" class="tag ${s.tag.tone}">${h(s.tag.text)}</text>`);
  }
  out.push('</g>');
  return { svg: out.join(''), height: trackBottom + 30 - top };
}

const CHART_CSS = [
  '.try-chart .name{font:600 13px var(--sans);fill:#1f2328}',
  '.try-chart .where{font:400 12px var(--mono);fill:#59636e}',
  '.try-chart .tick{font:11px var(--sans);fill:#59636e}',
  '.try-chart .val{font:10.5px var(--mono);fill:#343a40;paint-order:stroke;stroke:#f8f9fa;stroke-width:3px;stroke-linejoin:round}',
  '.try-chart .note{font:italic 12px var(--sans);fill:#59636e}',
  `.try-chart .limit{font:700 11px var(--sans);fill:${TONE_COLOURS.bad}}`,
  `.try-chart .warn{font:600 11px var(--sans);fill:#a35200}`,
  '.try-chart .max{font:700 14px var(--sans);fill:#1f2328}',
  '.try-chart .ratio{font:600 12.5px var(--sans)}',
  '.try-chart .tag{font:700 11.5px var(--sans);text-transform:uppercase;letter-spacing:0.05em}',
  `.try-chart .tag.good{fill:${TONE_COLOURS.good}}.try-chart .tag.warn{fill:#a35200}.try-chart .tag.bad{fill:${TONE_COLOURS.bad}}`,
  `.try-chart .tag.accent{fill:${TONE_COLOURS.accent}}.try-chart .tag.info{fill:${TONE_COLOURS.info}}.try-chart .tag.muted{fill:#59636e}`,
  `.try-chart .ratio.good{fill:${TONE_COLOURS.good}}.try-chart .ratio.warn{fill:#a35200}.try-chart .ratio.bad{fill:${TONE_COLOURS.bad}}.try-chart .ratio.muted{fill:#59636e}`,
].join('');

/** The chart as one <svg> element (empty series: a note instead of a chart). */
export function renderTryChart(series: readonly ChartSeries[], title: string): string {
  if (series.length === 0) return '<p class="dim">No tests ran, so there is nothing to chart.</p>';
  const parts: string[] = [];
  let y = 8;
  for (const s of series) {
    const row = renderSeries(s, y);
    parts.push(row.svg);
    y += row.height + 14;
  }
  const defs =
    '<defs><pattern id="fg-failed" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
    `<rect width="6" height="6" fill="#ffe3e3"/><rect width="3" height="6" fill="${TONE_COLOURS.bad}"/></pattern></defs>`;
  return (
    `<svg class="try-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${Math.round(y)}" width="${WIDTH}" height="${Math.round(y)}" role="img" aria-label="${h(title)}">` +
    `<style>${CHART_CSS}</style>${defs}${parts.join('')}</svg>`
  );
}

/** The legend under the chart heading, as HTML; the grey key only when some tries are not recorded. */
export function renderChartLegend(warnAt: number, unknown = false): string {
  const key = (colour: string, text: string, hatched = false): string =>
    `<span><span class="key" style="background:${hatched ? `repeating-linear-gradient(45deg, ${TONE_COLOURS.bad} 0 2px, #ffe3e3 2px 4px)` : colour}"></span>${h(text)}</span>`;
  return [
    '<div class="legend">',
    key(PASS, 'passed'),
    key(NEAR, `passed, at or above ${Math.round(warnAt * 100)}% of the limit`),
    key(TONE_COLOURS.bad, 'passed, over the limit'),
    key(TONE_COLOURS.bad, 'failed', true),
    unknown ? key(TONE_COLOURS.muted, 'passed or failed (not recorded which)') : '',
    `<span><span class="line" style="border-color:${TONE_COLOURS.bad}"></span>limit</span>`,
    `<span><span class="line" style="border-color:${NEAR};border-top-style:dashed"></span>warnAt ${h(`${Math.round(warnAt * 100)}%`)}</span>`,
    '</div>',
  ].join('');
}
