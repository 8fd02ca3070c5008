/**
 * The history store: one interface over the two engines, the same SQL for both. Embedded: PGlite
 * (PostgreSQL compiled to WASM, from npm, no server) in a folder under the records folder. Team:
 * PostgreSQL through a URL (node-postgres). Opening migrates the schema (history-migrate.ts).
 * Each engine is imported only when it is opened, so a run without history loads neither.
 */

import { FlakeguardError } from '../../core/errors.js';
import { excerpt } from '../../core/excerpt.js';
import type { HistoryConfig } from '../../core/history/history-config.js';
import { isPostgresUrl } from '../../core/history/history-config.js';
import { redactSecrets } from '../../core/secrets.js';
import type { ProjectPlaces } from '../places/project-places.js';
import { migrateHistoryStore } from './history-migrate.js';
import { failedStoreError } from './store-damage.js';
import type { HistoryStore, HistoryTarget, OpenOptions } from './store-types.js';

export type { HistoryStore, HistoryTarget, OpenOptions, Queryable } from './store-types.js';

/** Environment variable with a PostgreSQL URL: turns history on and overrides flakeguard.yaml. */
export const HISTORY_URL_ENV = 'FLAKEGUARD_HISTORY_URL';
/** How long each waiter waits for another process holding the embedded store: the one place it is set. */
const LOCK_WAIT_MS: Readonly<Record<NonNullable<OpenOptions['wait']>, number>> = {
  'test-run': 30_000,
  'history-command': 300_000,
};

/** Where history goes, or null when it is off: FLAKEGUARD_HISTORY_URL, else the config's `history`. */
export function resolveHistoryTarget(
  places: ProjectPlaces,
  history: HistoryConfig,
  env: Readonly<Record<string, string | undefined>> = process.env,
): HistoryTarget | null {
  const url = env[HISTORY_URL_ENV]?.trim();
  if (url) {
    if (!isPostgresUrl(url)) {
      throw new FlakeguardError(
        'CONFIG_INVALID',
        `${HISTORY_URL_ENV}=${excerpt(redactSecrets(url), 200)} is not a PostgreSQL URL; set it to postgres://user:password@host:5432/database, or unset it`,
      );
    }
    return { kind: 'postgres', url };
  }
  switch (history.kind) {
    case 'off':
      return null;
    case 'embedded':
      return { kind: 'embedded', folder: places.historyFolder, lock: places.historyLock };
    case 'postgres':
      return { kind: 'postgres', url: history.url };
    default: {
      const never: never = history;
      return never;
    }
  }
}

export function describeTarget(target: HistoryTarget): string {
  return target.kind === 'embedded' ? target.folder : redactSecrets(target.url);
}

/**
 * The one opener of the history store, for every command and the reporter: opens it and brings its
 * schema up to date; throws when it cannot (the caller decides how loudly).
 */
export async function openHistoryStore(target: HistoryTarget, options: OpenOptions = {}): Promise<HistoryStore> {
  const wait = options.lockTimeoutMs ?? LOCK_WAIT_MS[options.wait ?? 'test-run'];
  try {
    const store =
      target.kind === 'embedded'
        ? await (await import('./store-embedded.js')).openEmbeddedStore(
            target.folder,
            target.lock ?? `${target.folder}.lock`,
            wait,
            options,
          )
        : await (await import('./store-postgres.js')).openPostgresStore(target.url);
    try {
      await migrateHistoryStore(store);
    } catch (error) {
      await store.close().catch(() => undefined);
      throw error;
    }
    return store;
  } catch (error) {
    // A newer schema, a lock or a path is named by its own error; any other failure of a store on disk is damage.
    if (
      target.kind === 'embedded' &&
      !(error instanceof FlakeguardError) &&
      (error as { syscall?: unknown }).syscall === undefined
    )
      throw failedStoreError(target.folder, error);
    // Every caller prints this message (the reporter's warning, triage, the gate, history): no password in it.
    if (error instanceof Error && target.kind === 'postgres')
      error.message = redactSecrets(error.message, [target.url]);
    throw error;
  }
}
