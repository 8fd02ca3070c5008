import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computePlatform, type SeriesPoint } from '../../../src/core/history/history-platform.js';
import { BINS, MAX_MARKS, renderHistoryChart } from '../../../src/core/html/history-chart.js';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const series = (ds: readonly number[], failedAt: (i: number) => boolean = () => false): SeriesPoint[] =>
  ds.map((d, i) => ({
    testId: 1,
    platform: 'linux',
    atMs: T0 + i * 3_600_000,
    durationMs: d,
    state: failedAt(i) ? 'failed' : 'passed',
  }));
const chart = (points: SeriesPoint[], limitMs = 5000): string =>
  renderHistoryChart(
    computePlatform({ testId: 1, platform: 'linux', runs: points.length, medianMs: 1, p95Ms: 1, limitMs }, points, 0.8),
    'a chart',
    0.8,
  );
const num = (tag: string, name: string): number => Number(new RegExp(`${name}="(-?[\\d.]+)"`).exec(tag)?.[1]);
const zeroY = (svg: string): number => num(/<line class="zero"[^>]*>/.exec(svg)![0], 'y1');
const nodes = (svg: string): number => (svg.match(/<[a-z]/g) ?? []).length;

describe('the history chart', () => {
  it('fits a 2-3 ms test: its points well above the zero line, the 5 s limit marked above the chart with its value', () => {
    const svg = chart(series([2, 3, 2]));
    const circles = svg.match(/<circle [^>]*>/g) ?? [];
    expect(circles).toHaveLength(3);
    for (const c of circles) expect(num(c, 'cy')).toBeLessThan(zeroY(svg) - 40);
    expect(svg).not.toContain('<line class="limit"');
    expect(svg).toMatch(/<g class="limit-off" data-limit-ms="5000">.*limit 5\.00 s \(above the chart\)/);
  });

  it('draws the limit as a line when it is in range, failed runs as crosses, and the rolling median', () => {
    const svg = chart(
      series(
        Array.from({ length: 12 }, (_, i) => 3000 + 100 * i),
        (i) => i === 5,
      ),
    );
    const limitY = num(/<line class="limit"[^>]*>/.exec(svg)![0], 'y1');
    const circles = svg.match(/<circle [^>]*>/g) ?? [];
    expect(circles).toHaveLength(11);
    for (const c of circles) expect(num(c, 'cy')).toBeGreaterThan(limitY);
    expect(svg.match(/<path class="run failed" data-state="failed"/g)).toHaveLength(1);
    expect(svg).toMatch(/<polyline class="median" points="[^"]+"/);
  });

  it('bins 1,000 runs into a bounded number of marks, every run counted once', () => {
    const ds = Array.from({ length: 1000 }, (_, i) => 200 + (i % 17) * 5);
    const svg = chart(series(ds, (i) => i % 97 === 13));
    const runs = [...svg.matchAll(/<circle [^>]*data-runs="(\d+)"/g)].map((m) => Number(m[1]));
    expect(runs).toHaveLength(BINS);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(nodes(svg)).toBeLessThan(700);
  });

  it('property: at any length the chart stays under 800 SVG nodes and every mark inside the plot', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1500 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 1, max: 20_000 }),
        (n, spread, limit) => {
          const svg = chart(
            series(
              Array.from({ length: n }, (_, i) => ((i * 7919) % spread) + 1),
              (i) => i % 11 === 3,
            ),
            limit,
          );
          expect(nodes(svg)).toBeLessThan(800);
          for (const c of svg.match(/<circle [^>]*>/g) ?? []) {
            expect(num(c, 'cy')).toBeLessThanOrEqual(zeroY(svg) + 1e-9);
            expect(num(c, 'cy')).toBeGreaterThanOrEqual(0);
          }
          if (n <= MAX_MARKS) expect((svg.match(/data-state=/g) ?? []).length).toBe(n);
        },
      ),
      { numRuns: 40 },
    );
  });
});
