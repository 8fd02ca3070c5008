/**
 * The history report: per test, runs, failed runs, runs that passed only on a retry, the flake rate
 * with its Clopper-Pearson bound, duration median and p95 per platform, the Theil-Sen trend (ms per
 * run and per day) with Sen's 95% interval, the time to its limit as a range only when the
 * projection rule claims a crossing, and whether it is near its limit (history-platform.ts,
 * history-trend.ts). Pure: the store's aggregates in, the report out (docs/history.md has the JSON
 * schema).
 */
import type { IsoDay } from '../calendar.js';
import type { CauseFinding } from '../cause/cause.js';
import { findHistoryCause, type HistoryRun } from '../cause/history-cause.js';
import { failureRateUpperBound } from '../failure-rate.js';
import type { TestId } from '../test-id.js';
import type { TestMachine } from './history-machines.js';
import {
  byUrgency,
  type DurationSummary,
  type HistoryPlatform,
  type PlatformAggregate,
  round,
  type SeriesPoint,
  type TrendFigures,
} from './history-platform.js';
import { reportPlatforms } from './report-platforms.js';

export type { HistoryPlatform, PlatformAggregate, SeriesPoint } from './history-platform.js';

/** 2: a test's full name is `fullName` (was `name`), in `tests` and in the quarantine proposals. */
const HISTORY_REPORT_VERSION = 2 as const;

/** Counts for one test over the window, from the store. */
export interface TestAggregate extends TestId {
  readonly testId: number;
  readonly project: string;
  /** Runs in which the test passed or failed (skipped and unfinished runs are not counted). */
  readonly runs: number;
  readonly failedRuns: number;
  /** Runs in which it passed only after a retry. */
  readonly retriedRuns: number;
  /** Failed runs on a commit where the test also passed in another run (a re-run passed). */
  readonly rerunPassedRuns: number;
}

export interface HistoryQuery {
  readonly since: IsoDay;
  readonly branch: string | null;
  /** --test: part of the full name (a filter, not a test's full name). */
  readonly fullNamePart: string | null;
  readonly file: string | null;
  /** How many tests each list of the default view shows. */
  readonly top: number;
  /** Share of the limit at which a recent p95 makes a test near its limit (budget.warnAt). */
  readonly warnAt: number;
}

export interface HistoryInput {
  readonly query: HistoryQuery;
  readonly runs: number;
  readonly tests: readonly TestAggregate[];
  readonly platforms: readonly PlatformAggregate[];
  /** Oldest first, for the tests chosen by selectTrendCandidates. */
  readonly series: readonly SeriesPoint[];
  /** The runs of the tests with flaky runs (platform, shard, first error): their causes. */
  readonly outcomes?: readonly TestHistoryRun[];
}

/** A stored run of one test, for its cause (core/cause/history-cause.ts). */
export type TestHistoryRun = HistoryRun & { readonly testId: number };

type ListedFor = 'flaky' | 'near-limit' | 'match';

export interface HistoryTest extends TrendFigures, TestId {
  readonly project: string;
  readonly runs: number;
  readonly failedRuns: number;
  readonly retriedRuns: number;
  readonly flakyRuns: number;
  readonly flakeRate: number | null;
  readonly flakeRateUpper: number | null;
  /** The platform the headline figures are for: the one nearest to its limit. */
  readonly platform: string | null;
  readonly durationMs: DurationSummary | null;
  readonly limitMs: number | null;
  readonly listedFor: readonly ListedFor[];
  readonly platforms: readonly HistoryPlatform[];
  /** The test file's owners from CODEOWNERS (empty: none, or no CODEOWNERS). */
  readonly owners?: readonly string[];
  /** Why it is flaky, inferred from its runs' platforms, shards and errors; only on a test with flaky runs. */
  readonly cause?: CauseFinding;
  /** The machines it ran on in the window (history-machines.ts); absent until they are read. */
  readonly machines?: readonly TestMachine[];
}

export interface HistoryReport {
  readonly version: typeof HISTORY_REPORT_VERSION;
  readonly since: IsoDay;
  readonly branch: string | null;
  readonly view: 'default' | 'filtered';
  readonly warnAt: number;
  readonly runs: number;
  readonly tests: readonly HistoryTest[];
}

const flakyRunsOf = (t: TestAggregate): number => t.retriedRuns + t.rerunPassedRuns;

function isFiltered(query: HistoryQuery): boolean {
  return query.fullNamePart !== null || query.file !== null;
}

/** Tests with durations, nearest to crossing their limit first. */
export function nearestFirst(tests: readonly HistoryTest[]): HistoryTest[] {
  return tests.filter((t) => t.platforms.length > 0).sort((a, b) => byUrgency(a.platforms[0]!, b.platforms[0]!));
}

const TREND_KEYS = [
  'trendMsPerRun',
  'trendMsPerRunBounds',
  'trendMsPerDay',
  'trendMsPerDayBounds',
  'runsToLimit',
  'runsToLimitRange',
  'daysToLimit',
  'daysToLimitRange',
  'recentP95Ms',
  'nearLimit',
] as const;

