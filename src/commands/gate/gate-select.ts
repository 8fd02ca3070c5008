/**
 * The gate's selection at the edge: ask the project's Vitest which files are tests (and, with
 * --affected, which test files import a changed module), read the changed test files at the base
 * revision and in the working tree, extract their tests statically, and compare them
 * (core/gate/test-selection.ts). Only files that differ from the base are read: a test in an
 * unchanged file is unchanged, unless --affected selects its whole file.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { isFlakeguardError } from '../../core/errors.js';
import { type SelectedTest, selectTests } from '../../core/gate/test-selection.js';
import { extractTests, type SourceTest } from '../../core/source/test-source.js';
import { readSourceFile } from '../../io/files/input-file.js';
import { listChangedFiles, readFilesAtRevision } from '../../io/git/git.js';
import { listTestFiles, type TestFileList } from '../../io/vitest/list-test-files.js';
import type { VitestSetup } from '../../io/vitest/vitest-setup.js';

export interface GateSelection {
  readonly selected: readonly SelectedTest<SourceTest>[];
  /** Selected by the diff but not runnable one by one (skip/todo, .each, computed titles), with why. */
  readonly notRun: readonly { readonly test: SourceTest; readonly reason: string }[];
  readonly unchanged: number;
  readonly changedFiles: number;
  /** Things the user should know (a base file that did not parse). */
  readonly notices: readonly string[];
  /** The Vitest projects each selected file runs in ('' for an unnamed one). */
  readonly projectsOf: ReadonlyMap<string, readonly string[]>;
  /** For files selected by --affected: the changed modules they import. */
  readonly affectedBy: ReadonlyMap<string, readonly string[]>;
  /** The Vitest config file that listed the tests (absolute), or null for Vitest's defaults. */
  readonly configFile: string | null;
  /** A project's custom `test.runner`, or null (the gate refuses to run tries through one). */
  readonly customRunner: string | null;
}

function whyNotRunnable(t: SourceTest): string | null {
  if (t.mode === 'skip' || t.mode === 'todo') return `marked .${t.mode}`;
  if (t.each) return '.each/.for: Vitest names each row differently from the source title';
  if (t.dynamicTitle) return 'its title is computed, so its name is known only when it runs';
  return null;
}

/** `a/b.test.ts` -> `.test.ts`: a deleted file counts as a test file when a listed one ends the same way. */
const doubleExtension = (file: string): string => {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const dot = base.indexOf('.', 1);
  return dot === -1 ? base : base.slice(dot);
};

function readTests(text: string, file: string): SourceTest[] {
  return extractTests(text, file);
}

export async function selectGateTests(
  root: string,
  sha: string,
  options: { readonly setup: VitestSetup; readonly affected: boolean; readonly signal?: AbortSignal },
): Promise<GateSelection> {
  const { listed, testFiles, changed } = await listChangedTestFiles(root, sha, options);
  const projectsOf = new Map<string, string[]>();
  for (const f of listed.files) projectsOf.set(f.file, [...(projectsOf.get(f.file) ?? []), f.project]);
  const { base, head, notices } = await readBaseAndHead(root, sha, changed);
  const selection = selectTests(base, head);
  const all: SelectedTest<SourceTest>[] = [...selection.selected];
  const affectedBy = options.affected ? findAffected(listed, testFiles, changed) : new Map<string, string[]>();
  for (const file of [...affectedBy.keys()].sort()) {
    for (const test of readTests(readSourceFile(path.join(root, file), file), file))
      all.push({ kind: 'affected', test, previous: null });
  }
  const selected: SelectedTest<SourceTest>[] = [];
  const notRun: { test: SourceTest; reason: string }[] = [];
  for (const s of all) {
    const reason = whyNotRunnable(s.test);
    if (reason === null) selected.push(s);
    else if (s.test.mode !== 'skip' && s.test.mode !== 'todo') notRun.push({ test: s.test, reason });
  }
  return {
    selected,
    notRun,
    unchanged: selection.unchanged,
    changedFiles: changed.length,
    notices,
    projectsOf,
    affectedBy,
    configFile: listed.configFile,
    customRunner: listed.customRunner,
  };
}

/**
 * The test files Vitest lists and the changed ones among them (a deleted file counts when a listed
 * one ends the same way). One Vitest start for both questions: which files are tests, and
 * (--affected) which import what changed. Without --affected it needs no diff, so git and Vitest
 * work at the same time.
 */
async function listChangedTestFiles(
  root: string,
  sha: string,
  options: { readonly setup: VitestSetup; readonly affected: boolean; readonly signal?: AbortSignal },
): Promise<{ listed: TestFileList; testFiles: ReadonlySet<string>; changed: string[] }> {
  const exists = (f: string): boolean => existsSync(path.join(root, f));
  const signal = options.signal ? { signal: options.signal } : {};
  const [changedAll, listed] = options.affected
    ? await listChangedFiles(root, sha).then(
        async (all) =>
          [
            all,
            await listTestFiles({ root, setup: options.setup, affectedBy: all.filter(exists), ...signal }),
          ] as const,
      )
    : await Promise.all([listChangedFiles(root, sha), listTestFiles({ root, setup: options.setup, ...signal })]);
  const testFiles = new Set(listed.files.map((f) => f.file));
  const endings = new Set([...testFiles].map(doubleExtension));
  const changed = changedAll.filter((f) => testFiles.has(f) || (!exists(f) && endings.has(doubleExtension(f))));
  return { listed, testFiles, changed };
}

/** The tests of each changed file at the base and in the working tree, in file and line order. */
async function readBaseAndHead(
  root: string,
  sha: string,
  changed: readonly string[],
): Promise<{ base: SourceTest[]; head: SourceTest[]; notices: string[] }> {
  const notices: string[] = [];
  const base: SourceTest[] = [];
  const head: SourceTest[] = [];
  const atBase = await readFilesAtRevision(root, sha, changed);
  for (const file of changed) {
    const before = atBase.get(file) ?? null;
    if (before !== null) {
      try {
        base.push(...readTests(before, file));
      } catch (error) {
        if (!isFlakeguardError(error)) throw error;
        notices.push(`${file} at the base does not parse; its tests count as new (${error.message})`);
      }
    }
    if (existsSync(path.join(root, file))) head.push(...readTests(readSourceFile(path.join(root, file), file), file));
  }
  const order = (a: SourceTest, b: SourceTest): number =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line;
  base.sort(order);
  head.sort(order);
  return { base, head, notices };
}

/** --affected: the unchanged test files that import a changed module, with those modules. */
function findAffected(
  listed: TestFileList,
  testFiles: ReadonlySet<string>,
  changed: readonly string[],
): Map<string, string[]> {
  const affectedBy = new Map<string, string[]>();
  for (const a of listed.affected) {
    const via = a.via.filter((m) => !testFiles.has(m));
    if (changed.includes(a.file) || via.length === 0) continue;
    affectedBy.set(a.file, [...new Set([...(affectedBy.get(a.file) ?? []), ...via])].sort());
  }
  return affectedBy;
}
