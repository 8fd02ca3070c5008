/**
 * The project's places, resolved in one spot for every command and the reporter: the root, the
 * records folder (flakeguard.yaml's `records`, overridden by FLAKEGUARD_RECORDS), the cache folder
 * beside it (caches and locks; the records folder holds run records only) and the embedded history
 * store. Anything that reads or writes one of these asks here.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';

/** Environment variable that redirects run records to another folder (absolute or root-relative). */
export const RECORDS_ENV = 'FLAKEGUARD_RECORDS';
/** The cache folder's name, beside the records folder (`.flakeguard/cache` for `.flakeguard/runs`). */
export const CACHE_FOLDER = 'cache';
/** The embedded store's folder inside the records folder. */
export const EMBEDDED_FOLDER = 'history';
/** The lineage cache's file name (in the cache folder; older versions wrote it in the records folder). */
export const LINEAGE_CACHE = 'allowance-lineage.json';

export interface ProjectPlaces {
  /** Absolute project root (the folder of flakeguard.yaml). */
  readonly root: string;
  /** Absolute records folder: run records only. */
  readonly records: string;
  /** The records folder as the user named it (config or FLAKEGUARD_RECORDS), for messages. */
  readonly recordsShown: string;
  /** Absolute cache folder: the lineage cache and lock files. */
  readonly cache: string;
  /** Absolute folder of the embedded history store, and its lock file. */
  readonly historyFolder: string;
  readonly historyLock: string;
}

export function resolveProjectPlaces(
  root: string,
  config: { readonly records: string },
  env: Readonly<Record<string, string | undefined>> = process.env,
): ProjectPlaces {
  const recordsShown = env[RECORDS_ENV] || config.records;
  const records = path.resolve(root, recordsShown);
  const cache = path.join(path.dirname(records), CACHE_FOLDER);
  return {
    root,
    records,
    recordsShown,
    cache,
    historyFolder: path.join(records, EMBEDDED_FOLDER),
    historyLock: path.join(cache, `${EMBEDDED_FOLDER}.lock`),
  };
}

/**
 * The path of a cache file, after moving the copy an older flakeguard left in the records folder
 * (moved, never lost; it replaces the cache folder's copy, which is a cache too).
 */
export function cacheFile(places: ProjectPlaces, name: string): string {
  const target = path.join(places.cache, name);
  const old = path.join(places.records, name);
  if (existsSync(old)) {
    mkdirSync(places.cache, { recursive: true });
    renameSync(old, target);
  }
  return target;
}
