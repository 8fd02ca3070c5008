/**
 * Version 6 of the history store (issue 38): each summary key carries its current totals, a copy
 * of its newest day row (flakeguard_test_days), kept by ingest and prune. A window's counts are then
 * the key's totals less the newest day row before the window, one probe a key instead of two; and
 * that probe reads the index alone, which now holds the counts (once the old days' pages are
 * vacuumed, as autovacuum does: rows of past days are not updated).
 */
import type { Migration } from './history-migration.js';

/** The columns a key's totals and a day row share, in one order (summary-write.ts, history-query.ts). */
export const TOTALS_COLUMNS = [
  'runs',
  'failed_runs',
  'retried_runs',
  'rerun_passed_runs',
  'flaked_runs',
  'passed_runs',
  'last_passed_at',
  'last_passed_run',
  'last_limit_ms',
  'recent_ms',
  'recent_at',
] as const;

/** The counts a window subtracts: what the day table's index holds beside its key. */
const COUNTS = TOTALS_COLUMNS.slice(0, 6).join(', ');

const SAME_KEY = (a: string, b: string) =>
  `${a}.scope = ${b}.scope AND ${a}.test_id = ${b}.test_id AND ${a}.platform = ${b}.platform AND ${a}.shard = ${b}.shard`;

/**
 * Sets the totals of the keys `keys` selects (a FROM item named y with the key's four columns)
 * to their newest day row: ingest after a late record, prune after a batch.
 */
export const refreshKeyTotals = (keys: string, where = 'true') => `UPDATE flakeguard_test_keys k
  SET (${TOTALS_COLUMNS.join(', ')}) = (${TOTALS_COLUMNS.map((c) => `n.${c}`).join(', ')})
  FROM ${keys} CROSS JOIN LATERAL (SELECT * FROM flakeguard_test_days d WHERE ${SAME_KEY('d', 'y')}
    ORDER BY d.day DESC LIMIT 1) n
  WHERE ${SAME_KEY('k', 'y')} AND ${where}`;

export const KEY_TOTALS: Migration = {
  version: 6,
  statements: [
    `ALTER TABLE flakeguard_test_keys ADD COLUMN runs integer NOT NULL DEFAULT 0,
      ADD COLUMN failed_runs integer NOT NULL DEFAULT 0, ADD COLUMN retried_runs integer NOT NULL DEFAULT 0,
      ADD COLUMN rerun_passed_runs integer NOT NULL DEFAULT 0, ADD COLUMN flaked_runs integer NOT NULL DEFAULT 0,
      ADD COLUMN passed_runs integer NOT NULL DEFAULT 0, ADD COLUMN last_passed_at double precision,
      ADD COLUMN last_passed_run integer, ADD COLUMN last_limit_ms double precision,
      ADD COLUMN recent_ms double precision[], ADD COLUMN recent_at double precision[]`,
    // Every ingest rewrites its keys' rows: room on the page keeps the new version there (a HOT update).
    'ALTER TABLE flakeguard_test_keys SET (fillfactor = 50)',
    'ALTER TABLE flakeguard_test_days DROP CONSTRAINT flakeguard_test_days_pkey',
    `ALTER TABLE flakeguard_test_days ADD CONSTRAINT flakeguard_test_days_pkey
      PRIMARY KEY (scope, test_id, platform, shard, day) INCLUDE (${COUNTS})`,
    refreshKeyTotals('flakeguard_test_keys y'),
  ],
};
