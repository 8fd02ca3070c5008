import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { causeCandidates } from '../../../src/core/history/cause-candidates.js';
import {
  computeHistoryReport,
  type HistoryQuery,
  type PlatformAggregate,
  type TestAggregate,
} from '../../../src/core/history/history-report.js';
import { ALL_BRANCHES, RECENT_SUMMARY } from '../../../src/core/history/history-schema-summaries.js';
import {
  newestSeries,
  type SummaryRow,
  shardKeyOf,
  summarizeWindow,
  withSeriesDurations,
} from '../../../src/core/history/history-summary.js';
import { percentileCont } from '../../../src/core/history/percentile.js';
import { rerunDeltas, runDeltas } from '../../../src/core/history/summary-deltas.js';
import { selectTrendCandidates } from '../../../src/core/history/trend-candidates.js';
import { TREND_MAX_POINTS } from '../../../src/core/history/trend-interval.js';

const DAY_MS = 86_400_000;
const T0 = Date.parse('2026-11-01T00:00:00Z');

const row = (over: Partial<SummaryRow> = {}): SummaryRow => ({
  testId: 1,
  project: '',
  file: 'test/a.test.ts',
  fullName: 'a',
  platform: 'linux',
  shard: '',
  runs: 1,
  failedRuns: 0,
  retriedRuns: 0,
  rerunPassedRuns: 0,
  flakedRuns: 0,
  passedRuns: 1,
  lastPassedAt: T0,
  lastPassedRun: 1,
  lastLimitMs: 5000,
  recentMs: [100],
  recentAt: [T0],
  ...over,
});

describe('percentileCont', () => {
  it("is PostgreSQL's: the rank q(n-1), linear between neighbours", () => {
    expect(percentileCont([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentileCont([10, 20, 30, 40, 50], 0.95)).toBeCloseTo(48, 10);
    expect(percentileCont([7], 0.95)).toBe(7);
  });

  it('property: within the values, the ends at q = 0 and 1, and ordered in q', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 60 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (values, a, b) => {
          const sorted = [...values].sort((x, y) => x - y);
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          expect(percentileCont(sorted, 0)).toBe(sorted[0]);
          expect(percentileCont(sorted, 1)).toBe(sorted[sorted.length - 1]);
          expect(percentileCont(sorted, lo)).toBeLessThanOrEqual(percentileCont(sorted, hi) + 1e-9);
          expect(percentileCont(sorted, lo)).toBeGreaterThanOrEqual(sorted[0]!);
        },
      ),
    );
  });
});

describe('newestSeries', () => {
  it('property: the newest TREND_MAX_POINTS passed runs and the failed ones among them, oldest first', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 600 }), (passedFlags) => {
        const newestFirst = passedFlags.map((passed, i) => ({ i, state: passed ? 'passed' : 'failed' }));
        const kept = newestSeries(newestFirst);
        const passed = passedFlags.filter(Boolean).length;
        expect(kept.filter((p) => p.state === 'passed')).toHaveLength(Math.min(passed, TREND_MAX_POINTS));
        // Oldest first, and exactly the newest rows up to the last passed one kept.
        expect(kept.map((p) => p.i)).toEqual([...kept.map((p) => p.i)].sort((a, b) => b - a));
        expect(kept.map((p) => p.i).reverse()).toEqual(newestFirst.slice(0, kept.length).map((p) => p.i));
        if (passed > TREND_MAX_POINTS) expect(kept[0]?.state).toBe('passed');
      }),
    );
  });
});

