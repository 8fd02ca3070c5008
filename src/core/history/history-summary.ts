/**
 * The history report's inputs from the store's summaries (history-schema-summaries.ts): one row per
 * (test, platform, shard) of a scope with its counts over the window (the newest day row less the
 * newest before the window) and its newest passed durations, folded here into the per-test counts,
 * the per-platform durations and the cause's per-shard groups. Pure.
 */
import { compareCodePoints } from '../code-point-order.js';
import { unreadPlatform } from './durations-needed.js';
import type { PlatformAggregate, SeriesPoint, TestAggregate } from './history-report.js';
import { percentileCont } from './percentile.js';
import { recentDurations } from './recent-durations.js';
import { seriesByKey } from './series-groups.js';
import { TREND_MAX_POINTS } from './trend-interval.js';

/** One key's row from the store, its counts over the window. */
export interface SummaryRow {
  readonly testId: number;
  readonly project: string;
  readonly file: string;
  readonly fullName: string;
  readonly platform: string;
  /** 'k/n', or '' when not sharded. */
  readonly shard: string;
  readonly runs: number;
  readonly failedRuns: number;
  readonly retriedRuns: number;
  readonly rerunPassedRuns: number;
  /** Runs it failed or passed only on a retry. */
  readonly flakedRuns: number;
  /** Passed runs with a duration. */
  readonly passedRuns: number;
  /**
   * Set when the counts were not probed (io/history/summary-read.ts): the test has no failed or
   * flaky run in the scope, the counts are the key's totals (upper bounds), and it passed in the window.
   */
  readonly countsUnread?: boolean;
  /** The newest passed run (epoch ms, run's id, its limit), over the whole history. */
  readonly lastPassedAt: number | null;
  readonly lastPassedRun: number | null;
  readonly lastLimitMs: number | null;
  /**
   * The newest passed durations and their start times (epoch ms), oldest first; undefined when
   * they were not read (the report reads them only where they can change what it shows,
   * durations-needed.ts), and then the bounds below stand for them.
   */
  readonly recentMs?: readonly number[] | null | undefined;
  readonly recentAt?: readonly number[] | null | undefined;
  /** Bounds of those durations (none lies outside; schema 6) and the newest of their starts. */
  readonly recentLow?: number | null;
  readonly recentHigh?: number | null;
  readonly recentNewest?: number | null;
}

/** A test's runs on one platform and shard: what the cause rules count (core/cause/history-cause.ts). */
export interface OutcomeGroup {
  readonly testId: number;
  readonly platform: string;
  readonly shard: string;
  readonly runs: number;
  readonly flaked: number;
}

export interface SummaryInput {
  readonly tests: TestAggregate[];
  readonly platforms: PlatformAggregate[];
  readonly groups: OutcomeGroup[];
}

/** 'k/n' for a sharded run, '' for one that was not: the summaries' shard key. */
export function shardKeyOf(index: number | null, count: number | null): string {
  return index === null || count === null ? '' : `${index}/${count}`;
}

/** The newest passed run among the rows (by start, then run id), or null. */
function newestPass(rows: readonly SummaryRow[]): SummaryRow | null {
  let newest: SummaryRow | null = null;
  for (const r of rows) {
    if (r.passedRuns === 0 || r.lastPassedAt === null) continue;
    const later =
      newest === null ||
      r.lastPassedAt > newest.lastPassedAt! ||
      (r.lastPassedAt === newest.lastPassedAt && (r.lastPassedRun ?? 0) > (newest.lastPassedRun ?? 0));
    if (later) newest = r;
  }
  return newest;
}

function platformOf(testId: number, platform: string, rows: readonly SummaryRow[], cutoffMs: number) {
  let passed = 0;
  for (const r of rows) passed += r.passedRuns;
  if (passed === 0) return null;
  const newest = newestPass(rows);
  if (newest === null) return null;
  if (rows.some((r) => r.recentMs === undefined))
    return unreadPlatform(rows, cutoffMs, { testId, platform, runs: passed, limitMs: newest.lastLimitMs ?? 0 });
  const recent = recentDurations(rows, cutoffMs);
  if (recent.length === 0) return null;
  return {
    testId,
    platform,
    runs: passed,
    medianMs: percentileCont(recent, 0.5),
    p95Ms: percentileCont(recent, 0.95),
    limitMs: newest.lastLimitMs ?? 0,
  };
}

