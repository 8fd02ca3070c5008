import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { causeCandidates } from '../../../src/core/history/cause-candidates.js';
import { durationsNeeded, withReadPlatforms, withReadTests } from '../../../src/core/history/durations-needed.js';
import { toHistoryJson } from '../../../src/core/history/history-json.js';
import {
  computeHistoryReport,
  type HistoryQuery,
  type PlatformAggregate,
  type TestAggregate,
} from '../../../src/core/history/history-report.js';
import { type SummaryRow, summarizeWindow } from '../../../src/core/history/history-summary.js';
import { selectTrendCandidates } from '../../../src/core/history/trend-candidates.js';

const DAY_MS = 86_400_000;
const T0 = Date.parse('2026-11-01T00:00:00Z');

/** One key's row: runs, flakes, a limit, and up to 20 durations in order around the window's start. */
const keyArb = fc.record({
  platform: fc.constantFrom('linux', 'darwin', 'win32'),
  shard: fc.constantFrom('', '1/2'),
  runs: fc.integer({ min: 1, max: 60 }),
  flaked: fc.integer({ min: 0, max: 4 }),
  limitMs: fc.constantFrom(0, 1000, 5000),
  points: fc.array(fc.tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: 1, max: 6000 })), { maxLength: 20 }),
  slack: fc.integer({ min: 0, max: 800 }),
  before: fc.integer({ min: 0, max: 30 }),
});

interface Key {
  readonly platform: string;
  readonly shard: string;
  readonly runs: number;
  readonly flaked: number;
  readonly limitMs: number;
  readonly points: readonly (readonly [number, number])[];
  readonly slack: number;
  /** Runs before the window: in the key's totals. */
  readonly before: number;
}

/**
 * `full`: every key counted over the window with its durations; `bare`: what the report's first read
 * gives (summary-read.ts): bounds for the durations, and for a test without a flaky run in any key
 * its keys' totals as counts (`countsUnread`), only the keys with a timed pass in the window.
 */
function rowsOf(tests: readonly { readonly keys: readonly Key[] }[]): { full: SummaryRow[]; bare: SummaryRow[] } {
  const full: SummaryRow[] = [];
  const bare: SummaryRow[] = [];
  tests.forEach((t, id) => {
    const seen = new Set<string>();
    const clean = t.keys.every((k) => Math.min(k.flaked, k.runs) === 0);
    for (const k of t.keys) {
      if (seen.has(`${k.platform} ${k.shard}`)) continue;
      seen.add(`${k.platform} ${k.shard}`);
      const points = [...k.points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      const ms = points.map((p) => p[1]);
      const at = points.map((p) => T0 + p[0] * DAY_MS);
      const passed = at.filter((a) => a >= T0).length;
      const runs = Math.max(k.runs, passed);
      const flaked = Math.min(k.flaked, runs);
      const base = {
        testId: id + 1,
        project: '',
        file: `test/t${id % 7}.test.ts`,
        fullName: `case ${id}`,
        platform: k.platform,
        shard: k.shard,
        runs,
        failedRuns: Math.floor(flaked / 2),
        retriedRuns: flaked - Math.floor(flaked / 2),
        rerunPassedRuns: 0,
        flakedRuns: flaked,
        passedRuns: passed,
        lastPassedAt: ms.length > 0 ? at[at.length - 1]! : null,
        lastPassedRun: ms.length > 0 ? 1 : null,
        lastLimitMs: k.limitMs,
      };
      full.push({ ...base, recentMs: ms, recentAt: at });
      if (clean && !(base.lastPassedAt !== null && base.lastPassedAt >= T0)) continue;
      const counts = clean
        ? { runs: runs + k.before, passedRuns: passed + k.before, countsUnread: true }
        : { countsUnread: false };
      // Bounds as ingest keeps them: valid, maybe loose (the lowest and highest ever appended).
      bare.push({
        ...base,
        ...counts,
        recentLow: ms.length > 0 ? Math.max(0, Math.min(...ms) - k.slack) : null,
        recentHigh: ms.length > 0 ? Math.max(...ms) + k.slack : null,
        recentNewest: at.length > 0 ? Math.max(...at) : null,
      });
    }
  });
  // The store sends the rows in any order (summarizeWindow orders them).
  return { full: full.reverse(), bare };
}

function reportOf(tests: TestAggregate[], platforms: PlatformAggregate[], query: HistoryQuery) {
  const trend = selectTrendCandidates(tests, platforms, query);
  return {
    trend,
    causes: causeCandidates(tests, platforms, trend, query),
    json: toHistoryJson(computeHistoryReport({ query, runs: 100, tests, platforms, series: [], outcomes: [] })),
  };
}

describe('durationsNeeded: the durations and counts the report reads, only where they change what it shows', () => {
  it('property: reading the needed tests whole (counts and durations) gives the report, candidates and causes of reading all', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ keys: fc.array(keyArb, { minLength: 1, maxLength: 4 }) }), {
          minLength: 1,
          maxLength: 70,
        }),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom(0.5, 0.8, 1, 1.2),
        (tests, top, warnAt) => {
          const query: HistoryQuery = {
            since: '2026-11-01',
            branch: null,
            fullNamePart: null,
            file: null,
            top,
            warnAt,
          };
          const { full, bare } = rowsOf(tests);
          const all = summarizeWindow(full, T0);
          const first = summarizeWindow(bare, T0);
          const needed = new Set(durationsNeeded(first.tests, first.platforms, query));
          const read = summarizeWindow(
            full.filter((r) => needed.has(r.testId)),
            T0,
          );
          const platforms = withReadPlatforms(first.platforms, read.platforms);
          expect(platforms.map((p) => [p.testId, p.platform])).toEqual(
            all.platforms.map((p) => [p.testId, p.platform]),
          );
          const counted = withReadTests(first.tests, read.tests);
          expect(reportOf(counted, platforms, query)).toEqual(reportOf(all.tests, all.platforms, query));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads none of a large report's tests far from their limit and not flaky", () => {
    const tests = Array.from({ length: 200 }, (_, i) => ({
      keys: [
        {
          platform: 'linux',
          shard: '',
          runs: 20,
          flaked: i < 3 ? 1 : 0,
          limitMs: 5000,
          points: [[0, 10 + i] as [number, number]],
          slack: 0,
          before: 5,
        },
      ],
    }));
    const { bare } = rowsOf(tests);
    const first = summarizeWindow(bare, T0);
    const query: HistoryQuery = {
      since: '2026-11-01',
      branch: null,
      fullNamePart: null,
      file: null,
      top: 10,
      warnAt: 0.8,
    };
    const needed = durationsNeeded(first.tests, first.platforms, query);
    // The three flaky tests and the 30 slowest (the trend candidates), not the other 167.
    expect(needed.length).toBe(33);
  });
});
