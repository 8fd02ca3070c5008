/**
 * The embedded history store: PGlite (PostgreSQL as WASM, installed from npm, no server, no native
 * build) in a folder under the records folder, held by one process at a time (store-lock.ts; the
 * lock file is in the cache folder).
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { FlakeguardError } from '../../core/errors.js';
import { damagedStoreError, failedStoreError, isStoreDamage } from './store-damage.js';
import { acquireFileLock } from './store-lock.js';
import type { HistoryStore, OpenOptions, Queryable } from './store-types.js';

interface EngineQueryable {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

/** SQLSTATE 53100 (disk_full) or 53xxx (insufficient resources): a write the disk refused. */
const isDiskFull = (error: unknown): boolean =>
  /^53[0-9A-Z]{3}$/.test(String((error as { code?: unknown } | null)?.code));

/** Damage that shows only when a query reads the damaged file is the same one line as at open. */
function guardDamage<T>(folder: string, work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    throw isStoreDamage(error) || isDiskFull(error) ? failedStoreError(folder, error) : error;
  });
}

export async function openEmbeddedStore(
  folder: string,
  lockFile: string,
  lockTimeoutMs: number,
  options: OpenOptions = {},
): Promise<HistoryStore> {
  const started = existsSync(folder) && readdirSync(folder).length > 0;
  if (started && !existsSync(path.join(folder, 'PG_VERSION')))
    throw damagedStoreError(folder, 'its PG_VERSION file is missing');
  if (options.mustExist && !started) {
    throw new FlakeguardError(
      'INPUT_UNREADABLE',
      `no history yet at ${folder}: run the tests with history: true in flakeguard.yaml, or load run records with flakeguard history ingest <records folder>`,
    );
  }
  mkdirSync(path.dirname(folder), { recursive: true });
  mkdirSync(path.dirname(lockFile), { recursive: true });
  const lock = await acquireFileLock(lockFile, lockTimeoutMs, `history store ${folder}`, options.signal);
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create(folder).catch((error: unknown) => {
      throw failedStoreError(folder, error);
    });
    const guard = <T>(work: Promise<T>): Promise<T> => guardDamage(folder, work);
    const wrap = (q: EngineQueryable): Queryable => ({
      query: async <T>(sql: string, params: readonly unknown[] = []) =>
        (await guard(q.query<T>(sql, [...params]))).rows,
    });
    const direct = wrap(db);
    let closed = false;
    return {
      kind: 'embedded',
      location: folder,
      query: direct.query,
      transaction: (fn) => guard(db.transaction((tx) => fn(wrap(tx)))),
      close: async () => {
        if (closed) return;
        closed = true;
        try {
          await db.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}
