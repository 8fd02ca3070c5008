/**
 * Stores a run record in the history store, once: the run's id is unique, so a record ingested
 * twice (a re-uploaded artifact, the reporter and a later `history ingest`) is stored once. One
 * transaction per record; a PostgreSQL deadlock or serialization failure between concurrent
 * writers is retried.
 */

import { type RunContext, toHistoryRows } from '../../core/history/history-rows.js';
import { INGEST_LOCK_KEY } from '../../core/history/history-schema.js';
import { shardKeyOf } from '../../core/history/history-summary.js';
import { rerunDeltas, runDeltas, type StoredResult } from '../../core/history/summary-deltas.js';
import type { RunRecord } from '../../core/record/run-record.js';
import type { HistoryStore, Queryable } from './history-store.js';
import { applySummaryDeltas } from './summary-write.js';

/**
 * `merged-skipped`: a `--merge-reports` record repeats the tests of its shards' records, which
 * are stored on their own.
 */
export type IngestOutcome = 'stored' | 'duplicate' | 'merged-skipped';

// Deadlock and serialization failure between concurrent writers.
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 5;

const INSERT_RUN = `INSERT INTO flakeguard_runs
  (run_id, started_at, ended_at, platform, arch, node_version, vitest_version, branch, commit_sha, ci_job, shard_index, shard_count, exit_reason, red, test_count, ci, machine)
  VALUES ($1, $2::timestamptz, $3::timestamptz, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::jsonb, $17::jsonb)
  ON CONFLICT (run_id) DO NOTHING RETURNING id`;

// Only the tests not stored yet (usually none): an anti-join probes the index more cheaply than
// ON CONFLICT's attempted insert of each row; ON CONFLICT still settles a race with another writer.
const INSERT_TESTS = `INSERT INTO flakeguard_tests (project, file, name)
  SELECT u.* FROM unnest($1::text[], $2::text[], $3::text[]) AS u (project, file, name)
  WHERE NOT EXISTS (SELECT 1 FROM flakeguard_tests t WHERE t.project = u.project AND t.file = u.file AND t.name = u.name)
  ON CONFLICT DO NOTHING`;

const INSERT_RESULTS = `INSERT INTO flakeguard_results
    (test_id, run_id, state, duration_ms, retries, flaky, limit_ms, first_error, started_at, platform, branch)
  SELECT t.id, $1, u.state, u.duration_ms, u.retries, u.flaky, u.limit_ms, u.first_error, $11::timestamptz, $12, $13
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::int[], $8::bool[], $9::float8[], $10::text[])
    AS u (project, file, name, state, duration_ms, retries, flaky, limit_ms, first_error)
  JOIN flakeguard_tests t ON t.project = u.project AND t.file = u.file AND t.name = u.name
  RETURNING test_id AS "testId", run_id AS "runId", state, duration_ms AS "durationMs", flaky, limit_ms AS "limitMs"`;

// The run's passed durations in one row, as the CI speed calibration reads them (schema 7).
const RUN_DURATIONS_ROW = `INSERT INTO flakeguard_run_durations (run_id, tests, durations)
  VALUES ($1, $2::int[], $3::float8[])`;

// The run's failed tests that passed in another run of the same commit: re-run-passed already.
const PASSED_ON_COMMIT = `SELECT DISTINCT r2.test_id AS "testId" FROM flakeguard_runs u2
  JOIN flakeguard_results r2 ON r2.run_id = u2.id AND r2.test_id = ANY($2::int[])
  WHERE u2.commit_sha = $1 AND u2.id <> $3 AND r2.state = 'passed'`;

const OPEN_FAILURES = `INSERT INTO flakeguard_open_failures (commit_sha, test_id, run_id)
  SELECT $1, unnest($2::int[]), $3 ON CONFLICT DO NOTHING`;

// Earlier failures on this commit of the tests this run passed: now re-run-passed, each on its own day.
const CLOSE_FAILURES = `WITH closed AS (DELETE FROM flakeguard_open_failures f WHERE f.commit_sha = $1 AND f.test_id = ANY($2::int[])
    RETURNING f.test_id, f.run_id)
  SELECT r.test_id AS "testId", round(extract(epoch FROM r.started_at) * 1000)::float8 AS "startedAtMs", r.platform,
    r.branch, u.shard_index AS "shardIndex", u.shard_count AS "shardCount"
  FROM closed c JOIN flakeguard_results r ON r.run_id = c.run_id AND r.test_id = c.test_id
  JOIN flakeguard_runs u ON u.id = c.run_id`;

