/**
 * Each test's run counts over a window, and nothing else: what the quarantine proposals read
 * (history-proposals.ts). From the summaries like the report's rows (history-query.ts), summed per
 * test in SQL: one row a test, no durations, no series.
 */
import { isoDayOf } from '../../core/calendar.js';
import type { TestAggregate } from '../../core/history/history-report.js';
import { ALL_BRANCHES } from '../../core/history/history-schema-summaries.js';
import type { HistoryFilter } from './history-query.js';
import { normalFile, windowStartMs } from './history-query.js';
import type { HistoryStore } from './history-store.js';
import { windowFloor } from './summary-read.js';

const COUNTS_SQL = `SELECT k.test_id AS "testId", t.project, t.file, t.name AS "fullName",
    sum(k.runs - coalesce(b.runs, 0))::int AS runs, sum(k.failed_runs - coalesce(b.failed_runs, 0))::int AS "failedRuns",
    sum(k.retried_runs - coalesce(b.retried_runs, 0))::int AS "retriedRuns",
    sum(k.rerun_passed_runs - coalesce(b.rerun_passed_runs, 0))::int AS "rerunPassedRuns"
  FROM flakeguard_test_keys k JOIN flakeguard_tests t ON t.id = k.test_id
  ${windowFloor()}
  WHERE k.scope = $1
    AND ($3::text IS NULL OR strpos(t.name, $3) > 0)
    AND ($4::text IS NULL OR t.file = $4 OR left(t.file, length($4) + 1) = $4 || '/')
  GROUP BY k.test_id, t.project, t.file, t.name
  HAVING sum(k.runs - coalesce(b.runs, 0)) > 0
  ORDER BY t.project, t.file, t.name`;

/** The tests that ran in the window, with their counts, in the order of their names. */
export async function readTestCounts(store: HistoryStore, filter: HistoryFilter): Promise<TestAggregate[]> {
  const startMs = windowStartMs(filter.cutoffMs);
  return store.query<TestAggregate>(COUNTS_SQL, [
    filter.branch ?? ALL_BRANCHES,
    isoDayOf(startMs),
    filter.fullNamePart,
    normalFile(filter.file),
  ]);
}
