/**
 * Test files and the tests they declare, read from disk: each file read and parsed once.
 * Test files are found as Vitest's default include does (`**\/*.{test,spec}.?(c|m)[jt]s?(x)`,
 * no node_modules, no dot folders); files a run reported are added by the caller.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { SourceSignal } from '../../core/cause/cause.js';
import { findSourceSignals } from '../../core/cause/source-signals.js';
import { isFlakeguardError } from '../../core/errors.js';
import { extractTests, type SourceTest } from '../../core/source/test-source.js';
import { readSourceFile } from '../files/input-file.js';

const TEST_FILE_RE = /\.(test|spec)\.[cm]?[jt]sx?$/;

export function findTestFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && TEST_FILE_RE.test(entry.name))
        out.push(path.relative(root, full).split(path.sep).join('/'));
    }
  };
  walk(root);
  return out.sort();
}

export interface SourceRead {
  readonly tests: ReadonlyMap<string, readonly SourceTest[]>;
  /** Files that could not be parsed, with the reason (file:line:column). */
  readonly problems: readonly { readonly file: string; readonly message: string }[];
}

export function readSourceTests(root: string, files: Iterable<string>): SourceRead {
  const tests = new Map<string, readonly SourceTest[]>();
  const problems: { file: string; message: string }[] = [];
  for (const file of files) {
    if (tests.has(file)) continue;
    const full = path.join(root, file);
    if (!existsSync(full)) continue;
    try {
      tests.set(file, extractTests(readSourceFile(full, file), file));
    } catch (error) {
      if (!isFlakeguardError(error)) throw error;
      problems.push({ file, message: error.message });
      tests.set(file, []);
    }
  }
  return { tests, problems };
}

/**
 * The supporting signals in one test's source (core/cause/source-signals.ts), read from the file as
 * it is now: none when the file is gone, does not parse, or no longer has the test at that line
 * (without a line: unless exactly one test has that name).
 */
export function readSourceSignals(
  root: string,
  test: { readonly file: string; readonly fullName: string; readonly line: number | null },
): SourceSignal[] {
  const full = path.join(root, test.file);
  if (!existsSync(full)) return [];
  try {
    const code = readSourceFile(full, test.file);
    const named = extractTests(code, test.file).filter((t) => t.fullName === test.fullName);
    const now = test.line === null ? named : named.filter((t) => t.line === test.line);
    return now.length === 1 && now[0] ? findSourceSignals(code, test.file, now[0]) : [];
  } catch (error) {
    if (!isFlakeguardError(error)) throw error;
    return [];
  }
}

/**
 * The tests declared before a test in its file (by line), each with the signals in its body: none
 * when the file is gone, does not parse, or no longer has the test.
 */
export function readEarlierSignals(
  root: string,
  test: { readonly file: string; readonly fullName: string; readonly line: number | null },
): { readonly fullName: string; readonly line: number; readonly signals: SourceSignal[] }[] {
  const full = path.join(root, test.file);
  if (!existsSync(full) || test.line === null) return [];
  const line = test.line;
  try {
    const code = readSourceFile(full, test.file);
    return extractTests(code, test.file)
      .filter((t) => t.line < line)
      .map((t) => ({ fullName: t.fullName, line: t.line, signals: findSourceSignals(code, test.file, t) }));
  } catch (error) {
    if (!isFlakeguardError(error)) throw error;
    return [];
  }
}
