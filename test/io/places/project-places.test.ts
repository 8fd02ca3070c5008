/** The project's places: FLAKEGUARD_RECORDS moves the records, the cache sits beside them, old cache files move in. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheFile, LINEAGE_CACHE, resolveProjectPlaces } from '../../../src/io/places/project-places.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-places-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('resolveProjectPlaces', () => {
  it('uses the config, or FLAKEGUARD_RECORDS over it; the cache and the history lock sit beside the records', () => {
    const own = resolveProjectPlaces(root, { records: '.flakeguard/runs' }, {});
    expect(own).toEqual({
      root,
      records: path.join(root, '.flakeguard/runs'),
      recordsShown: '.flakeguard/runs',
      cache: path.join(root, '.flakeguard/cache'),
      historyFolder: path.join(root, '.flakeguard/runs/history'),
      historyLock: path.join(root, '.flakeguard/cache/history.lock'),
    });
    const moved = resolveProjectPlaces(
      root,
      { records: '.flakeguard/runs' },
      { FLAKEGUARD_RECORDS: '/ci/artifacts/runs' },
    );
    expect(moved.records).toBe('/ci/artifacts/runs');
    expect(moved.cache).toBe('/ci/artifacts/cache');
    expect(moved.historyFolder).toBe('/ci/artifacts/runs/history');
  });
});

describe('cacheFile', () => {
  it('moves a cache file an older flakeguard left in the records folder, keeping its content', () => {
    const places = resolveProjectPlaces(root, { records: 'runs' }, {});
    mkdirSync(places.records, { recursive: true });
    writeFileSync(path.join(places.records, LINEAGE_CACHE), '{"version":1,"entries":{"a":1}}\n');
    const file = cacheFile(places, LINEAGE_CACHE);
    expect(file).toBe(path.join(root, 'cache', LINEAGE_CACHE));
    expect(readFileSync(file, 'utf8')).toBe('{"version":1,"entries":{"a":1}}\n');
    expect(existsSync(path.join(places.records, LINEAGE_CACHE))).toBe(false);
    expect(cacheFile(places, LINEAGE_CACHE)).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe('{"version":1,"entries":{"a":1}}\n');
  });
});
