/**
 * The allowance lineage cache: each traced lineage by its request, with the HEAD it was traced
 * at, in `<cache>/allowance-lineage.json` (the cache folder beside the records, io/places). A
 * repeat run at the same HEAD asks git for HEAD only; a run after new commits walks only the new
 * ones. A cache that cannot be read or written costs time, not results.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Lineage, LineageState } from '../../core/allowances/allowance-lineage.js';
import { fullNameAs, fullNameFrom } from '../../core/test-id.js';
import { tupleKey } from '../../core/tuple-key.js';
import { writeFileAtomic } from '../files/atomic-write.js';

export interface CacheEntry {
  /** The HEAD the lineage was traced to. */
  readonly at: string;
  readonly lineage: Lineage;
}

const CACHE_VERSION = 1;

/** The cache key of a request: where its allowance starts (commit, file, name, fingerprint); not a test identity. */
export const cacheKey = (r: { readonly commit: string | null; readonly state: LineageState }): string =>
  tupleKey([r.commit, r.state.file, r.state.fullName, r.state.fingerprint]);

/** A traced lineage's state keeps the file's `name` for the full name (the cache's version 1 field names). */
const entryOnDisk = (e: CacheEntry): unknown =>
  e.lineage.kind === 'traced' ? { ...e, lineage: { ...e.lineage, state: fullNameAs(e.lineage.state, 'name') } } : e;

const entryInMemory = (e: CacheEntry): CacheEntry =>
  e.lineage.kind === 'traced'
    ? { ...e, lineage: { ...e.lineage, state: fullNameFrom(e.lineage.state, 'name') as unknown as LineageState } }
    : e;

export function readLineageCache(file: string | null): Map<string, CacheEntry> {
  if (file === null || !existsSync(file)) return new Map();
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { version?: number; entries?: Record<string, CacheEntry> };
    return data.version === CACHE_VERSION && data.entries
      ? new Map(Object.entries(data.entries).map(([k, e]) => [k, entryInMemory(e)]))
      : new Map();
  } catch {
    return new Map();
  }
}

export function writeLineageCache(file: string | null, entries: Record<string, CacheEntry>): void {
  if (file === null) return;
  try {
    const onDisk = Object.fromEntries(Object.entries(entries).map(([k, e]) => [k, entryOnDisk(e)]));
    writeFileAtomic(file, `${JSON.stringify({ version: CACHE_VERSION, entries: onDisk })}\n`);
  } catch {
    // A cache that cannot be written costs time, not results.
  }
}
