import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ChartSeries,
  type ChartTry,
  classifyTry,
  renderChartLegend,
  renderTryChart,
  type TryMark,
} from '../../../src/core/html/html-chart.js';
import { markupSkeleton } from './html-markup.js';

/** One bar per duration, each with its mark (passed unless told). */
const bars = (durationsMs: readonly number[], marks: readonly TryMark[] = []): ChartTry[] =>
  durationsMs.map((durationMs, i) => ({ durationMs, mark: marks[i] ?? 'passed' }));

const series = (over: Partial<ChartSeries> = {}): ChartSeries => ({
  id: 'test/a.test.ts > a > b',
  label: 'a > b',
  sublabel: 'test/a.test.ts:3',
  tries: bars([4210, 4420, 4900, 4380, 4510]),
  limitMs: 5000,
  warnAt: 0.8,
  note: null,
  tag: { text: 'near-budget', tone: 'warn' },
  ...over,
});

const count = (text: string, re: RegExp): number => [...text.matchAll(re)].length;

describe('classifyTry', () => {
  it('colours a try by outcome, then by its share of the limit', () => {
    expect(classifyTry('failed', 100, 5000, 0.8)).toBe('failed');
    expect(classifyTry('unknown', 100, 5000, 0.8)).toBe('unknown');
    expect(classifyTry('passed', 3999, 5000, 0.8)).toBe('pass');
    expect(classifyTry('passed', 4000, 5000, 0.8)).toBe('near');
    expect(classifyTry('passed', 4900, 5000, 0.8)).toBe('near');
    expect(classifyTry('passed', 5000, 5000, 0.8)).toBe('near');
    expect(classifyTry('passed', 5001, 5000, 0.8)).toBe('over');
    expect(classifyTry('passed', 9000, null, 0.8)).toBe('pass');
  });
});

describe('renderTryChart', () => {
  it('draws one series per test and one bar per try, with the limit, warnAt and the slowest try', () => {
    const svg = renderTryChart(
      [series(), series({ id: 'b', label: 'c', tries: bars([200, 210], ['passed', 'failed']), tag: null })],
      'chart',
    );
    expect(count(svg, /<g class="series"/g)).toBe(2);
    expect(count(svg, /<rect class="try /g)).toBe(7);
    expect(count(svg, /class="limit-line"/g)).toBe(2);
    expect(count(svg, /class="warn-line"/g)).toBe(2);
    expect(svg).toContain('>max 4.90 s</text>');
    expect(svg).toContain('>of 5.00 s \u00b7 98%</text>');
    expect(svg).toContain('>limit 5.00 s</text>');
    expect(svg).toContain('>80%</text>');
    expect(count(svg, /class="try near"/g)).toBe(5);
    expect(count(svg, /class="try failed"/g)).toBe(1);
    expect(svg).toContain('<title>try 3: 4.90 s, passed, near its limit (98% of the limit)</title>');
    expect(() => markupSkeleton(svg)).not.toThrow();
  });

  it('labels the axis in seconds, from 0 past the limit', () => {
    const svg = renderTryChart([series()], 'chart');
    for (const s of [0, 1, 2, 3, 6]) expect(svg).toContain(`>${s} s</text>`);
    // 4 s and 5 s give way to the 80% and limit labels
    expect(svg).not.toContain('>5 s</text>');
    const wide = renderTryChart([series({ limitMs: 12_000, tries: bars([8210, 8890]) })], 'chart');
    expect(wide).toContain('>2.5 s</text>');
    expect(wide).toContain('>7.5 s</text>');
    expect(wide).toContain('>limit 12.00 s</text>');
  });

  it('puts the limit line at the limit on the row scale', () => {
    const svg = renderTryChart([series({ tries: bars([1000]) })], 'chart');
    // limit 5 s on a 0..6 s axis from x=14 to x=800
    const x = Number(/class="limit-line" x1="([\d.]+)"/.exec(svg)?.[1]);
    expect(x).toBeCloseTo(14 + (5 / 6) * 786, 0);
    const bar = Number(/<rect class="try pass" x="14" y="[\d.]+" width="([\d.]+)"/.exec(svg)?.[1]);
    expect(bar).toBeCloseTo((1 / 6) * 786, 0);
  });

  it('switches to dots beyond 12 tries', () => {
    const durationsMs = Array.from({ length: 40 }, (_, i) => 100 + i * 10);
    const svg = renderTryChart([series({ tries: bars(durationsMs) })], 'chart');
    expect(count(svg, /<circle class="try /g)).toBe(40);
    expect(count(svg, /<rect class="try /g)).toBe(0);
  });

  it('shows the note for a test without tries, and a message when nothing ran', () => {
    const svg = renderTryChart([series({ tries: [], note: 'did not run: SyntaxError <x>' })], 'chart');
    expect(svg).toContain('did not run: SyntaxError &lt;x&gt;');
    expect(renderTryChart([], 'chart')).toContain('nothing to chart');
  });

  it('legend: the grey key only when some tries are not recorded', () => {
    expect(renderChartLegend(0.8)).not.toContain('not recorded');
    expect(renderChartLegend(0.7, true)).toContain('not recorded');
    expect(renderChartLegend(0.7)).toContain('warnAt 70%');
  });

  it('property: any durations and limits give finite coordinates inside the chart', () => {
    const duration = fc.oneof(
      fc.double({ min: -1e9, max: 1e12 }),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 0, 4999.9, 5000),
    );
    const arb = fc.array(
      fc.record({
        durationsMs: fc.array(duration, { maxLength: 30 }),
        limitMs: fc.oneof(fc.constant(null), duration),
        warnAt: fc.double({ min: 0.01, max: 1, noNaN: true }),
      }),
      { minLength: 1, maxLength: 5 },
    );
    fc.assert(
      fc.property(arb, (rows) => {
        const svg = renderTryChart(
          rows.map((r) =>
            series({
              tries: bars(r.durationsMs),
              limitMs: r.limitMs,
              warnAt: r.warnAt,
            }),
          ),
          'chart',
        );
        expect(svg).not.toMatch(/NaN|Infinity|e\+|e-\d/);
        for (const m of svg.matchAll(/\s(?:x|x1|x2|cx)="(-?[\d.]+)"/g)) {
          const x = Number(m[1]);
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThanOrEqual(1000);
        }
        expect(count(svg, /<g class="series"/g)).toBe(rows.length);
      }),
      { numRuns: 300 },
    );
  });
});
