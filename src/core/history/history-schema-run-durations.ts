/**
 * Version 7 of the history store (issue 38): each run's passed durations in one row, as the CI
 * speed calibration (`gate --slowdown auto`, the history report's CI speeds) reads them: the test
 * ids and durations of the run's passed tests with a duration, as two arrays in the same order.
 * Ingest writes a run's row with its results (history-ingest.ts) and prune deletes it with them
 * (history-prune.ts); this migration fills it from the stored results. The calibration reads its
 * sample of runs (up to 120) whole: from the results that was one row a result, 220,000 rows and
 * 210 ms in the embedded store at 20 M results; it is 120 rows.
 */
import type { Migration } from './history-migration.js';

/** Every stored run's row, from its results (the migration; bench/history-scale-lib.mjs runs it too). */
const RUN_DURATIONS_BACKFILL = `INSERT INTO flakeguard_run_durations (run_id, tests, durations)
  SELECT r.run_id, array_agg(r.test_id), array_agg(r.duration_ms)
  FROM flakeguard_results r WHERE r.state = 'passed' AND r.duration_ms IS NOT NULL
  GROUP BY r.run_id`;

export const RUN_DURATIONS: Migration = {
  version: 7,
  statements: [
    // No row for a run without a passed duration; no foreign key (flakeguard_results has none).
    `CREATE TABLE flakeguard_run_durations (
      run_id integer PRIMARY KEY,
      tests integer[] NOT NULL,
      durations double precision[] NOT NULL
    )`,
    RUN_DURATIONS_BACKFILL,
  ],
};
