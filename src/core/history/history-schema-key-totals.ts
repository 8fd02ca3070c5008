/**
 * Version 6 of the history store (issue 38): each summary key carries its current totals, what its
 * newest day row (flakeguard_test_days) holds, and the newest RECENT_SUMMARY passed durations,
 * which move from the day rows to the key (a day row keeps its counts and newest pass only). A
 * window's counts are then the key's totals less the newest day row before the window: one probe a
 * key instead of two, and that probe reads the day table's index alone, which holds the counts
 * (once the past days' pages are vacuumed, as autovacuum does: they are not updated). An ingest
 * writes each touched key's day row and its key row, the day row narrow. The key row also keeps
 * bounds of its durations (none lies outside them) and the newest of their starts, so the history
 * report reads the durations only of the tests where they can change what it shows
 * (core/history/durations-needed.ts).
 */
import type { Migration } from './history-migration.js';

/** The counts a key's totals and a day row share (through the end of the day), in one order. */
export const COUNT_COLUMNS = [
  'runs',
  'failed_runs',
  'retried_runs',
  'rerun_passed_runs',
  'flaked_runs',
  'passed_runs',
] as const;
/** The newest passed run and its limit, also shared. */
export const PASS_COLUMNS = ['last_passed_at', 'last_passed_run', 'last_limit_ms'] as const;

export const SAME_KEY = (a: string, b: string) =>
  `${a}.scope = ${b}.scope AND ${a}.test_id = ${b}.test_id AND ${a}.platform = ${b}.platform AND ${a}.shard = ${b}.shard`;

const SHARED = [...COUNT_COLUMNS, ...PASS_COLUMNS];

/** The newest day row of key y, as `n`. */
const NEWEST_ROW = `CROSS JOIN LATERAL (SELECT * FROM flakeguard_test_days d WHERE ${SAME_KEY('d', 'y')}
    ORDER BY d.day DESC LIMIT 1) n`;

/**
 * Sets the counts and newest pass of the keys `keys` selects (a FROM item named y with the key's
 * four columns, `where` over y) to their newest day row's; `recent`: what their durations become.
 */
export const refreshKeyTotals = (keys: string, where: string, recent: string) => `UPDATE flakeguard_test_keys k
  SET (${SHARED.join(', ')}, recent_ms, recent_at) = (${SHARED.map((c) => `n.${c}`).join(', ')}, ${recent})
  FROM ${keys} ${NEWEST_ROW}
  WHERE ${SAME_KEY('k', 'y')} AND ${where}`;

/**
 * The bounds of the durations of the keys `keys` selects (as above), exactly: ingest keeps them
 * valid as it appends (the lowest and highest ever appended), and sets them exactly here after a
 * late record, a prune, or the migration.
 */
export const exactDurationBounds = (keys: string, where: string) => `UPDATE flakeguard_test_keys k
  SET (recent_low, recent_high, recent_newest) = (SELECT min(v.ms), max(v.ms), max(v.at)
    FROM unnest(k.recent_ms, k.recent_at) AS v (ms, at))
  FROM ${keys} WHERE ${SAME_KEY('k', 'y')} AND ${where}`;

export const KEY_TOTALS: Migration = {
  version: 6,
  statements: [
    `ALTER TABLE flakeguard_test_keys ADD COLUMN runs integer NOT NULL DEFAULT 0,
      ADD COLUMN failed_runs integer NOT NULL DEFAULT 0, ADD COLUMN retried_runs integer NOT NULL DEFAULT 0,
      ADD COLUMN rerun_passed_runs integer NOT NULL DEFAULT 0, ADD COLUMN flaked_runs integer NOT NULL DEFAULT 0,
      ADD COLUMN passed_runs integer NOT NULL DEFAULT 0, ADD COLUMN last_passed_at double precision,
      ADD COLUMN last_passed_run integer, ADD COLUMN last_limit_ms double precision,
      ADD COLUMN recent_ms double precision[], ADD COLUMN recent_at double precision[],
      ADD COLUMN recent_low double precision, ADD COLUMN recent_high double precision,
      ADD COLUMN recent_newest double precision`,
    // Every ingest rewrites its keys' rows: room on the page keeps the new version there (a HOT update).
    'ALTER TABLE flakeguard_test_keys SET (fillfactor = 50)',
    'ALTER TABLE flakeguard_test_days DROP CONSTRAINT flakeguard_test_days_pkey',
    `ALTER TABLE flakeguard_test_days ADD CONSTRAINT flakeguard_test_days_pkey
      PRIMARY KEY (scope, test_id, platform, shard, day) INCLUDE (${COUNT_COLUMNS.join(', ')})`,
    refreshKeyTotals('flakeguard_test_keys y', 'true', 'n.recent_ms, n.recent_at'),
    'ALTER TABLE flakeguard_test_days DROP COLUMN recent_ms, DROP COLUMN recent_at',
    exactDurationBounds('flakeguard_test_keys y', 'true'),
  ],
};
