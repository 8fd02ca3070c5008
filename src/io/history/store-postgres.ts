/**
 * The team's history store: PostgreSQL through node-postgres, a small pool, timeouts so a store
 * that is down fails fast (the reporter then warns and the run goes on).
 */
import pg from 'pg';
import { redactSecrets } from '../../core/secrets.js';
import type { HistoryStore, Queryable } from './store-types.js';

const CONNECT_TIMEOUT_MS = 10_000;
const STATEMENT_TIMEOUT_MS = 120_000;

export async function openPostgresStore(url: string): Promise<HistoryStore> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 2,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    application_name: 'flakeguard',
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => undefined);
  const location = redactSecrets(url);
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new Error(`cannot connect to ${location}: ${redactSecrets((error as Error).message, [url])}`, {
      cause: error,
    });
  }
  const query = async <T>(sql: string, params: readonly unknown[] = []): Promise<T[]> =>
    (await pool.query(sql, [...params])).rows as T[];
  return {
    kind: 'postgres',
    location,
    query,
    async transaction<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({
          query: async <R>(sql: string, params: readonly unknown[] = []) =>
            (await client.query(sql, [...params])).rows as R[],
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
