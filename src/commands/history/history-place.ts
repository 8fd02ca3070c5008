/** Where `flakeguard history` finds its store, its help text and its usage errors. */
import path from 'node:path';
import { FlakeguardError } from '../../core/errors.js';
import { isPostgresUrl } from '../../core/history/history-config.js';
import { loadConfig } from '../../io/files/config-file.js';
import type { HistoryTarget } from '../../io/history/history-store.js';
import { HISTORY_URL_ENV, resolveHistoryTarget } from '../../io/history/history-store.js';

export const HISTORY_HELP = `flakeguard history: flake and duration history of every test

Usage:
  flakeguard history [--test <name>] [--file <path>] [--branch <b>] [--since 30d] [--top 10]
                     [--json | --markdown <file>] [--html <file>] [--root <dir>] [--url <postgres url>]
  flakeguard history ingest <run record or folder>... [--branch <b>] [--job <id>] [--root <dir>] [--url <postgres url>]
  flakeguard history prune --keep 90d [--dry-run] [--root <dir>] [--url <postgres url>]

The store: history: true in flakeguard.yaml (embedded, under the records folder), history: { url:
postgres://... } or ${HISTORY_URL_ENV} (PostgreSQL, shared by every CI job); --url overrides both.
Without --test/--file it lists the flakiest tests and the tests nearest to crossing their limit.
--test matches part of the full name; --file a test file or a folder of them. --since takes 30d, 12w
or a day (2026-11-01). Ingesting a record twice stores it once. See docs/history.md.
Exit codes: 0 done, 2 could not run.`;

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
  const records = process.env['FLAKEGUARD_RECORDS'] || loaded.config.records;
  if (flags.url !== undefined) {
    if (!isPostgresUrl(flags.url)) throw historyUsage(`--url "${flags.url}" is not a PostgreSQL URL; write postgres://user:password@host:5432/database`);
    return { root, records, target: { kind: 'postgres', url: flags.url } };
  }
  const target = resolveHistoryTarget(root, records, loaded.config.history, process.env);
  if (target === null) {
    throw historyUsage(
      `history is off for ${root}: add "history: true" to flakeguard.yaml (an embedded store under ${records}/), or set ${HISTORY_URL_ENV}=postgres://..., or pass --url`,
    );
  }
  return { root, records, target };
}

