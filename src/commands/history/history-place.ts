/** Where `flakeguard history` finds its store (flags, environment, flakeguard.yaml), and opening it. */
import path from 'node:path';
import { FlakeguardError } from '../../core/errors.js';
import { excerpt } from '../../core/excerpt.js';
import { isPostgresUrl } from '../../core/history/history-config.js';
import { redactSecrets } from '../../core/secrets.js';
import { loadConfig } from '../../io/config/config-file.js';
import type { HistoryStore, HistoryTarget } from '../../io/history/history-store.js';
import { HISTORY_URL_ENV, openHistoryStore, resolveHistoryTarget } from '../../io/history/history-store.js';
import { describeThrown } from '../../io/history/store-damage.js';
import { resolveProjectPlaces } from '../../io/places/project-places.js';
import { commandUsageError } from '../command-args.js';
import { HISTORY_COMMAND } from './history-options.js';

export interface HistoryPlace {
  readonly root: string;
  readonly target: HistoryTarget;
  readonly records: string;
}

/** The project root and the store the flags, the environment and flakeguard.yaml name. */
export function resolveHistoryPlace(flags: { root?: string | undefined; url?: string | undefined }): HistoryPlace {
  const start = path.resolve(flags.root ?? process.cwd());
  const loaded = loadConfig(start);
  const root = flags.root !== undefined ? start : loaded.root;
  const places = resolveProjectPlaces(root, loaded.config);
  const records = places.recordsShown;
  if (flags.url !== undefined) {
    if (!isPostgresUrl(flags.url))
      throw commandUsageError(
        HISTORY_COMMAND,
        `--url ${excerpt(redactSecrets(flags.url), 200)} is not a PostgreSQL URL; write postgres://user:password@host:5432/database`,
      );
    return { root, records, target: { kind: 'postgres', url: flags.url } };
  }
  const target = resolveHistoryTarget(places, loaded.config.history, process.env);
  if (target === null) {
    throw commandUsageError(
      HISTORY_COMMAND,
      `history is off for ${root}: add "history: true" to flakeguard.yaml (an embedded store under ${records}/), or set ${HISTORY_URL_ENV}=postgres://..., or pass --url`,
    );
  }
  return { root, records, target };
}

/** The store of a history command (it waits longer for the lock than a test run); a failure is a usage error. */
export async function openPlaceStore(
  place: HistoryPlace,
  mustExist: boolean,
  signal?: AbortSignal,
): Promise<HistoryStore> {
  return openHistoryStore(place.target, { mustExist, wait: 'history-command', ...(signal ? { signal } : {}) }).catch(
    (error: unknown) => {
      // Interrupted, damaged or unwritable (its own line names the store and the fix), pass as they are.
      if (error instanceof FlakeguardError && ['INTERRUPTED', 'STORE_DAMAGED', 'STORE_UNWRITABLE'].includes(error.code))
        throw error;
      throw commandUsageError(HISTORY_COMMAND, `cannot open the history store: ${describeThrown(error)}`);
    },
  );
}