describe('summarizeWindow', () => {
  it("adds up a test's shards and platforms, and takes the newest passed durations in the window", () => {
    const rows = [
      row({
        runs: 3,
        failedRuns: 1,
        flakedRuns: 1,
        passedRuns: 2,
        recentMs: [50, 60],
        recentAt: [T0 - DAY_MS, T0 + 1],
      }),
      row({
        shard: '1/2',
        runs: 2,
        retriedRuns: 1,
        flakedRuns: 1,
        passedRuns: 2,
        lastPassedAt: T0 + 9,
        lastLimitMs: 4000,
      }),
      row({ platform: 'win32', runs: 1, passedRuns: 0, failedRuns: 1, flakedRuns: 1, recentMs: null, recentAt: null }),
      row({ testId: 2, fullName: 'b', runs: 0, passedRuns: 0 }),
      row({ testId: 3, fullName: 'c', runs: 4, passedRuns: 4 }),
    ];
    const { tests, platforms, groups } = summarizeWindow(rows, T0);
    expect(tests.filter((t) => t.testId !== 3)).toEqual([
      {
        testId: 1,
        project: '',
        file: 'test/a.test.ts',
        fullName: 'a',
        runs: 6,
        failedRuns: 2,
        retriedRuns: 1,
        rerunPassedRuns: 0,
      },
    ]);
    // The 50 ms run started before the window: left out; the newest passed run's limit is the shard's.
    expect(platforms.filter((p) => p.testId !== 3)).toEqual([
      { testId: 1, platform: 'linux', runs: 4, medianMs: 80, p95Ms: 98, limitMs: 4000 },
    ]);
    // The cause rules' groups: those of the test that flaked, none of test 3, which never did.
    expect(groups.map((g) => [g.platform, g.shard, g.runs])).toEqual([
      ['linux', '', 3],
      ['linux', '1/2', 2],
      ['win32', '', 1],
    ]);
  });

  it('property: at most RECENT_SUMMARY durations, all in the window, whatever the rows hold', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -5, max: 5 }), fc.integer({ min: 1, max: 9000 })), {
          minLength: 1,
          maxLength: 60,
        }),
        (points) => {
          const sorted = [...points].sort((a, b) => a[0] - b[0]);
          const r = row({
            runs: points.length,
            passedRuns: points.length,
            recentMs: sorted.map((p) => p[1]),
            recentAt: sorted.map((p) => T0 + p[0] * DAY_MS),
          });
          const inWindow = sorted.filter((p) => p[0] >= 0).slice(-RECENT_SUMMARY);
          const p = summarizeWindow([r], T0).platforms[0];
          if (inWindow.length === 0) expect(p).toBeUndefined();
          else
            expect(p?.medianMs).toBe(
              percentileCont(
                inWindow.map((x) => x[1]).sort((a, b) => a - b),
                0.5,
              ),
            );
        },
      ),
    );
  });

  it("property: a platform's shard rows give the newest durations of all of them, in order or not", () => {
    // Rows in order (as ingest keeps them) are merged from their ends; a row out of order is sorted whole.
    const pointsArb = fc.array(fc.tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: 1, max: 50 })), {
      maxLength: RECENT_SUMMARY,
    });
    fc.assert(
      fc.property(fc.array(pointsArb, { minLength: 1, maxLength: 3 }), fc.boolean(), (shards, ordered) => {
        const rows = shards.map((points, k) => {
          const kept = ordered ? [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]) : points;
          return row({
            shard: `${k + 1}/3`,
            runs: 1 + points.length,
            passedRuns: points.length,
            lastPassedAt: points.length > 0 ? T0 : null,
            recentMs: kept.map((p) => p[1]),
            recentAt: kept.map((p) => T0 + p[0] * DAY_MS),
          });
        });
        const all = shards.flat().filter((p) => p[0] >= 0);
        const newest = all
          .sort((a, b) => a[0] - b[0] || a[1] - b[1])
          .slice(-RECENT_SUMMARY)
          .map((p) => p[1])
          .sort((a, b) => a - b);
        const p = summarizeWindow(rows, T0).platforms[0];
        if (newest.length === 0) expect(p).toBeUndefined();
        else expect([p?.medianMs, p?.p95Ms]).toEqual([percentileCont(newest, 0.5), percentileCont(newest, 0.95)]);
      }),
    );
  });

  it('gives a platform whose series was read the series durations, and leaves the others', () => {
    const platforms: PlatformAggregate[] = [
      { testId: 1, platform: 'linux', runs: 3, medianMs: 1, p95Ms: 1, limitMs: 5000 },
      { testId: 2, platform: 'linux', runs: 3, medianMs: 1, p95Ms: 1, limitMs: 5000 },
    ];
    const series = [10, 30, 20].map((d, i) => ({
      testId: 1,
      platform: 'linux',
      atMs: i,
      durationMs: d,
      state: 'passed' as const,
    }));
    const out = withSeriesDurations(platforms, [...series, { ...series[0]!, durationMs: 999, state: 'failed' }]);
    expect(out.map((p) => [p.medianMs, p.p95Ms])).toEqual([
      [20, 29],
      [1, 1],
    ]);
  });
});

