/**
 * Quarantine as the reporter sees it: for each test under a quarantine entry (docs/quarantine.md),
 * whether the entry still applies today. A quarantined test still runs; while its entry applies, its
 * failure is listed but does not fail the run. An expired entry no longer applies: the test fails the
 * run again and the report says on which day the quarantine ended. Pure.
 */

import type { QuarantineTerms } from '../allowances/quarantine-terms.js';
import { hasExpired } from '../calendar.js';
import { trendOfStoredRuns } from '../history/history-trend.js';
import { describeDurationTrend } from '../history/history-trend-text.js';
import type { RecordedError, TestState } from '../record/run-record.js';
import type { TestId } from '../test-id.js';

type StoredRunLike = Parameters<typeof trendOfStoredRuns>[0][number];

export interface RunQuarantine {
  readonly id: string;
  readonly reason: string;
  readonly link: string | null;
  /** YYYY-MM-DD (UTC, core/calendar.ts), or null for no end date. */
  readonly expires: string | null;
  /** True when `expires` is before today: the entry no longer applies. */
  readonly expired: boolean;
}

/** A test under quarantine in this run, as the report lists it. */
export interface QuarantinedTest extends TestId {
  readonly line: number | null;
  readonly state: TestState;
  readonly quarantine: RunQuarantine;
  readonly firstError: RecordedError | null;
  /** From the history store, this run included: how often the test failed in its recent runs. */
  readonly recent?: RecentFailures;
}

export interface RecentFailures {
  readonly failures: number;
  readonly runs: number;
  /** Its duration trend over those runs, in the words and under the projection rule of the history report. */
  readonly trend?: string;
}

/** The stored runs before this one (newest first) and this run's failure: the counts, and the trend of the stored runs. */
export function recentFailuresOf(stored: readonly StoredRunLike[]): RecentFailures {
  const failed = stored.filter((r) => r.state === 'failed').length;
  const found = trendOfStoredRuns(stored);
  const base = { failures: failed + 1, runs: stored.length + 1 };
  return found === null || found.trend.perRun === null
    ? base
    : { ...base, trend: `durations ${describeDurationTrend(found.trend)}` };
}

const ordinal = (n: number): string => {
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13 ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
};

/** `3rd failure in the last 20 runs` (this run counted), then the trend when there is one. */
export function formatRecentFailures(recent: RecentFailures): string {
  const trend = recent.trend === undefined ? '' : `; ${recent.trend}`;
  return `${ordinal(recent.failures)} failure in the last ${recent.runs} run${recent.runs === 1 ? '' : 's'}${trend}`;
}

/** The quarantined tests with their recent failures from history, by testKey. */
export function withRecentFailures<T extends { readonly quarantined: readonly QuarantinedTest[] }>(
  report: T,
  recent: ReadonlyMap<string, RecentFailures>,
  keyOf: (q: QuarantinedTest) => string,
): T {
  if (recent.size === 0) return report;
  return {
    ...report,
    quarantined: report.quarantined.map((q) => {
      const r = recent.get(keyOf(q));
      return r ? { ...q, recent: r } : q;
    }),
  };
}

/** The entry's terms as they stand on `today` (a UTC day). */
export function toRunQuarantine(id: string, terms: QuarantineTerms, today: string): RunQuarantine {
  return {
    id,
    reason: terms.reason,
    link: terms.link,
    expires: terms.expires,
    expired: terms.expires !== null && hasExpired(terms.expires, today),
  };
}

export function isQuarantineActive(q: RunQuarantine | undefined): q is RunQuarantine {
  return q !== undefined && !q.expired;
}

/** `quarantine 3fa2c1d0 until 2027-01-15 (TRK-19: flaky on CI)` or `... expired on 2026-11-30`. */
export function describeQuarantine(q: RunQuarantine): string {
  const until = q.expires === null ? 'with no end date' : q.expired ? `expired on ${q.expires}` : `until ${q.expires}`;
  const link = q.link === null ? '' : ` ${q.link}`;
  return `quarantine ${q.id} ${until}: ${q.reason}${link}`;
}
