/**
 * Lineage: where a test that an allowance was written for went, one change at a time. From the
 * state an allowance records (file, full name, fingerprint at a commit), each later version of the
 * test's file is asked which test is the same one: the test with the same name (its body may have
 * been edited), else the test with the same body (its title or describe was renamed). When the test
 * left the file, the files changed in the same step are asked for its body (it moved). A name and a
 * body changed in one step cut the lineage: nothing that survived identifies the test.
 *
 * Pure: the versions come from git (io/allowances/allowance-lineage.ts) and the working tree (the caller).
 */

import type { TestRef } from '../test-id.js';

export interface LineageState extends TestRef {
  readonly fingerprint: string | null;
}

/** A test in one version of a file, as lineage compares it. */
export interface VersionTest {
  readonly fullName: string;
  readonly fingerprint: string | null;
  /** For a `.each` template: matches its row names. */
  readonly namePattern?: RegExp;
}

/** How the lineage of one allowance ends at HEAD (before the working tree). */
export type Lineage =
  | { readonly kind: 'traced'; readonly state: LineageState; readonly steps: number }
  | { readonly kind: 'ended'; readonly why: string }
  | { readonly kind: 'ambiguous'; readonly why: string }
  /** No history to follow (no commit recorded, shallow clone, rewritten history): match by name and body. */
  | { readonly kind: 'unavailable'; readonly why: string };

export type Carry =
  | { readonly kind: 'kept'; readonly state: LineageState; readonly index: number }
  | { readonly kind: 'ambiguous'; readonly why: string }
  | { readonly kind: 'gone' };

const hasName = (t: VersionTest, name: string): boolean => t.fullName === name || (t.namePattern?.test(name) ?? false);

/** The name a carried state keeps: a `.each` row name stays the row name while the template matches it. */
function carriedName(t: VersionTest, name: string): string {
  return t.namePattern !== undefined && t.namePattern.test(name) ? name : t.fullName;
}

function kept(state: LineageState, file: string, tests: readonly VersionTest[], index: number): Carry {
  const t = tests[index] as VersionTest;
  return {
    kind: 'kept',
    state: { file, fullName: carriedName(t, state.fullName), fingerprint: t.fingerprint ?? state.fingerprint },
    index,
  };
}

const indexes = (tests: readonly VersionTest[], keep: (t: VersionTest) => boolean): number[] =>
  tests.flatMap((t, i) => (keep(t) ? [i] : []));

/** The test in the next version of the state's file (`file`, renamed or not) that is the same test. */
export function carryInFile(state: LineageState, file: string, tests: readonly VersionTest[]): Carry {
  const byName = indexes(tests, (t) => hasName(t, state.fullName));
  if (byName.length === 1) return kept(state, file, tests, byName[0] as number);
  if (byName.length > 1) {
    const same = byName.filter((i) => state.fingerprint !== null && tests[i]?.fingerprint === state.fingerprint);
    if (same.length === 1) return kept(state, file, tests, same[0] as number);
    return { kind: 'ambiguous', why: `${byName.length} tests in ${file} are named ${JSON.stringify(state.fullName)}` };
  }
  if (state.fingerprint === null) return { kind: 'gone' };
  const byBody = indexes(tests, (t) => t.fingerprint === state.fingerprint);
  if (byBody.length === 1) return kept(state, file, tests, byBody[0] as number);
  if (byBody.length > 1)
    return {
      kind: 'ambiguous',
      why: `${byBody.length} tests in ${file} have its body (renamed and copied in one step)`,
    };
  return { kind: 'gone' };
}

/**
 * The test that left its file, found by its body among the other files changed in the same step
 * (a move to another file, renamed or not). `files` must not hold tests that existed before the
 * step under the same body (the caller gives only changed files).
 */
export function carryAcrossFiles(state: LineageState, files: ReadonlyMap<string, readonly VersionTest[]>): Carry {
  if (state.fingerprint === null) return { kind: 'gone' };
  const found: { file: string; index: number }[] = [];
  for (const [file, tests] of files) {
    tests.forEach((t, index) => {
      if (t.fingerprint === state.fingerprint) found.push({ file, index });
    });
  }
  if (found.length === 0) return { kind: 'gone' };
  const named = found.filter((f) => hasName(files.get(f.file)?.[f.index] as VersionTest, state.fullName));
  const pick = found.length === 1 ? found[0] : named.length === 1 ? named[0] : undefined;
  if (pick === undefined)
    return {
      kind: 'ambiguous',
      why: `${found.length} tests in ${[...new Set(found.map((f) => f.file))].join(', ')} have its body`,
    };
  return kept(state, pick.file, files.get(pick.file) as readonly VersionTest[], pick.index);
}

/** Carries a state across one step: within its file (renamed to `file` or not), else to another changed file. */
export function carryStep(
  state: LineageState,
  file: string | null,
  tests: readonly VersionTest[],
  others: () => ReadonlyMap<string, readonly VersionTest[]>,
): Carry {
  const inFile = file === null ? ({ kind: 'gone' } as const) : carryInFile(state, file, tests);
  return inFile.kind === 'gone' ? carryAcrossFiles(state, others()) : inFile;
}

export function describeLoss(state: LineageState, where: string): string {
  return `the test (last ${JSON.stringify(state.fullName)}) left ${state.file} ${where}: deleted, or renamed and edited in one step`;
}