describe('summary deltas', () => {
  const place = { startedAtMs: T0 + 3_600_000, platform: 'linux', shard: shardKeyOf(2, 4), branch: 'main' };
  it("adds a run's results to every branch and to its own, on its UTC day", () => {
    const d = runDeltas(
      place,
      [
        { testId: 1, runId: 9, state: 'passed', durationMs: 120, flaky: true, limitMs: 5000 },
        { testId: 2, runId: 9, state: 'failed', durationMs: 30, flaky: false, limitMs: 5000 },
        { testId: 3, runId: 9, state: 'skipped', durationMs: null, flaky: false, limitMs: 5000 },
      ],
      new Set([2]),
    );
    expect(d.scope).toEqual([ALL_BRANCHES, ALL_BRANCHES, ALL_BRANCHES, 'main', 'main', 'main']);
    expect(new Set(d.day)).toEqual(new Set(['2026-11-01']));
    expect(d.shard[0]).toBe('2/4');
    expect([d.runs, d.failed, d.retried, d.rerun, d.flaked, d.passed].map((c) => c.slice(0, 3))).toEqual([
      [1, 1, 0],
      [0, 1, 0],
      [1, 0, 0],
      [0, 1, 0],
      [1, 1, 0],
      [1, 0, 0],
    ]);
    expect(d.ms.slice(0, 3)).toEqual([120, null, null]);
    expect(runDeltas({ ...place, branch: null }, [], new Set()).scope).toEqual([]);
  });

  it('property: re-run deltas count each failure once per scope, one row per key and day', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            testId: fc.integer({ min: 1, max: 3 }),
            day: fc.integer({ min: 0, max: 3 }),
            branch: fc.constantFrom(null, 'main', 'x'),
            platform: fc.constantFrom('linux', 'win32'),
          }),
          { maxLength: 30 },
        ),
        (failures) => {
          const d = rerunDeltas(failures.map((f) => ({ ...f, shard: '', startedAtMs: T0 + f.day * DAY_MS + 5 })));
          const scopes = failures.reduce((n, f) => n + (f.branch === null ? 1 : 2), 0);
          expect(d.rerun.reduce((a, b) => a + b, 0)).toBe(scopes);
          const keys = d.scope.map((s, i) => [s, d.testId[i], d.platform[i], d.shard[i], d.day[i]].join('|'));
          expect(new Set(keys).size).toBe(keys.length);
          expect(d.runs.every((v) => v === 0)).toBe(true);
        },
      ),
    );
  });
});

describe('causeCandidates', () => {
  const query: HistoryQuery = {
    since: '2026-11-01',
    branch: null,
    fullNamePart: null,
    file: null,
    top: 3,
    warnAt: 0.8,
  };
  it('property: every test the report shows with a cause is a candidate', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            runs: fc.integer({ min: 1, max: 40 }),
            retried: fc.integer({ min: 0, max: 5 }),
            median: fc.integer({ min: 1, max: 6000 }),
            p95: fc.integer({ min: 0, max: 3000 }),
          }),
          { minLength: 1, maxLength: 25 },
        ),
        (specs) => {
          const tests: TestAggregate[] = specs.map((s, i) => ({
            testId: i + 1,
            project: '',
            file: `test/t${i}.test.ts`,
            fullName: `t${i}`,
            runs: s.runs,
            failedRuns: 0,
            retriedRuns: Math.min(s.retried, s.runs),
            rerunPassedRuns: 0,
          }));
          const platforms: PlatformAggregate[] = specs.map((s, i) => ({
            testId: i + 1,
            platform: 'linux',
            runs: s.runs,
            medianMs: s.median,
            p95Ms: s.median + s.p95,
            limitMs: 5000,
          }));
          const ids = selectTrendCandidates(tests, platforms, query);
          const shown = computeHistoryReport({ query, runs: 40, tests, platforms, series: [], outcomes: [] })
            .tests.filter((t) => t.cause !== undefined)
            .map((t) => tests.find((a) => a.fullName === t.fullName)!.testId);
          const candidates = new Set(causeCandidates(tests, platforms, ids, query));
          for (const id of shown) expect(candidates.has(id)).toBe(true);
        },
      ),
    );
  });
});
