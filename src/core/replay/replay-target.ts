/**
 * Where the test a replay runs starts, and the earlier test --after names, from the file's tests as
 * its source names them (core/source/test-source.ts): a name not in the file, or an --after test
 * that is not earlier, is an error naming it and the names the file has. Pure.
 */
import type { ReplayConditions } from './replay-command.js';

export interface ReplayLines {
  readonly line: number;
  /** The --after test's line, or null. */
  readonly afterLine: number | null;
}

const nearest = (names: readonly string[]): string =>
  names.length === 0
    ? 'the file has no test a plain title names'
    : `its tests: ${names
        .slice(0, 8)
        .map((n) => `"${n}"`)
        .join(', ')}${names.length > 8 ? ', ...' : ''}`;

export function findReplayLines(
  tests: readonly { readonly fullName: string; readonly line: number }[],
  c: Pick<ReplayConditions, 'file' | 'fullName' | 'after'>,
): ReplayLines | { readonly error: string } {
  const names = tests.map((t) => t.fullName);
  const target = tests.find((t) => t.fullName === c.fullName);
  if (target === undefined)
    return {
      error: `-t "${c.fullName}" is not a test of ${c.file} (${nearest(names)}); pass its full name, titles joined with ' > '`,
    };
  if (c.after === null) return { line: target.line, afterLine: null };
  const after = tests.find((t) => t.fullName === c.after);
  if (after === undefined || after.line >= target.line)
    return {
      error: `--after "${c.after}" is not a test of ${c.file} before "${c.fullName}" (${nearest(names.filter((_, i) => (tests[i]?.line ?? 0) < target.line))}); name an earlier test of the same file`,
    };
  return { line: target.line, afterLine: after.line };
}
