/**
 * The history report's inputs from the store's summaries (history-schema-summaries.ts): one row per
 * (test, platform, shard) of a scope with its counts over the window (the newest day row less the
 * newest before the window) and its newest passed durations, folded here into the per-test counts,
 * the per-platform durations and the cause's per-shard groups. Pure.
 */
import type { HistoryRun } from '../cause/history-cause.js';
import type { PlatformAggregate, SeriesPoint, TestAggregate, TestHistoryRun } from './history-report.js';
import { RECENT_SUMMARY } from './history-schema-summaries.js';
import { percentileCont } from './percentile.js';
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
  /** The newest passed run (epoch ms, run's id, its limit), over the whole history. */
  readonly lastPassedAt: number | null;
  readonly lastPassedRun: number | null;
  readonly lastLimitMs: number | null;
  /** The newest passed durations and their start times (epoch ms), oldest first. */
  readonly recentMs: readonly number[] | null;
  readonly recentAt: readonly number[] | null;
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

/** The newest RECENT_SUMMARY passed durations at or after `cutoffMs` over the rows of one platform, sorted. */
function recentDurations(rows: readonly SummaryRow[], cutoffMs: number): number[] {
  // Flat (start, duration) pairs, not an object a point: 6,000 platforms x 20-40 points a report.
  const ats: number[] = [];
  const mss: number[] = [];
  for (const r of rows) {
    const at = r.recentAt ?? [];
    const ms = r.recentMs ?? [];
    for (let i = 0; i < ms.length; i += 1) {
      const a = at[i];
      if (a !== undefined && a >= cutoffMs) {
        ats.push(a);
        mss.push(ms[i]!);
      }
    }
  }
  if (ats.length <= RECENT_SUMMARY) return mss.sort((a, b) => a - b);
  const order = ats.map((_, i) => i).sort((i, j) => ats[i]! - ats[j]! || mss[i]! - mss[j]!);
  return order
    .slice(-RECENT_SUMMARY)
    .map((i) => mss[i]!)
    .sort((a, b) => a - b);
}

function platformOf(testId: number, platform: string, rows: readonly SummaryRow[], cutoffMs: number) {
  const passed = rows.reduce((n, r) => n + r.passedRuns, 0);
  if (passed === 0) return null;
  let newest: SummaryRow | null = null;
  for (const r of rows) {
    if (r.passedRuns === 0 || r.lastPassedAt === null) continue;
    const later =
      newest === null ||
      r.lastPassedAt > newest.lastPassedAt! ||
      (r.lastPassedAt === newest.lastPassedAt && (r.lastPassedRun ?? 0) > (newest.lastPassedRun ?? 0));
    if (later) newest = r;
  }
  const recent = recentDurations(rows, cutoffMs);
  if (newest === null || recent.length === 0) return null;
  return {
    testId,
    platform,
    runs: passed,
    medianMs: percentileCont(recent, 0.5),
    p95Ms: percentileCont(recent, 0.95),
    limitMs: newest.lastLimitMs ?? 0,
  };
}

/**
 * Folds the rows (ordered by project, file, name, platform, shard) into the report's inputs, in that
 * order. A platform's median and p95 are those of its newest passed runs in the window (at most
 * RECENT_SUMMARY); a test whose series is read gets them from the series (history-platform.ts).
 */
export function summarizeWindow(rows: readonly SummaryRow[], cutoffMs: number): SummaryInput {
  const tests: TestAggregate[] = [];
  const platforms: PlatformAggregate[] = [];
  const groups: OutcomeGroup[] = [];
  let i = 0;
  while (i < rows.length) {
    const first = rows[i]!;
    let end = i;
    while (end < rows.length && rows[end]!.testId === first.testId) end += 1;
    const own = rows.slice(i, end);
    const sum = (pick: (r: SummaryRow) => number): number => own.reduce((n, r) => n + pick(r), 0);
    const runs = sum((r) => r.runs);
    if (runs > 0) {
      tests.push({
        testId: first.testId,
        project: first.project,
        file: first.file,
        fullName: first.fullName,
        runs,
        failedRuns: sum((r) => r.failedRuns),
        retriedRuns: sum((r) => r.retriedRuns),
        rerunPassedRuns: sum((r) => r.rerunPassedRuns),
      });
      for (const platform of [...new Set(own.map((r) => r.platform))]) {
        const p = platformOf(
          first.testId,
          platform,
          own.filter((r) => r.platform === platform),
          cutoffMs,
        );
        if (p !== null) platforms.push(p);
      }
      for (const r of own) {
        if (r.runs > 0)
          groups.push({ testId: r.testId, platform: r.platform, shard: r.shard, runs: r.runs, flaked: r.flakedRuns });
      }
    }
    i = end;
  }
  return { tests, platforms, groups };
}

