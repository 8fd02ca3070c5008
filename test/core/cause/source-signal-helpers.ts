/** The signals of one test of a fixture source, found the way the gate finds them (shared by the source-signal tests). */
import { findSourceSignals } from '../../../src/core/cause/source-signals.js';
import { extractTests } from '../../../src/core/source/test-source.js';

const FILE = 'test/x.test.ts';
export const lines = (...l: string[]): string => l.join('\n');

/** The signals of the test named `name` in `code`. */
export function signalsOf(code: string, name = 'it works') {
  const test = extractTests(code, FILE).find((t) => t.fullName === name);
  if (!test) throw new Error(`no test "${name}" in the fixture`);
  return findSourceSignals(code, FILE, test);
}
