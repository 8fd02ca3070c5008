/** Where `flakeguard history` finds its store, its help text and its usage errors. */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FlakeguardError } from '../../core/errors.js';
import { excerpt } from '../../core/excerpt.js';
import { isPostgresUrl } from '../../core/history/history-config.js';
import { redactSecrets } from '../../core/secrets.js';
import { type OptionTable, toParseArgsOptions } from '../../core/usage.js';
import { loadConfig } from '../../io/config/config-file.js';
import type { HistoryStore, HistoryTarget } from '../../io/history/history-store.js';
import { HISTORY_URL_ENV, openHistoryStore, resolveHistoryTarget } from '../../io/history/history-store.js';
import { describeThrown } from '../../io/history/store-damage.js';
import { resolveProjectPlaces } from '../../io/places/project-places.js';
import { joinNegativeValues } from '../command-args.js';

/** Options every history command takes: where the project and the store are. */
export const STORE_OPTIONS: OptionTable = {
  root: {
    type: 'string',
    value: '<dir>',
    help: 'the project root (default: the folder of flakeguard.yaml above the current folder)',
  },
  url: {
    type: 'string',
    value: '<postgres url>',
    help: `a PostgreSQL store; overrides ${HISTORY_URL_ENV} and flakeguard.yaml`,
  },
  help: { type: 'boolean', short: 'h', help: 'this text' },
};

export const HISTORY_SUMMARY = `flakeguard history: flake and duration history of every test. The store: history: true in
flakeguard.yaml (embedded, under the records folder), history: { url: postgres://... } or
${HISTORY_URL_ENV} (PostgreSQL, shared by every CI job); --url overrides both.
Subcommands: flakeguard history ingest <run record or folder>... ; flakeguard history prune --keep 90d.`;

/**
 * A command waits longer than the reporter (30 s) for another process using the embedded store:
 * creating a store takes seconds, and several ingest jobs on one machine take turns.
 */

export const HISTORY_EXIT =
  '0 done, 2 could not run (usage, config, store unreachable or written by a newer flakeguard)';
export const HISTORY_DOCS = 'docs/history.md';

/** Parses a history command's arguments with its option table; a bad option is a usage error. */
export function parseHistoryArgs(args: string[], options: OptionTable, positionals = false) {
  try {
    return parseArgs({
      args: joinNegativeValues(args, options),
      allowPositionals: positionals,
      options: toParseArgsOptions(options),
    });
  } catch (error) {
    throw historyUsage((error as Error).message);
  }
}

export function historyUsage(message: string): FlakeguardError {
  return new FlakeguardError('USAGE', `${message}; see flakeguard history --help`);
}

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
      throw historyUsage(
        `--url ${excerpt(redactSecrets(flags.url), 200)} is not a PostgreSQL URL; write postgres://user:password@host:5432/database`,
      );
    return { root, records, target: { kind: 'postgres', url: flags.url } };
  }
  const target = resolveHistoryTarget(places, loaded.config.history, process.env);
  if (target === null) {
    throw historyUsage(
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
      // Interrupted, or damaged (its own line names the store and the fix), pass as they are.
      if (error instanceof FlakeguardError && (error.code === 'INTERRUPTED' || error.code === 'STORE_DAMAGED'))
        throw error;
      throw historyUsage(`cannot open the history store: ${describeThrown(error)}`);
    },
  );
}
