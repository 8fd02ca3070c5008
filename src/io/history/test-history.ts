/**
 * Per-test questions triage and quarantine ask the store: the last runs of a test (on a branch),
 * whether it failed and then passed on a retry or a re-run of the same commit, and its last passing
 * run with commit and date. Same SQL on both engines.
 */

import { ALL_BRANCHES } from '../../core/history/history-schema-summaries.js';
import type { CiContext } from '../../core/record/ci-context.js';
import type { TestState } from '../../core/record/run-record.js';
import type { TestId } from '../../core/test-id.js';
import type { Queryable } from './history-store.js';

/** A test as history is asked about it: project null (a log's test, a quarantine's) matches every project. */
export type StoredTestRef = TestId;

export interface StoredTestRun {
  readonly runId: string;
  /** ISO time the run started. */
  readonly startedAt: string;
  readonly branch: string | null;
  readonly commit: string | null;
  readonly job: string | null;
  /** The run's CI context, when its record carried one (schema 2). */
  readonly ci: CiContext | null;
  readonly platform: string;
  /** The run's shard (1-based index of count), null when it was not sharded. */
  readonly shardIndex: number | null;
  readonly shardCount: number | null;
  readonly state: TestState;
  readonly durationMs: number | null;
  readonly retries: number;
  /** Passed only after a retry. */
  readonly flaky: boolean;
  readonly limitMs: number;
  readonly firstError: string | null;
}

export interface RunsOptions {
  readonly branch?: string | null;
  /** Newest first, at most this many (default 20). */
  readonly limit?: number;
}

const SELECT_RUNS = `SELECT u.run_id AS "runId", to_char(u.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "startedAt",
    u.branch, u.commit_sha AS "commit", u.ci_job AS "job", u.ci, u.platform,
    u.shard_index AS "shardIndex", u.shard_count AS "shardCount", r.state, r.duration_ms AS "durationMs",
    r.retries, r.flaky, r.limit_ms AS "limitMs", r.first_error AS "firstError"
  FROM flakeguard_results r
  JOIN flakeguard_runs u ON u.id = r.run_id`;

// The test's ids: one, or one per project when the project is null (a log's test, a quarantine's).
const TEST_IDS =
  '(SELECT id FROM flakeguard_tests WHERE ($1::text IS NULL OR project = $1) AND file = $2 AND name = $3)';

// The test's newest results are an index range read backward (results carry their run's start and
// branch), at most the limit per test id: a join over all of a test's results would read every one
// of them (10,000 in a 20 M-result history) to keep 20. The branch filter is its own SQL text so
// each engine plans the index with the branch.
const newestSql = (branch: string | null | undefined) =>
  `${SELECT_RUNS.replace(
    'FROM flakeguard_results r',
    `FROM ${TEST_IDS} AS t
  CROSS JOIN LATERAL (SELECT * FROM flakeguard_results x WHERE x.test_id = t.id ${branch ? 'AND x.branch = $5' : ''}
    ORDER BY x.started_at DESC, x.run_id DESC LIMIT $4) r`,
  )}
  ORDER BY r.started_at DESC, r.run_id DESC LIMIT $4`;

// The newest passed run from the summaries: the newest of the test's keys in the scope (their totals, schema 6).
const LAST_PASSED = `SELECT k.last_passed_run AS run FROM flakeguard_test_keys k
  WHERE k.scope = $4 AND k.test_id IN ${TEST_IDS} AND k.last_passed_run IS NOT NULL
  ORDER BY k.last_passed_at DESC, k.last_passed_run DESC LIMIT 1`;

const ref = (test: StoredTestRef): unknown[] => [test.project, test.file, test.fullName];

/** The test's last runs (passed, failed, skipped or unfinished), newest first. */
export async function lastRunsOfTest(
  store: Queryable,
  test: StoredTestRef,
  options: RunsOptions = {},
): Promise<StoredTestRun[]> {
  const params = [...ref(test), options.limit ?? 20];
  return store.query<StoredTestRun>(newestSql(options.branch), options.branch ? [...params, options.branch] : params);
}

/** The newest run in which the test passed (with its commit and date), or null. */
export async function lastPassingRun(
  store: Queryable,
  test: StoredTestRef,
  options: Pick<RunsOptions, 'branch'> = {},
): Promise<StoredTestRun | null> {
  const [newest] = await store.query<{ run: number }>(LAST_PASSED, [...ref(test), options.branch ?? ALL_BRANCHES]);
  if (newest === undefined) return null;
  const rows = await store.query<StoredTestRun>(`${SELECT_RUNS} WHERE r.run_id = $4 AND r.test_id IN ${TEST_IDS}`, [
    ...ref(test),
    newest.run,
  ]);
  return rows[0] ?? null;
}

export interface FailedThenPassed {
  /** Runs in which the test failed a try and passed on a retry in the same run. */
  readonly retried: readonly StoredTestRun[];
  /** A failed run and a later run of the same commit in which the test passed. */
  readonly rerun: readonly { readonly failed: StoredTestRun; readonly passed: StoredTestRun }[];
}

/** Evidence that the test is flaky: passes after a failure, without a change of code. */
export async function failedThenPassed(
  store: Queryable,
  test: StoredTestRef,
  options: RunsOptions = {},
): Promise<FailedThenPassed> {
  const runs = await lastRunsOfTest(store, test, { branch: options.branch ?? null, limit: options.limit ?? 200 });
  const oldestFirst = [...runs].reverse();
  const retried = runs.filter((r) => r.state === 'passed' && r.flaky);
  const rerun: { failed: StoredTestRun; passed: StoredTestRun }[] = [];
  oldestFirst.forEach((failed, i) => {
    if (failed.state !== 'failed' || failed.commit === null) return;
    const passed = oldestFirst.slice(i + 1).find((r) => r.state === 'passed' && r.commit === failed.commit);
    if (passed) rerun.push({ failed, passed });
  });
  return { retried, rerun };
}
