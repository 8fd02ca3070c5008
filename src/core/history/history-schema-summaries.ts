/**
 * The history store's summaries (issue 38): what every query needs, kept up to date as runs are
 * stored, so a query's cost does not grow with the length of the history.
 *
 * Version 3: each result carries its run's start, platform and branch, so a test's newest results
 * (on a branch) are one index range away instead of a join over every run; the results' key starts
 * with the run, so a run's results (calibration, prune) are an index range too.
 *
 * Version 4: per (scope, test, platform, shard) and UTC day, the totals through the end of that day
 * (`flakeguard_test_days`: cumulative, so a window's counts are the newest row less the newest row
 * before the window's first day, two index probes whatever the window's length), the newest passed
 * run and its limit, and the newest RECENT_SUMMARY passed durations. Scope is the branch, and '*'
 * (never a git branch name: check-ref-format refuses '*') for every branch together.
 * `flakeguard_test_keys` lists the keys of each scope; `flakeguard_open_failures` the failed
 * results on a commit where the test has not passed (yet): a later pass on that commit makes them
 * re-run-passed. The backfill below is the same arithmetic as ingest (io/history/summary-write.ts),
 * done in bulk for a store written before.
 */

import type { Migration } from './history-migration.js';
import { KEY_TOTALS } from './history-schema-key-totals.js';

/** The passed durations each summary row keeps (the p95 that screens tests: docs/history.md). */
export const RECENT_SUMMARY = 20;
/** The scope of the totals over every branch. */
export const ALL_BRANCHES = '*';

const RESULTS_WITH_RUN: Migration = {
  version: 4,
  statements: [
    'ALTER TABLE flakeguard_results ADD COLUMN started_at timestamptz, ADD COLUMN platform text, ADD COLUMN branch text',
    `UPDATE flakeguard_results r SET started_at = u.started_at, platform = u.platform, branch = u.branch
      FROM flakeguard_runs u WHERE u.id = r.run_id`,
    // A result whose run is gone (it cannot be: prune deletes both) would stop the migration; it is dropped.
    'DELETE FROM flakeguard_results WHERE started_at IS NULL',
    'ALTER TABLE flakeguard_results ALTER COLUMN started_at SET NOT NULL, ALTER COLUMN platform SET NOT NULL',
    'ALTER TABLE flakeguard_results DROP CONSTRAINT flakeguard_results_pkey',
    'ALTER TABLE flakeguard_results ADD PRIMARY KEY (run_id, test_id)',
    'CREATE INDEX flakeguard_results_test ON flakeguard_results (test_id, started_at, run_id)',
    'CREATE INDEX flakeguard_results_test_branch ON flakeguard_results (test_id, branch, started_at, run_id)',
    `CREATE INDEX flakeguard_results_flaked ON flakeguard_results (test_id, started_at, run_id)
      WHERE state = 'failed' OR flaky`,
    // A test's series on one platform from the index alone (once vacuumed: results are never updated).
    `CREATE INDEX flakeguard_results_series ON flakeguard_results (test_id, platform, started_at, run_id)
      INCLUDE (state, duration_ms)`,
  ],
};

