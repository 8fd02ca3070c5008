import { describe, expect, it } from 'vitest';
import { formatHistoryMarkdown, formatHistoryReport } from '../../../src/core/history/history-format.js';
import { toHistoryJson } from '../../../src/core/history/history-json.js';
import {
  computeHistoryReport,
  type HistoryInput,
  type HistoryQuery,
  type PlatformAggregate,
  type SeriesPoint,
  type TestAggregate,
} from '../../../src/core/history/history-report.js';
import { selectTrendCandidates } from '../../../src/core/history/trend-candidates.js';
import { renderHistoryHtml } from '../../../src/core/html/history-html.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-01T00:00:00Z');
const query = (over: Partial<HistoryQuery> = {}): HistoryQuery => ({
  since: '2026-11-01',
  branch: 'main',
  fullNamePart: null,
  file: null,
  top: 2,
  warnAt: 0.8,
  ...over,
});
const agg = (testId: number, over: Partial<TestAggregate> = {}): TestAggregate => ({
  testId,
  project: '',
  file: `test/t${testId}.test.ts`,
  fullName: `t${testId}`,
  runs: 20,
  failedRuns: 0,
  retriedRuns: 0,
  rerunPassedRuns: 0,
  ...over,
});
const plat = (testId: number, medianMs: number, limitMs = 5000): PlatformAggregate => ({
  testId,
  platform: 'linux',
  runs: 20,
  medianMs,
  p95Ms: medianMs * 1.1,
  limitMs,
});
const series = (
  testId: number,
  durationAt: (i: number) => number,
  n = 20,
  stepMs = DAY,
  failedAt = -1,
): SeriesPoint[] =>
  Array.from({ length: n }, (_, i) => ({
    testId,
    platform: 'linux',
    atMs: T0 + i * stepMs,
    durationMs: durationAt(i),
    state: i === failedAt ? 'failed' : 'passed',
  }));

function input(over: Partial<HistoryInput> = {}): HistoryInput {
  return {
    query: query(),
    runs: 20,
    tests: [agg(1, { failedRuns: 1, retriedRuns: 2, rerunPassedRuns: 1 }), agg(2), agg(3), agg(4, { retriedRuns: 1 })],
    platforms: [plat(1, 100), plat(2, 4700), plat(3, 3000), plat(4, 50)],
    series: [...series(2, (i) => 4500 + 20 * i, 20, DAY, 5), ...series(3, () => 3000)],
    ...over,
  };
}

