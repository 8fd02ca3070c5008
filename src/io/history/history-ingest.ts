/**
 * Stores a run record in the history store, once: the run's id is unique, so a record ingested
 * twice (a re-uploaded artifact, the reporter and a later `history ingest`) is stored once. One
 * transaction per record; a PostgreSQL deadlock or serialization failure between concurrent
 * writers is retried.
 */

import { type RunContext, toHistoryRows } from '../../core/history/history-rows.js';
import type { RunRecord } from '../../core/record/run-record.js';
import type { HistoryStore } from './history-store.js';

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

const INSERT_RESULTS = `INSERT INTO flakeguard_results (test_id, run_id, state, duration_ms, retries, flaky, limit_ms, first_error)
  SELECT t.id, $1, u.state, u.duration_ms, u.retries, u.flaky, u.limit_ms, u.first_error
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::int[], $8::bool[], $9::float8[], $10::text[])
    AS u (project, file, name, state, duration_ms, retries, flaky, limit_ms, first_error)
  JOIN flakeguard_tests t ON t.project = u.project AND t.file = u.file AND t.name = u.name`;

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
        const inserted = await q.query<{ id: number }>(INSERT_RUN, runRowValues(run));
        const id = inserted[0]?.id;
        if (id === undefined) return 'duplicate';
        if (r.file.length > 0) {
          await q.query(INSERT_TESTS, [r.project, r.file, r.name]);
          await q.query(INSERT_RESULTS, [
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
          ]);
        }
        return 'stored';
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw error;
    }
  }
}

/** The run row's values in INSERT_RUN's column order. */
function runRowValues(run: ReturnType<typeof toHistoryRows>['run']): unknown[] {
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
