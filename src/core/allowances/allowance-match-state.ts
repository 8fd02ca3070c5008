/**
 * The shapes matching works on and the state it carries from stage to stage (allowance-match.ts):
 * the results so far and the tests already claimed. Each stage reads the state and returns a new
 * one; nothing is shared between stages but what is passed.
 */

import type { TestRef } from '../test-id.js';
import type { Lineage } from './allowance-lineage.js';

export type MatchKind = 'exact' | 'renamed' | 'moved' | 'moved-renamed' | 'git-renamed';

export interface MatchAllowance extends TestRef {
  readonly id: string;
  readonly fingerprint: string | null;
}

export interface MatchTest extends TestRef {
  /** null when the test's source could not be read. */
  readonly fingerprint: string | null;
  /**
   * For a `.each` test read from source: matches the row names Vitest gives (`adds 1`), so an
   * allowance stored under a row name is an exact match. Absent for tests Vitest reported.
   */
  readonly namePattern?: RegExp;
}

export type AllowanceMatch =
  | { readonly kind: MatchKind; readonly id: string; readonly test: number; readonly via?: 'lineage' }
  | { readonly kind: 'ambiguous'; readonly id: string; readonly candidates: readonly number[]; readonly why: string }
  | { readonly kind: 'orphan'; readonly id: string; readonly why?: string };

/** HEAD to the working tree: renamed files (old -> new), deleted files and every changed file. */
export interface WorktreeChanges {
  readonly renames: ReadonlyMap<string, string>;
  readonly deleted: ReadonlySet<string>;
  readonly changed: ReadonlySet<string>;
}

export interface MatchInput {
  readonly allowances: readonly MatchAllowance[];
  readonly tests: readonly MatchTest[];
  /** Old path -> new path, from git's rename detection. */
  readonly renames: ReadonlyMap<string, string>;
  /** Each allowance's lineage at HEAD (allowances absent from it have none). */
  readonly lineage?: ReadonlyMap<string, Lineage>;
  readonly worktree?: WorktreeChanges;
}

/** Lookups built once from the input. */
export interface MatchIndex {
  readonly input: MatchInput;
  readonly byId: ReadonlyMap<string, MatchAllowance>;
  readonly byName: ReadonlyMap<string, readonly number[]>;
  readonly byPrint: ReadonlyMap<string, readonly number[]>;
  readonly byFile: ReadonlyMap<string, readonly number[]>;
  readonly patterned: readonly number[];
}

export interface MatchState {
  readonly results: ReadonlyMap<string, AllowanceMatch>;
  readonly claimed: ReadonlySet<number>;
}

export type Wants = ReadonlyMap<string, readonly number[]>;

export const EMPTY_STATE: MatchState = { results: new Map(), claimed: new Set() };

export function group<T>(items: readonly T[], keyOf: (item: T, index: number) => string | null): Map<string, number[]> {
  const map = new Map<string, number[]>();
  items.forEach((item, index) => {
    const key = keyOf(item, index);
    if (key === null) return;
    const list = map.get(key);
    if (list) list.push(index);
    else map.set(key, [index]);
  });
  return map;
}

/** The allowances with no result yet, in input order. */
export function openAllowances(index: MatchIndex, state: MatchState): MatchAllowance[] {
  return index.input.allowances.filter((a) => !state.results.has(a.id));
}

/** The state with `results` added and every test they hold claimed. */
export function withResults(state: MatchState, results: ReadonlyMap<string, AllowanceMatch>): MatchState {
  const merged = new Map([...state.results, ...results]);
  const claimed = new Set(state.claimed);
  for (const r of results.values()) if (r.kind !== 'ambiguous' && r.kind !== 'orphan') claimed.add(r.test);
  return { results: merged, claimed };
}

/**
 * Gives each test wanted by exactly one allowance to it; an allowance with several candidates, or
 * whose test another allowance also wants, is ambiguous.
 */
export function settleWants(
  index: MatchIndex,
  state: MatchState,
  wants: Wants,
  kindOf: (a: MatchAllowance, test: number) => MatchKind,
  why: string,
  via?: 'lineage',
): MatchState {
  const wantedBy = new Map<number, string[]>();
  for (const [id, candidates] of wants) {
    if (candidates.length === 1)
      wantedBy.set(candidates[0] as number, [...(wantedBy.get(candidates[0] as number) ?? []), id]);
  }
  const results = new Map<string, AllowanceMatch>();
  for (const [id, candidates] of wants) {
    const a = index.byId.get(id) as MatchAllowance;
    if (candidates.length > 1) {
      results.set(id, { kind: 'ambiguous', id, candidates, why: `${candidates.length} tests ${why}` });
      continue;
    }
    const t = candidates[0] as number;
    const rivals = wantedBy.get(t) ?? [];
    if (rivals.length > 1)
      results.set(id, {
        kind: 'ambiguous',
        id,
        candidates,
        why: `allowances ${rivals.join(', ')} all point to this test`,
      });
    else results.set(id, via ? { kind: kindOf(a, t), id, test: t, via } : { kind: kindOf(a, t), id, test: t });
  }
  return withResults(state, results);
}