describe('computeHistoryReport', () => {
  it('lists the flakiest tests and the ones near their limit, and only those', () => {
    const report = computeHistoryReport(input());
    expect(report.view).toBe('default');
    const byName = new Map(report.tests.map((t) => [t.fullName, t]));
    // t3 runs a steady 3 s of 5 s: under 80% of its limit and not rising, so not near it.
    expect([...byName.keys()].sort()).toEqual(['t1', 't2', 't4']);
    expect(byName.get('t1')!.listedFor).toEqual(['flaky']);
    expect(byName.get('t2')!.listedFor).toEqual(['near-limit']);
    const t1 = byName.get('t1')!;
    expect({ flakyRuns: t1.flakyRuns, flakeRate: t1.flakeRate }).toEqual({ flakyRuns: 3, flakeRate: 0.15 });
    expect(t1.flakeRateUpper).toBeCloseTo(0.3437, 3);
    const t2 = byName.get('t2')!;
    expect(t2.trendMsPerDay).toBeCloseTo(20, 6);
    expect(t2.trendMsPerRun).toBeCloseTo(20, 6);
    expect(t2.trendMsPerDayBounds).toEqual([20, 20]);
    // Level 4500 + 19 * 20 = 4880: 120 ms below the limit at 20 ms a day.
    expect(t2.daysToLimit).toBeCloseTo(6, 6);
    expect(t2.daysToLimitRange).toEqual([6, 6]);
    expect(t2.nearLimit).toBe('warn');
    expect(t2.platforms[0]!.points.filter((p) => p.state === 'failed')).toHaveLength(1);
    const t3 = computeHistoryReport(input({ query: query({ fullNamePart: 't3' }) })).tests[0]!;
    expect({ near: t3.nearLimit, days: t3.daysToLimit, runs: t3.runsToLimit }).toEqual({
      near: null,
      days: null,
      runs: null,
    });
  });

  it('leaves the per-day trend out when the runs span less than a day', () => {
    const report = computeHistoryReport(input({ series: series(2, (i) => 4500 + 20 * i, 20, 60_000) }));
    const t2 = report.tests.find((t) => t.fullName === 't2')!;
    expect(t2.trendMsPerDay).toBeNull();
    expect(t2.daysToLimit).toBeNull();
    expect(t2.runsToLimit).toBeCloseTo(6, 6);
  });

  it('lists every matching test with --test or --file', () => {
    const report = computeHistoryReport(input({ query: query({ file: 'test' }) }));
    expect(report.view).toBe('filtered');
    expect(report.tests.map((t) => t.fullName)).toEqual(['t1', 't2', 't3', 't4']);
    expect(report.tests.every((t) => t.listedFor.includes('match'))).toBe(true);
  });

  it('fits trends only for the candidates of the default view', () => {
    expect(selectTrendCandidates(input().tests, input().platforms, query({ top: 1 })).sort()).toEqual([1, 2, 3]);
    expect(selectTrendCandidates(input().tests, input().platforms, query({ fullNamePart: 't' }))).toEqual([1, 2, 3, 4]);
  });

  it('gives the JSON the issue names, with a version and without chart points', () => {
    const json = toHistoryJson(computeHistoryReport(input()));
    expect(json).toMatchObject({ format: 'flakeguard-history-report', version: 2 });
    const keys = [
      'file',
      'fullName',
      'runs',
      'failedRuns',
      'retriedRuns',
      'flakeRate',
      'flakeRateUpper',
      'durationMs',
      'limitMs',
      'nearLimit',
      'recentP95Ms',
    ];
    const trendKeys = [
      'trendMsPerRun',
      'trendMsPerRunBounds',
      'trendMsPerDay',
      'trendMsPerDayBounds',
      'runsToLimit',
      'runsToLimitRange',
      'daysToLimit',
      'daysToLimitRange',
    ];
    for (const key of [...keys, ...trendKeys]) expect(json.tests[0]).toHaveProperty(key);
    expect(json.tests[0]).not.toHaveProperty('name');
    const t2 = json.tests.find((t) => t.fullName === 't2');
    for (const key of trendKeys) expect(t2?.platforms[0]).toHaveProperty(key);
    expect(JSON.stringify(json)).not.toContain('"points"');
    expect(JSON.stringify(json)).not.toContain('"trend"');
  });
});

describe('history for people', () => {
  it('says how close a test is and when it crosses', () => {
    const text = formatHistoryReport(computeHistoryReport(input()));
    expect(text).toContain('flakeguard history since 2026-11-01 (branch main): 20 runs');
    expect(text).toContain(
      '3 of 20 runs flaky (15%; below 34.4% at 95% confidence): 1 failed, 2 passed on retry, 1 failed on a commit that passed on a re-run',
    );
    expect(text).toContain(
      '4.70s of 5.00s (linux median of 20; p95 5.17s), +20ms a day (95% CI +20ms to +20ms; +20ms a run): crosses in about 6 days, about 6 runs',
    );
    expect(text).toContain('Near their limit:');
    const md = formatHistoryMarkdown(computeHistoryReport(input()));
    expect(md).toContain('| Test | Runs | Flaky runs | Flake rate (95% bound) | Median / p95 | Limit | Trend |');
  });

  it('draws each test: its limit line, a point per run and failed runs as crosses, all escaped', () => {
    const html = renderHistoryHtml(
      computeHistoryReport(input({ tests: [agg(2, { fullName: 'renders <b>bold</b>' })] })),
    );
    expect(html).toContain('data-test="test/t2.test.ts::renders &lt;b&gt;bold&lt;/b&gt;"');
    expect(html).not.toContain('<b>bold</b>');
    expect(html.match(/class="limit"/g)).toHaveLength(1);
    expect(html.match(/data-state="failed"/g)).toHaveLength(1);
    expect(html.match(/data-state="passed"/g)).toHaveLength(19);
    expect(html).toContain('limit 5.00 s');
    expect(html).toContain('default-src &#39;none&#39;');
  });
});
