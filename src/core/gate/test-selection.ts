/**
 * Which tests the gate runs: the tests of the working tree compared with the tests at the merge
 * base, both read statically from the test files. Pure: two lists of tests in, a selection out.
 *
 * - unchanged: same file, same full name, same body fingerprint. Never selected.
 * - changed: same file and full name, different body.
 * - renamed: same file, same body, a full name that is not at base (the old name is gone).
 * - moved: same body in another file whose old place is gone (renamed too or not).
 * - new: none of the above.
 * A base test is matched at most once, so two head tests never claim the same old test.
 */
import { refKey, type TestRef } from '../test-id.js';

export interface SelectableTest {
  readonly file: string;
  readonly fullName: string;
  readonly line: number;
  readonly fingerprint: string;
}

/** `affected`: unchanged, in a test file that imports a changed module (gate --affected). */
export type SelectionKind = 'new' | 'changed' | 'renamed' | 'moved' | 'affected';

export interface SelectedTest<T extends SelectableTest = SelectableTest> {
  readonly kind: SelectionKind;
  readonly test: T;
  /** The matching test at base (changed, renamed, moved). */
  readonly previous: SelectableTest | null;
}

export interface TestSelection<T extends SelectableTest = SelectableTest> {
  readonly selected: readonly SelectedTest<T>[];
  readonly unchanged: number;
}

// Tests read from source name no project: a selected test is tried in every project that runs its file.
const identity = (t: TestRef): string => refKey(t);

/** What the passes of selectTests share: the base tests already matched, and each head test's selection. */
interface Matching<T extends SelectableTest> {
  readonly used: Set<SelectableTest>;
  readonly results: Map<T, SelectedTest<T>>;
}

export function selectTests<T extends SelectableTest>(
  base: readonly SelectableTest[],
  head: readonly T[],
): TestSelection<T> {
  const m: Matching<T> = { used: new Set(), results: new Map() };
  const { rest, unchanged } = matchSameIdentity(base, head, m);
  matchSameBody(base, head, rest, m);
  // Keep the working tree's order (file, then position) so output is stable.
  const selected = head.flatMap((t) => {
    const r = m.results.get(t);
    return r ? [r] : [];
  });
  return { selected, unchanged };
}

/** Pass 1: same identity (file + full name): unchanged or changed. Returns the head tests left. */
function matchSameIdentity<T extends SelectableTest>(
  base: readonly SelectableTest[],
  head: readonly T[],
  { used, results }: Matching<T>,
): { rest: T[]; unchanged: number } {
  const baseByIdentity = new Map<string, SelectableTest>();
  for (const t of base) if (!baseByIdentity.has(identity(t))) baseByIdentity.set(identity(t), t);
  let unchanged = 0;
  const rest: T[] = [];
  for (const t of head) {
    const old = baseByIdentity.get(identity(t));
    if (old && !used.has(old)) {
      used.add(old);
      if (old.fingerprint === t.fingerprint) unchanged += 1;
      else results.set(t, { kind: 'changed', test: t, previous: old });
    } else {
      rest.push(t);
    }
  }
  return { rest, unchanged };
}

/** Pass 2: same body whose old identity is gone: renamed (same file first) or moved; else new. */
function matchSameBody<T extends SelectableTest>(
  base: readonly SelectableTest[],
  head: readonly T[],
  rest: readonly T[],
  { used, results }: Matching<T>,
): void {
  const headIdentities = new Set(head.map(identity));
  const orphansByFingerprint = new Map<string, SelectableTest[]>();
  for (const t of base) {
    if (used.has(t) || headIdentities.has(identity(t))) continue;
    const list = orphansByFingerprint.get(t.fingerprint) ?? [];
    list.push(t);
    orphansByFingerprint.set(t.fingerprint, list);
  }
  const take = (t: T, sameFile: boolean): SelectableTest | undefined => {
    const list = orphansByFingerprint.get(t.fingerprint);
    if (!list) return undefined;
    const index = list.findIndex((o) => !used.has(o) && (o.file === t.file) === sameFile);
    if (index < 0) return undefined;
    const [old] = list.splice(index, 1);
    if (old) used.add(old);
    return old;
  };
  const unmatched: T[] = [];
  for (const t of rest) {
    const old = take(t, true);
    if (old) results.set(t, { kind: 'renamed', test: t, previous: old });
    else unmatched.push(t);
  }
  for (const t of unmatched) {
    const old = take(t, false);
    results.set(t, old ? { kind: 'moved', test: t, previous: old } : { kind: 'new', test: t, previous: null });
  }
}
