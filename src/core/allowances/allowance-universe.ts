/**
 * The tests allowances are matched against: the tests a run reported (their fingerprints looked up
 * in the source of their file) plus, for files the run did not include, the tests read from source.
 */

import type { SourceTest } from '../source/test-source.js';
import { refKey, type TestRef } from '../test-id.js';
import { eachNamePattern } from './allowance-match.js';
import type { UniverseTest } from './allowance-resolve.js';

export interface RunTest extends TestRef {
  readonly line: number | null;
}

function patternOf(t: SourceTest): RegExp | null {
  return t.each || t.dynamicTitle ? eachNamePattern(t.fullName) : null;
}

/** The source test a reported test comes from: by name, else by line, else by `.each` template. */
export function findSourceTest(run: RunTest, source: readonly SourceTest[]): SourceTest | null {
  const byName = source.filter((s) => s.fullName === run.fullName && !s.each);
  if (byName.length === 1) return byName[0] as SourceTest;
  const onLine = run.line === null ? [] : source.filter((s) => s.line === run.line);
  if (onLine.length === 1) return onLine[0] as SourceTest;
  const pool = onLine.length > 1 ? onLine : source;
  const byPattern = pool.filter((s) => patternOf(s)?.test(run.fullName) ?? false);
  return byPattern.length === 1 ? (byPattern[0] as SourceTest) : null;
}

/** A test read from source only; `.each` and computed titles match row names by pattern. */
export function sourceUniverseTest(t: SourceTest): UniverseTest {
  const pattern = patternOf(t);
  return {
    file: t.file,
    fullName: t.fullName,
    fingerprint: t.fingerprint,
    inRun: false,
    line: t.line,
    ...(pattern ? { namePattern: pattern } : {}),
  };
}

export function buildUniverse(
  runTests: readonly RunTest[],
  sources: ReadonlyMap<string, readonly SourceTest[]>,
): UniverseTest[] {
  const runFiles = new Set(runTests.map((t) => t.file));
  // A file two Vitest projects run reports each test once per project: an allowance names no
  // project, so those are one test to match (not two tests of one name, which would be ambiguous).
  const once = [...new Map(runTests.map((t) => [refKey(t), t])).values()];
  const universe: UniverseTest[] = once.map((t) => {
    const source = sources.get(t.file);
    const found = source ? findSourceTest(t, source) : null;
    const base: UniverseTest = {
      file: t.file,
      fullName: t.fullName,
      fingerprint: found?.fingerprint ?? null,
      inRun: true,
      line: t.line,
    };
    // A caller that reports tests from source (the gate) names a `.each` test by its template.
    const pattern = found && found.fullName === t.fullName ? patternOf(found) : null;
    return pattern ? { ...base, namePattern: pattern } : base;
  });
  for (const [file, tests] of sources) {
    if (runFiles.has(file)) continue;
    for (const t of tests) if (t.mode !== 'todo') universe.push(sourceUniverseTest(t));
  }
  return universe;
}
