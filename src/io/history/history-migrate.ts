/**
 * Brings a store's schema up to this flakeguard's version, in one transaction under an advisory
 * lock (many CI jobs may open a new PostgreSQL store at once), and refuses a store written by a
 * newer flakeguard.
 */
import { FlakeguardError } from '../../core/errors.js';
import {
  HISTORY_SCHEMA_VERSION,
  META_TABLE_SQL,
  MIGRATION_LOCK_KEY,
  MIGRATIONS,
  type Migration,
  newerStoreMessage,
  pendingMigrations,
} from '../../core/history/history-schema.js';
import type { HistoryStore } from './store-types.js';

/** The schema version of the store, 0 for a new one. Returns the version after migrating. */
export async function migrateHistoryStore(
  store: Pick<HistoryStore, 'transaction' | 'location'>,
  migrations: readonly Migration[] = MIGRATIONS,
  supported: number = HISTORY_SCHEMA_VERSION,
): Promise<number> {
  return store.transaction(async (q) => {
    // A migration rewrites every result and builds the summaries from them (schema 3 and 4): minutes
    // on a large store, which the connection's statement timeout (store-postgres.ts) would cancel.
    await q.query('SET LOCAL statement_timeout = 0');
    await q.query('SELECT pg_advisory_xact_lock($1::bigint)', [String(MIGRATION_LOCK_KEY)]);
    await q.query(META_TABLE_SQL);
    const rows = await q.query<{ value: string }>("SELECT value FROM flakeguard_meta WHERE key = 'schema_version'");
    const current = rows[0] ? Number(rows[0].value) : 0;
    if (!Number.isInteger(current) || current < 0) {
      throw new FlakeguardError(
        'INPUT_UNREADABLE',
        `history store ${store.location}: schema_version "${rows[0]?.value}" is not a version; point history at a flakeguard store`,
      );
    }
    if (current > supported)
      throw new FlakeguardError('INPUT_UNREADABLE', newerStoreMessage(store.location, current, supported));
    let version = current;
    for (const migration of pendingMigrations(current, migrations)) {
      for (const statement of migration.statements) await q.query(statement);
      version = migration.version;
    }
    if (version !== current) {
      await q.query(
        "INSERT INTO flakeguard_meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        [String(version)],
      );
    }
    return version;
  });
}
