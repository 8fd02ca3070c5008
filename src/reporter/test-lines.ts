/**
 * Lines of the tests the report names (over or near budget, flaky, failed) when Vitest did not
 * record locations. Turning on Vitest's `includeTaskLocation` for every test cost about 5% more
 * CPU in the workers on a suite of small tests (bench/reporter-overhead.mjs); reading the few
 * files the report names costs nothing when every test is within budget.
 */

import { placeKey, type TestPlace } from '../core/budget/budget-places.js';
import type { ObservedTest } from '../core/budget/budget-report.js';

export type { TestPlace };

/** Declared places by `placeKey` (the same in every project), for tests whose full name appears once in their file's source. */
export async function findTestPlaces(
  root: string,
  wanted: readonly Pick<ObservedTest, 'file' | 'line'>[],
): Promise<Map<string, TestPlace>> {
  const places = new Map<string, TestPlace>();
  const missing = wanted.filter((t) => t.line === null);
  if (missing.length === 0) return places;
  const { readSourceTests } = await import('../io/source/source-files.js');
  const read = readSourceTests(root, new Set(missing.map((t) => t.file)));
  const seen = new Set<string>();
  for (const [file, tests] of read.tests) {
    for (const t of tests) {
      if (t.each || t.dynamicTitle) continue;
      const key = placeKey({ file, fullName: t.fullName });
      if (seen.has(key)) places.delete(key);
      else places.set(key, { line: t.line, column: t.column });
      seen.add(key);
    }
  }
  return places;
}
