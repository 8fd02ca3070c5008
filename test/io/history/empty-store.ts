import type { HistoryStore } from '../../../src/io/history/history-store.js';

/** Empties every table of a history store's runs (the contracts share one store between tests). */
export const EMPTY_STORE_SQL =
  'TRUNCATE flakeguard_results, flakeguard_run_durations, flakeguard_runs, flakeguard_tests, flakeguard_test_keys, flakeguard_test_days, flakeguard_open_failures RESTART IDENTITY';

/** The store `connect` opens, emptied: each contract test starts from an empty store. */
export async function openEmpty(connect: () => Promise<HistoryStore>): Promise<HistoryStore> {
  const store = await connect();
  await store.query(EMPTY_STORE_SQL);
  await store.query("DELETE FROM flakeguard_meta WHERE key = 'summary_newest_day'");
  return store;
}