/** The per-day rows of every key, from the results (one scope per row of `scopes`). */
const DAILY_TOTALS = `WITH res AS (
    SELECT s.scope, r.test_id, r.platform, coalesce(u.shard_index || '/' || u.shard_count, '') AS shard,
      (r.started_at AT TIME ZONE 'UTC')::date AS day, r.started_at, r.run_id, r.state, r.duration_ms, r.flaky, r.limit_ms,
      (r.state = 'failed' AND u.commit_sha IS NOT NULL AND EXISTS (
        SELECT 1 FROM flakeguard_runs u2 JOIN flakeguard_results r2 ON r2.run_id = u2.id AND r2.test_id = r.test_id
        WHERE u2.commit_sha = u.commit_sha AND r2.state = 'passed')) AS rerun
    FROM flakeguard_results r JOIN flakeguard_runs u ON u.id = r.run_id
    CROSS JOIN LATERAL (SELECT '${ALL_BRANCHES}'::text UNION ALL SELECT r.branch WHERE r.branch IS NOT NULL) AS s (scope)
  ), daily AS (
    SELECT scope, test_id, platform, shard, day,
      count(*) FILTER (WHERE state IN ('passed', 'failed'))::int AS runs,
      count(*) FILTER (WHERE state = 'failed')::int AS failed,
      count(*) FILTER (WHERE state = 'passed' AND flaky)::int AS retried,
      count(*) FILTER (WHERE rerun)::int AS rerun,
      count(*) FILTER (WHERE state IN ('passed', 'failed') AND (state = 'failed' OR flaky))::int AS flaked,
      count(*) FILTER (WHERE state = 'passed' AND duration_ms IS NOT NULL)::int AS passed,
      (array_agg(ARRAY[round(extract(epoch FROM started_at) * 1000)::float8, run_id::float8, limit_ms] ORDER BY started_at DESC, run_id DESC)
        FILTER (WHERE state = 'passed' AND duration_ms IS NOT NULL))[1:1] AS newest
    FROM res GROUP BY scope, test_id, platform, shard, day
  ), cumulative AS (
    SELECT d.*, count(newest) OVER w AS pass_group,
      sum(runs) OVER w AS c_runs, sum(failed) OVER w AS c_failed, sum(retried) OVER w AS c_retried,
      sum(rerun) OVER w AS c_rerun, sum(flaked) OVER w AS c_flaked, sum(passed) OVER w AS c_passed,
      row_number() OVER (PARTITION BY scope, test_id, platform, shard ORDER BY day DESC) AS from_newest
    FROM daily d WINDOW w AS (PARTITION BY scope, test_id, platform, shard ORDER BY day)
  ), carried AS (
    SELECT c.*, first_value(newest) OVER (PARTITION BY scope, test_id, platform, shard, pass_group ORDER BY day) AS last_pass
    FROM cumulative c
  ), recent AS (
    SELECT scope, test_id, platform, shard,
      array_agg(duration_ms ORDER BY at, duration_ms) AS recent_ms, array_agg(at ORDER BY at, duration_ms) AS recent_at
    FROM (SELECT scope, test_id, platform, shard, duration_ms, round(extract(epoch FROM started_at) * 1000)::float8 AS at,
        row_number() OVER (PARTITION BY scope, test_id, platform, shard ORDER BY started_at DESC, run_id DESC) AS k
      FROM res WHERE state = 'passed' AND duration_ms IS NOT NULL) p
    WHERE k <= ${RECENT_SUMMARY} GROUP BY scope, test_id, platform, shard
  )
  INSERT INTO flakeguard_test_days (scope, test_id, platform, shard, day, runs, failed_runs, retried_runs,
    rerun_passed_runs, flaked_runs, passed_runs, last_passed_at, last_passed_run, last_limit_ms, recent_ms, recent_at)
  SELECT c.scope, c.test_id, c.platform, c.shard, c.day, c.c_runs, c.c_failed, c.c_retried, c.c_rerun, c.c_flaked, c.c_passed,
    c.last_pass[1][1], c.last_pass[1][2]::int, c.last_pass[1][3],
    CASE WHEN c.from_newest = 1 THEN r.recent_ms END, CASE WHEN c.from_newest = 1 THEN r.recent_at END
  FROM carried c LEFT JOIN recent r USING (scope, test_id, platform, shard)`;

const SUMMARIES: Migration = {
  version: 5,
  statements: [
    `CREATE TABLE flakeguard_test_keys (
      scope text NOT NULL,
      test_id integer NOT NULL,
      platform text NOT NULL,
      shard text NOT NULL,
      PRIMARY KEY (scope, test_id, platform, shard)
    )`,
    // Counts are through the end of the day. last_passed_at is epoch ms (float8, like recent_at).
    `CREATE TABLE flakeguard_test_days (
      scope text NOT NULL,
      test_id integer NOT NULL,
      platform text NOT NULL,
      shard text NOT NULL,
      day date NOT NULL,
      runs integer NOT NULL,
      failed_runs integer NOT NULL,
      retried_runs integer NOT NULL,
      rerun_passed_runs integer NOT NULL,
      flaked_runs integer NOT NULL,
      passed_runs integer NOT NULL,
      last_passed_at double precision,
      last_passed_run integer,
      last_limit_ms double precision,
      recent_ms double precision[],
      recent_at double precision[],
      PRIMARY KEY (scope, test_id, platform, shard, day)
    )`,
    `CREATE TABLE flakeguard_open_failures (
      commit_sha text NOT NULL,
      test_id integer NOT NULL,
      run_id integer NOT NULL,
      PRIMARY KEY (commit_sha, test_id, run_id)
    )`,
    DAILY_TOTALS,
    'INSERT INTO flakeguard_test_keys SELECT DISTINCT scope, test_id, platform, shard FROM flakeguard_test_days',
    `INSERT INTO flakeguard_open_failures
      SELECT u.commit_sha, r.test_id, r.run_id FROM flakeguard_results r JOIN flakeguard_runs u ON u.id = r.run_id
      WHERE r.state = 'failed' AND u.commit_sha IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM flakeguard_runs u2 JOIN flakeguard_results r2 ON r2.run_id = u2.id AND r2.test_id = r.test_id
        WHERE u2.commit_sha = u.commit_sha AND r2.state = 'passed')`,
    `INSERT INTO flakeguard_meta (key, value)
      SELECT 'summary_newest_day', coalesce(to_char(max(day), 'YYYY-MM-DD'), '') FROM flakeguard_test_days
      WHERE day > '-infinity'`,
  ],
};

export const SUMMARY_MIGRATIONS: readonly Migration[] = [RESULTS_WITH_RUN, SUMMARIES, KEY_TOTALS];