/** A flaked run's first error, oldest first. */
export interface FlakedError {
  readonly testId: number;
  readonly platform: string;
  readonly shard: string;
  readonly error: string;
}

const shardOrder = (s: string): [number, number] => {
  const [k, n] = s.split('/').map(Number);
  return s === '' ? [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY] : [k ?? 0, n ?? 0];
};

/** The runs the cause rules read for `ids`: per group, its flaked runs (with their errors), then its clean passes as one entry. */
export function outcomesOf(
  groups: readonly OutcomeGroup[],
  errors: readonly FlakedError[],
  ids: ReadonlySet<number>,
): TestHistoryRun[] {
  const errorsOf = new Map<string, string[]>();
  for (const e of errors) {
    const key = `${e.testId}\u0000${e.platform}\u0000${e.shard}`;
    errorsOf.set(key, [...(errorsOf.get(key) ?? []), e.error]);
  }
  const chosen = groups
    .filter((g) => ids.has(g.testId))
    .sort((a, b) => {
      const [ak, an] = shardOrder(a.shard);
      const [bk, bn] = shardOrder(b.shard);
      return a.testId - b.testId || (a.platform < b.platform ? -1 : a.platform > b.platform ? 1 : ak - bk || an - bn);
    });
  return chosen.flatMap((g) => {
    const shard = g.shard === '' ? null : g.shard;
    const errs = errorsOf.get(`${g.testId}\u0000${g.platform}\u0000${g.shard}`) ?? [];
    const run = (flaked: boolean, error: string | null): HistoryRun & { testId: number } => ({
      testId: g.testId,
      platform: g.platform,
      shard,
      state: flaked ? 'failed' : 'passed',
      flaky: false,
      error,
    });
    // The clean passes as one entry standing for all of them (HistoryRun.count).
    const clean = g.runs - g.flaked;
    return [
      ...Array.from({ length: g.flaked }, (_, i) => run(true, errs[i] ?? null)),
      ...(clean > 0 ? [{ ...run(false, null), count: clean }] : []),
    ];
  });
}

/**
 * A key's series as the store gives it (newest first, at most a bounded number of rows), cut to the
 * newest TREND_MAX_POINTS passed runs and the failed runs among them, oldest first: what the trend,
 * the recent p95 and the durations read.
 */
export function newestSeries<T extends { readonly state: string }>(newestFirst: readonly T[]): T[] {
  const kept: T[] = [];
  let passed = 0;
  for (const point of newestFirst) {
    if (passed === TREND_MAX_POINTS) break;
    kept.push(point);
    if (point.state === 'passed') passed += 1;
  }
  return kept.reverse();
}

/**
 * The platforms whose series was read get their median and p95 from its passed runs (the newest
 * TREND_MAX_POINTS in the window, what the trend is fitted on); the others keep the summaries'.
 */
export function withSeriesDurations(
  platforms: readonly PlatformAggregate[],
  series: readonly SeriesPoint[],
): PlatformAggregate[] {
  const passed = new Map<string, number[]>();
  for (const s of series) {
    if (s.state !== 'passed') continue;
    const key = `${s.testId}\u0000${s.platform}`;
    const list = passed.get(key);
    if (list) list.push(s.durationMs);
    else passed.set(key, [s.durationMs]);
  }
  return platforms.map((p) => {
    const durations = passed.get(`${p.testId}\u0000${p.platform}`)?.sort((a, b) => a - b);
    if (durations === undefined || durations.length === 0) return p;
    return { ...p, medianMs: percentileCont(durations, 0.5), p95Ms: percentileCont(durations, 0.95) };
  });
}
