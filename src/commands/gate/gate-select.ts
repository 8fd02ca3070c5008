/**
 * The gate's selection at the edge: read the changed test files at the base revision and in the
 * working tree, extract their tests statically, and compare them (core/test-selection.ts).
 * Only files that differ from the base are read: a test in an unchanged file is unchanged.
 *
 * Test files are the ones Vitest's default `include` picks up: `**\/*.{test,spec}.?(c|m)[jt]s?(x)`,
 * outside node_modules. A project with another `include` is not read from its config (docs/gate.md).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isFlakeguardError } from '../../core/errors.js';
import { selectTests, type SelectedTest } from '../../core/gate/test-selection.js';
import { extractTests, type SourceTest } from '../../core/source/test-source.js';
import { listChangedFiles, readFilesAtRevision } from '../../io/git/git.js';

const TEST_FILE = /\.(test|spec)\.(c|m)?[jt]sx?$/;

export function isTestFile(relPath: string): boolean {
  return TEST_FILE.test(relPath) && !relPath.split('/').includes('node_modules');
}

export interface GateSelection {
  readonly selected: readonly SelectedTest<SourceTest>[];
  /** Selected by the diff but not runnable one by one (skip/todo, .each, computed titles), with why. */
  readonly notRun: readonly { readonly test: SourceTest; readonly reason: string }[];
  readonly unchanged: number;
  readonly changedFiles: number;
  /** Things the user should know (a base file that did not parse). */
  readonly notices: readonly string[];
}

function whyNotRunnable(t: SourceTest): string | null {
  if (t.mode === 'skip' || t.mode === 'todo') return `marked .${t.mode}`;
  if (t.each) return '.each/.for: Vitest names each row differently from the source title';
  if (t.dynamicTitle) return 'its title is computed, so its name is known only when it runs';
  return null;
}

export async function selectGateTests(root: string, sha: string): Promise<GateSelection> {
  const changed = (await listChangedFiles(root, sha)).filter(isTestFile);
  const notices: string[] = [];
  const base: SourceTest[] = [];
  const head: SourceTest[] = [];
  const atBase = await readFilesAtRevision(root, sha, changed);
  for (const file of changed) {
    const before = atBase.get(file) ?? null;
    if (before !== null) {
      try {
        base.push(...extractTests(before, file));
      } catch (error) {
        if (!isFlakeguardError(error)) throw error;
        notices.push(`${file} at the base does not parse; its tests count as new (${error.message})`);
      }
    }
    const abs = path.join(root, file);
    if (existsSync(abs)) head.push(...extractTests(readFileSync(abs, 'utf8'), file));
  }
  const order = (a: SourceTest, b: SourceTest): number => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line);
  base.sort(order);
  head.sort(order);
  const selection = selectTests(base, head);
  const selected: SelectedTest<SourceTest>[] = [];
  const notRun: { test: SourceTest; reason: string }[] = [];
  for (const s of selection.selected) {
    const reason = whyNotRunnable(s.test);
    if (reason === null) selected.push(s);
    else if (s.test.mode !== 'skip' && s.test.mode !== 'todo') notRun.push({ test: s.test, reason });
  }
  return { selected, notRun, unchanged: selection.unchanged, changedFiles: changed.length, notices };
}
