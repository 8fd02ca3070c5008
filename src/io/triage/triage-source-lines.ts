/**
 * The line each failed test starts on, read from the test source in the checkout when the inputs
 * did not say (a JSON report without includeTaskLocation, JUnit, the log): the reproduce command
 * and the re-run select a test by `<file>:<line>`, never by a name pattern.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { findSourceTest } from '../../core/allowances/allowance-universe.js';
import type { ObservedTest } from '../../core/triage/triage-types.js';

export async function addSourceLines(root: string, tests: readonly ObservedTest[]): Promise<ObservedTest[]> {
  const wanted = tests.filter(
    (t) => t.kind !== 'file' && t.state === 'failed' && t.line === null && t.file !== null && t.fullName !== '',
  );
  const files = new Set(wanted.map((t) => t.file as string).filter((f) => existsSync(path.join(root, f))));
  if (files.size === 0) return [...tests];
  // Loaded only here: the parser costs ~200 ms of CPU, paid only when a failed test has no line.
  const { readSourceTests } = await import('../source/source-files.js');
  const sources = readSourceTests(root, files).tests;
  return tests.map((t) => {
    if (!wanted.includes(t) || t.file === null) return t;
    const found = findSourceTest({ file: t.file, fullName: t.fullName, line: null }, sources.get(t.file) ?? []);
    return found ? { ...t, line: found.line } : t;
  });
}