/** The headline platform's trend figures (all null without one). */
function headFigures(head: HistoryPlatform | null): TrendFigures {
  return Object.fromEntries(TREND_KEYS.map((k) => [k, head === null ? null : head[k]])) as unknown as TrendFigures;
}

function computeTest(
  t: TestAggregate,
  platforms: readonly HistoryPlatform[],
  listedFor: readonly ListedFor[],
  runs: readonly HistoryRun[],
  bounded = true,
): HistoryTest {
  const flakyRuns = flakyRunsOf(t);
  const bound = bounded && t.runs > 0 ? failureRateUpperBound(flakyRuns, t.runs) : null;
  const sorted = [...platforms].sort(byUrgency);
  const head = sorted[0] ?? null;
  return {
    file: t.file,
    fullName: t.fullName,
    project: t.project,
    runs: t.runs,
    failedRuns: t.failedRuns,
    retriedRuns: t.retriedRuns,
    flakyRuns,
    flakeRate: bound ? round(bound.observed, 4) : null,
    flakeRateUpper: bound ? round(bound.upper, 4) : null,
    platform: head?.platform ?? null,
    durationMs: head?.durationMs ?? null,
    ...headFigures(head),
    limitMs: head?.limitMs ?? null,
    listedFor,
    platforms: sorted,
    ...(flakyRuns > 0 ? { cause: findHistoryCause({ file: t.file, line: null, runs }) } : {}),
  };
}

/** computeTest for the report's input, and whether a test has a platform near its limit. */
type ComputeTest = ((t: TestAggregate, listedFor: ListedFor[], bounded?: boolean) => HistoryTest) & {
  readonly anyNear: (testId: number) => boolean;
};

/** computeTest with each test's platforms (their trends fitted on the series) and its cause's runs. */
function perTest(input: HistoryInput): ComputeTest {
  const platforms = reportPlatforms(input.platforms, input.series, input.query.warnAt);
  const runsOf = new Map<number, HistoryRun[]>();
  for (const { testId, ...run } of input.outcomes ?? []) {
    const list = runsOf.get(testId);
    if (list) list.push(run);
    else runsOf.set(testId, [run]);
  }
  const compute = (t: TestAggregate, listedFor: ListedFor[], bounded = true) =>
    computeTest(t, platforms.of(t.testId), listedFor, runsOf.get(t.testId) ?? [], bounded);
  return Object.assign(compute, { anyNear: platforms.anyNear });
}

/**
 * The default view's lists: the most flaky, then those nearest their limit. The flake rate's bound
 * is computed for the tests with flaky runs (the flaky list's order), and for the others only once
 * listed: 60 bisection steps for each of thousands of tests.
 */
function defaultTests(input: HistoryInput, compute: ComputeTest): HistoryTest[] {
  const aggregateOf = new Map<HistoryTest, TestAggregate>();
  // Only a test with flaky runs or a platform near its limit can be listed.
  const all = input.tests
    .filter((t) => flakyRunsOf(t) > 0 || compute.anyNear(t.testId))
    .map((t) => {
      const test = compute(t, [], flakyRunsOf(t) > 0);
      aggregateOf.set(test, t);
      return test;
    });
  const flaky = all
    .filter((t) => t.flakyRuns > 0)
    .sort((a, b) => (b.flakeRate ?? 0) - (a.flakeRate ?? 0) || (b.flakeRateUpper ?? 0) - (a.flakeRateUpper ?? 0))
    .slice(0, input.query.top);
  // Listed as near its limit only when it is (history-trend.ts nearLimit): the page's count and tags read the same field.
  const near = nearestFirst(all.filter((t) => t.nearLimit !== null)).slice(0, input.query.top);
  const listed = new Map<HistoryTest, ListedFor[]>();
  for (const t of flaky) listed.set(t, ['flaky']);
  for (const t of near) listed.set(t, [...(listed.get(t) ?? []), 'near-limit']);
  return [...listed.entries()].map(([t, listedFor]) =>
    t.flakyRuns > 0 ? { ...t, listedFor } : compute(aggregateOf.get(t)!, listedFor, true),
  );
}

export function computeHistoryReport(input: HistoryInput): HistoryReport {
  const { query } = input;
  const compute = perTest(input);
  const base = {
    version: HISTORY_REPORT_VERSION,
    since: query.since,
    branch: query.branch,
    warnAt: query.warnAt,
    runs: input.runs,
  };
  if (!isFiltered(query)) return { ...base, view: 'default', tests: defaultTests(input, compute) };
  const tests = input.tests
    .map((t) => compute(t, ['match']))
    .sort((a, b) =>
      a.file < b.file ? -1 : a.file > b.file ? 1 : a.fullName < b.fullName ? -1 : a.fullName > b.fullName ? 1 : 0,
    );
  return { ...base, view: 'filtered', tests };
}
