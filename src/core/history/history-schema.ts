/**
 * The history store's schema, one SQL dialect for both engines (PGlite embedded, PostgreSQL for a
 * team). The store is versioned: `flakeguard_meta.schema_version` says which migrations ran; a
 * store opened by this flakeguard runs the missing ones in order, and one written by a newer
 * flakeguard (a higher version) is refused rather than misread.
 */

import type { Migration } from './history-migration.js';
import { RUN_DURATIONS } from './history-schema-run-durations.js';
import { SUMMARY_MIGRATIONS } from './history-schema-summaries.js';

export const HISTORY_SCHEMA_VERSION = 7;

export type { Migration } from './history-migration.js';

/** Created before any migration, so the version can be read from any store. */
export const META_TABLE_SQL = 'CREATE TABLE IF NOT EXISTS flakeguard_meta (key text PRIMARY KEY, value text NOT NULL)';

/** A constant for pg_advisory_xact_lock: migrations of one database run one at a time. */
export const MIGRATION_LOCK_KEY = 4_172_031_914;
/** A constant for pg_advisory_xact_lock: one writer of the summaries at a time (ingest, prune). */
export const INGEST_LOCK_KEY = 4_172_031_915;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    statements: [
      `CREATE TABLE flakeguard_runs (
        id serial PRIMARY KEY,
        run_id text NOT NULL UNIQUE,
        started_at timestamptz NOT NULL,
        ended_at timestamptz NOT NULL,
        platform text NOT NULL,
        arch text NOT NULL,
        node_version text NOT NULL,
        vitest_version text NOT NULL,
        branch text,
        commit_sha text,
        ci_job text,
        shard_index integer,
        shard_count integer,
        exit_reason text NOT NULL,
        red boolean NOT NULL,
        test_count integer NOT NULL,
        ingested_at timestamptz NOT NULL DEFAULT now()
      )`,
      'CREATE INDEX flakeguard_runs_started ON flakeguard_runs (started_at)',
      'CREATE INDEX flakeguard_runs_branch ON flakeguard_runs (branch, started_at)',
      'CREATE INDEX flakeguard_runs_commit ON flakeguard_runs (commit_sha)',
      `CREATE TABLE flakeguard_tests (
        id serial PRIMARY KEY,
        project text NOT NULL,
        file text NOT NULL,
        name text NOT NULL,
        UNIQUE (project, file, name)
      )`,
      // No foreign keys and no index on run_id: their per-row checks and upkeep doubled the cost of
      // storing a run (2,000 results: 420 ms of CPU in PGlite with them, 250 ms without). Ingest and
      // prune keep the references whole (history-ingest.ts, history-query.ts).
      `CREATE TABLE flakeguard_results (
        test_id integer NOT NULL,
        run_id integer NOT NULL,
        state text NOT NULL,
        duration_ms double precision,
        retries integer NOT NULL,
        flaky boolean NOT NULL,
        limit_ms double precision NOT NULL,
        first_error text,
        PRIMARY KEY (test_id, run_id)
      )`,
    ],
  },
  {
    // The run's CI context as the record carries it (core/record/ci-context.ts): null for runs
    // stored before, and for records written before the reporter recorded it.
    version: 2,
    statements: ['ALTER TABLE flakeguard_runs ADD COLUMN ci jsonb'],
  },
  {
    // The machine the run ran on, as the record carries it (core/record/machine.ts: { id, cpuModel,
    // cores }): null for runs stored before, and for records written before issue 37.
    version: 3,
    statements: ['ALTER TABLE flakeguard_runs ADD COLUMN machine jsonb'],
  },
  // 4: results carry their run's start, platform and branch; 5: the summaries (history-schema-summaries.ts);
  // 6: each summary key's current totals (history-schema-key-totals.ts).
  ...SUMMARY_MIGRATIONS,
  // 7: each run's passed durations in one row, for the CI speed calibration (history-schema-run-durations.ts).
  RUN_DURATIONS,
];

/** The migrations a store at `current` still needs, in order. */
export function pendingMigrations(current: number, migrations: readonly Migration[] = MIGRATIONS): Migration[] {
  return migrations.filter((m) => m.version > current).sort((a, b) => a.version - b.version);
}

/** The message for a store written by a newer flakeguard. */
export function newerStoreMessage(location: string, found: number, supported: number): string {
  return (
    `history store ${location} has schema version ${found}, written by a newer flakeguard (this one reads up to ${supported}); ` +
    'upgrade flakeguard (npm i -D flakeguard@latest) in every job that writes to it, or point history at another store'
  );
}