/** One test's rows (all of the same test id, ordered by platform and shard) folded into the report's inputs. */
function foldTest(own: readonly SummaryRow[], cutoffMs: number, into: SummaryInput): void {
  const first = own[0]!;
  let runs = 0;
  let failedRuns = 0;
  let retriedRuns = 0;
  let rerunPassedRuns = 0;
  let flaked = 0;
  for (const r of own) {
    runs += r.runs;
    failedRuns += r.failedRuns;
    retriedRuns += r.retriedRuns;
    rerunPassedRuns += r.rerunPassedRuns;
    flaked += r.flakedRuns;
  }
  if (runs <= 0) return;
  const { testId, project, file, fullName } = first;
  into.tests.push({ testId, project, file, fullName, runs, failedRuns, retriedRuns, rerunPassedRuns });
  // Each platform's rows are consecutive (one a shard).
  for (let i = 0; i < own.length; ) {
    let end = i + 1;
    while (end < own.length && own[end]!.platform === own[i]!.platform) end += 1;
    const p = platformOf(testId, own[i]!.platform, end - i === 1 ? [own[i]!] : own.slice(i, end), cutoffMs);
    if (p !== null) into.platforms.push(p);
    i = end;
  }
  // The cause rules read the groups of tests with flaky runs, which flaked (history-outcomes.ts).
  if (flaked === 0) return;
  for (const r of own) {
    if (r.runs > 0)
      into.groups.push({ testId, platform: r.platform, shard: r.shard, runs: r.runs, flaked: r.flakedRuns });
  }
}

const byName = (a: SummaryRow, b: SummaryRow): number =>
  compareCodePoints(a.project, b.project) ||
  compareCodePoints(a.file, b.file) ||
  compareCodePoints(a.fullName, b.fullName) ||
  a.testId - b.testId;

const byKey = (a: SummaryRow, b: SummaryRow): number =>
  compareCodePoints(a.platform, b.platform) || compareCodePoints(a.shard, b.shard);

/**
 * Folds each test's rows (all its keys, in any order) into the report's inputs: the tests ordered
 * by project, file and name in code points (the store sends them unsorted), each test's platforms
 * and shards by name. A platform's median and p95 are those of its newest passed runs in the
 * window (at most RECENT_SUMMARY); a test whose series is read gets them from the series
 * (history-platform.ts). The outcome groups are those of the tests with a flaked run. A test's
 * rows may be made as they are folded (io/history/summary-read.ts): none is kept.
 */
export function summarizeTests(tests: Iterable<SummaryRow[]>, cutoffMs: number): SummaryInput {
  const into: SummaryInput = { tests: [], platforms: [], groups: [] };
  const spans: { first: SummaryRow; test: number; platforms: number; groups: number }[] = [];
  for (const own of tests) {
    if (own.length === 0) continue;
    const span = {
      first: own[0]!,
      test: into.tests.length,
      platforms: into.platforms.length,
      groups: into.groups.length,
    };
    foldTest(own.length > 1 ? own.sort(byKey) : own, cutoffMs, into);
    if (into.tests.length > span.test) spans.push(span);
  }
  const ends = (i: number) => spans[i + 1] ?? { platforms: into.platforms.length, groups: into.groups.length };
  const order = spans.map((_, i) => i).sort((a, b) => byName(spans[a]!.first, spans[b]!.first));
  const out: SummaryInput = { tests: [], platforms: [], groups: [] };
  for (const i of order) {
    const span = spans[i]!;
    out.tests.push(into.tests[span.test]!);
    for (let k = span.platforms; k < ends(i).platforms; k += 1) out.platforms.push(into.platforms[k]!);
    for (let k = span.groups; k < ends(i).groups; k += 1) out.groups.push(into.groups[k]!);
  }
  return out;
}

/** summarizeTests of rows in any order. */
export function summarizeWindow(rows: readonly SummaryRow[], cutoffMs: number): SummaryInput {
  const byTest = new Map<number, SummaryRow[]>();
  for (const r of rows) {
    const own = byTest.get(r.testId);
    if (own) own.push(r);
    else byTest.set(r.testId, [r]);
  }
  return summarizeTests(byTest.values(), cutoffMs);
}

/**
 * A key's series as the store gives it (newest first, at most a bounded number of rows), cut to the
 * newest TREND_MAX_POINTS passed runs and the failed runs among them, oldest first: what the trend,
 * the recent p95 and the durations read.
 */
export function newestSeries<T extends { readonly state: string }>(newestFirst: readonly T[]): T[] {
  return newestFirst
    .slice(
      0,
      newestSeriesLength(newestFirst.length, (i) => newestFirst[i]!.state === 'passed'),
    )
    .reverse();
}

/** How many of a key's `length` points, newest first, newestSeries keeps; `passed(i)`: whether the i-th passed. */
export function newestSeriesLength(length: number, passed: (i: number) => boolean): number {
  let count = 0;
  for (let i = 0; i < length; i += 1) {
    if (count === TREND_MAX_POINTS) return i;
    if (passed(i)) count += 1;
  }
  return length;
}

/**
 * The platforms whose series was read get their median and p95 from its passed runs (the newest
 * TREND_MAX_POINTS in the window, what the trend is fitted on); the others keep the summaries'.
 */
export function withSeriesDurations(
  platforms: readonly PlatformAggregate[],
  series: readonly SeriesPoint[],
): PlatformAggregate[] {
  const points = seriesByKey(series);
  return platforms.map((p) => {
    const own = points.get(p.testId)?.get(p.platform);
    if (own === undefined) return p;
    const durations: number[] = [];
    for (const s of own) if (s.state === 'passed') durations.push(s.durationMs);
    if (durations.length === 0) return p;
    durations.sort((a, b) => a - b);
    return { ...p, medianMs: percentileCont(durations, 0.5), p95Ms: percentileCont(durations, 0.95) };
  });
}