export async function ingestRunRecord(
  store: HistoryStore,
  record: RunRecord,
  context: RunContext,
): Promise<IngestOutcome> {
  if (record.merged) return 'merged-skipped';
  const { run, results: r } = toHistoryRows(record, context);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await store.transaction(async (q) => {
        // One writer of the summaries at a time: a run's rows and its summary deltas land together.
        await q.query('SELECT pg_advisory_xact_lock($1::bigint)', [String(INGEST_LOCK_KEY)]);
        // A run's statements touch tens of thousands of rows once: compiling them (PostgreSQL's JIT,
        // on past a cost a 20,000-test run reaches) costs more than it saves.
        await q.query('SET LOCAL jit = off');
        const inserted = await q.query<{ id: number }>(INSERT_RUN, runRowValues(run));
        const id = inserted[0]?.id;
        if (id === undefined) return 'duplicate';
        if (r.file.length > 0) {
          await q.query(INSERT_TESTS, [r.project, r.file, r.name]);
          const stored = await q.query<StoredResult>(INSERT_RESULTS, [
            id,
            r.project,
            r.file,
            r.name,
            r.state,
            r.durationMs,
            r.retries,
            r.flaky,
            r.limitMs,
            r.firstError,
            run.startedAt,
            run.platform,
            run.branch,
          ]);
          const timed = stored.filter((s) => s.state === 'passed' && s.durationMs !== null);
          if (timed.length > 0)
            await q.query(RUN_DURATIONS_ROW, [id, timed.map((s) => s.testId), timed.map((s) => s.durationMs)]);
          await summarizeRun(q, id, run, stored);
        }
        return 'stored';
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw error;
    }
  }
}

type RunRow = ReturnType<typeof toHistoryRows>['run'];

/** Adds the run to the summaries, and turns earlier failures on its commit that it passed into re-run-passed runs. */
async function summarizeRun(q: Queryable, id: number, run: RunRow, stored: readonly StoredResult[]): Promise<void> {
  const failed = stored.filter((s) => s.state === 'failed').map((s) => s.testId);
  const passed = stored.filter((s) => s.state === 'passed').map((s) => s.testId);
  let rerun = new Set<number>();
  if (run.commit !== null) {
    if (failed.length > 0) {
      const rows = await q.query<{ testId: number }>(PASSED_ON_COMMIT, [run.commit, failed, id]);
      rerun = new Set(rows.map((row) => row.testId));
      const open = failed.filter((t) => !rerun.has(t));
      if (open.length > 0) await q.query(OPEN_FAILURES, [run.commit, open, id]);
    }
  }
  const place = {
    startedAtMs: Date.parse(run.startedAt),
    platform: run.platform,
    shard: shardKeyOf(run.shardIndex, run.shardCount),
    branch: run.branch,
  };
  await applySummaryDeltas(q, runDeltas(place, stored, rerun), true);
  if (run.commit !== null && passed.length > 0) {
    const closed = await q.query<{
      testId: number;
      startedAtMs: number;
      platform: string;
      branch: string | null;
      shardIndex: number | null;
      shardCount: number | null;
    }>(CLOSE_FAILURES, [run.commit, passed]);
    const failures = closed.map((c) => ({ ...c, shard: shardKeyOf(c.shardIndex, c.shardCount) }));
    await applySummaryDeltas(q, rerunDeltas(failures), false);
  }
}

/** The run row's values in INSERT_RUN's column order. */
function runRowValues(run: RunRow): unknown[] {
  return [
    run.runId,
    run.startedAt,
    run.endedAt,
    run.platform,
    run.arch,
    run.nodeVersion,
    run.vitestVersion,
    run.branch,
    run.commit,
    run.job,
    run.shardIndex,
    run.shardCount,
    run.exitReason,
    run.red,
    run.testCount,
    run.ci === null ? null : JSON.stringify(run.ci),
    run.machine === null ? null : JSON.stringify(run.machine),
  ];
}
