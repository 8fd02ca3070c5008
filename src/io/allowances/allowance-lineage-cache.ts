/**
 * The allowance lineage cache: each traced lineage by its request, with the HEAD it was traced
 * at, in `<cache>/allowance-lineage.json` (the cache folder beside the records, io/places). A
 * repeat run at the same HEAD asks git for HEAD only; a run after new commits walks only the new
 * ones. A cache that cannot be read or written costs time, not results.
 */
import { existsSync } from 'node:fs';
import type { Lineage, LineageState } from '../../core/allowances/allowance-lineage.js';
import { fullNameFrom } from '../../core/test-id.js';
import { tupleKey } from '../../core/tuple-key.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import { RECORD_FILE_LIMIT_BYTES, readInputFile } from '../files/input-file.js';

export interface CacheEntry {
  /** The HEAD the lineage was traced to. */
  readonly at: string;
  readonly lineage: Lineage;
}

/** 2: a traced state's full name is `fullName`; a version 1 cache (`name`) is read and written again as 2. */
const CACHE_VERSION = 2;

/** The cache key of a request: where its allowance starts (commit, file, name, fingerprint); not a test identity. */
export const cacheKey = (r: { readonly commit: string | null; readonly state: LineageState }): string =>
  tupleKey([r.commit, r.state.file, r.state.fullName, r.state.fingerprint]);

/** A version 1 entry: its traced state's full name was `name`. */
const entryOfVersion1 = (e: CacheEntry): CacheEntry =>
  e.lineage.kind === 'traced'
    ? { ...e, lineage: { ...e.lineage, state: fullNameFrom(e.lineage.state, 'name') as unknown as LineageState } }
    : e;

export function readLineageCache(file: string | null): Map<string, CacheEntry> {
  if (file === null || !existsSync(file)) return new Map();
  try {
    const data = JSON.parse(readInputFile(file, 'a lineage cache', RECORD_FILE_LIMIT_BYTES).toString('utf8')) as {
      version?: number;
      entries?: Record<string, CacheEntry>;
    };
    if (!data.entries || (data.version !== CACHE_VERSION && data.version !== 1)) return new Map();
    const upgrade = data.version === 1 ? entryOfVersion1 : (e: CacheEntry): CacheEntry => e;
    return new Map(Object.entries(data.entries).map(([k, e]) => [k, upgrade(e)]));
  } catch {
    return new Map();
  }
}

export function writeLineageCache(file: string | null, entries: Record<string, CacheEntry>): void {
  if (file === null) return;
  try {
    writeFileAtomic(file, `${JSON.stringify({ version: CACHE_VERSION, entries })}\n`);
  } catch {
    // A cache that cannot be written costs time, not results.
  }
}
