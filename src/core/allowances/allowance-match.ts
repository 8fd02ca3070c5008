/**
 * Which test each allowance applies to, in named stages run in this order (docs/allowances.md):
 *   1. exact          same file and full name (a `.each` template by its row names)
 *   2. lineage        the test the allowance's lineage through git history leads to
 *   3. renamed        same fingerprint in the same file (title or describe renamed)
 *   4. moved          same fingerprint in another file, same name (moved-renamed when the name changed)
 *   5. git-renamed    same full name in the file git says the stored file was renamed to
 * Stages 3 to 5 apply only to allowances without lineage. One allowance never applies to two tests
 * and one test never gets two allowances. Ambiguous means: say so and apply none. Each stage is a
 * function from the state (results so far, tests claimed) to the next state.
 */

import { refKey, type TestRef } from '../test-id.js';
import { tupleKey } from '../tuple-key.js';
import { lineageStage } from './allowance-lineage-stage.js';
import {
  type AllowanceMatch,
  EMPTY_STATE,
  group,
  type MatchAllowance,
  type MatchIndex,
  type MatchInput,
  type MatchKind,
  type MatchState,
  openAllowances,
  settleWants,
  withResults,
} from './allowance-match-state.js';

export type {
  AllowanceMatch,
  MatchAllowance,
  MatchInput,
  MatchKind,
  MatchTest,
  WorktreeChanges,
} from './allowance-match-state.js';
export { eachNamePattern } from './each-name-pattern.js';

/**
 * The key an allowance (and its quarantine) is found by: the test's file and full name without its
 * project. An allowance file names no project, so it applies in every project that holds the test.
 */
export const allowanceKey = (t: TestRef): string => refKey(t);

type Stage = (index: MatchIndex, state: MatchState) => MatchState;

function buildIndex(input: MatchInput): MatchIndex {
  const { allowances, tests } = input;
  return {
    input,
    byId: new Map(allowances.map((a) => [a.id, a])),
    byName: group(tests, allowanceKey),
    byPrint: group(tests, (t) => t.fingerprint),
    byFile: group(tests, (t) => t.file),
    patterned: tests.flatMap((t, i) => (t.namePattern === undefined ? [] : [i])),
  };
}

/** Allowances the stage may take: open ones, and for the body stages only those without lineage. */
function fallbackOpen(index: MatchIndex, state: MatchState): MatchAllowance[] {
  const lineage = index.input.lineage;
  return openAllowances(index, state).filter((a) => (lineage?.get(a.id)?.kind ?? 'unavailable') === 'unavailable');
}

/**
 * A stage that proposes candidates per allowance: a test another allowance already holds is no
 * candidate; when it was the only one, this allowance has no match here (it is not ambiguous).
 */
function candidateStage(
  candidatesOf: (index: MatchIndex, a: MatchAllowance) => readonly number[] | null,
  kindOf: (index: MatchIndex, a: MatchAllowance, test: number) => MatchKind,
  why: string,
  open: (index: MatchIndex, state: MatchState) => MatchAllowance[] = fallbackOpen,
): Stage {
  return (index, state) => {
    const wants = new Map<string, readonly number[]>();
    for (const a of open(index, state)) {
      const all = candidatesOf(index, a);
      if (all === null || all.length === 0) continue;
      const free = all.filter((t) => !state.claimed.has(t));
      if (free.length === 0) continue;
      wants.set(a.id, all.length > 1 ? all : free);
    }
    return settleWants(index, state, wants, (a, t) => kindOf(index, a, t), why);
  };
}

/**
 * A `.each` template read from source stands for all its rows: allowances for different rows
 * share it; two for the same row are ambiguous.
 */
function rowStage(
  fileOf: (index: MatchIndex, a: MatchAllowance) => string | undefined,
  kind: MatchKind,
  open: typeof fallbackOpen,
): Stage {
  return (index, state) => {
    // Not a test identity: the candidate rows of one template and the name an allowance asks for.
    const rowKey = (candidates: readonly number[], a: MatchAllowance): string => tupleKey([candidates, a.fullName]);
    const rows = new Map<string, string[]>();
    const wants = new Map<string, number[]>();
    for (const a of open(index, state)) {
      const file = fileOf(index, a);
      if (file === undefined) continue;
      const candidates = index.patterned.filter(
        (i) => index.input.tests[i]?.file === file && (index.input.tests[i]?.namePattern?.test(a.fullName) ?? false),
      );
      if (candidates.length === 0) continue;
      wants.set(a.id, candidates);
      rows.set(rowKey(candidates, a), [...(rows.get(rowKey(candidates, a)) ?? []), a.id]);
    }
    const results = new Map<string, AllowanceMatch>();
    for (const [id, candidates] of wants) {
      const rivals = rows.get(rowKey(candidates, index.byId.get(id) as MatchAllowance)) ?? [];
      if (candidates.length > 1)
        results.set(id, {
          kind: 'ambiguous',
          id,
          candidates,
          why: `${candidates.length} .each templates in the file fit this name`,
        });
      else if (rivals.length > 1)
        results.set(id, {
          kind: 'ambiguous',
          id,
          candidates,
          why: `allowances ${rivals.join(', ')} all point to this row`,
        });
      else results.set(id, { kind, id, test: candidates[0] as number });
    }
    return withResults(state, results);
  };
}

const exactIn = (index: MatchIndex, a: MatchAllowance, file: string): readonly number[] =>
  index.byName.get(allowanceKey({ file, fullName: a.fullName })) ?? [];
const sameFilePrints = (index: MatchIndex, a: MatchAllowance): readonly number[] | null =>
  a.fingerprint === null
    ? null
    : (index.byPrint.get(a.fingerprint) ?? []).filter((t) => index.input.tests[t]?.file === a.file);
const otherFilePrints = (index: MatchIndex, a: MatchAllowance): readonly number[] | null => {
  if (a.fingerprint === null) return null;
  const all = index.byPrint.get(a.fingerprint) ?? [];
  return all.some((t) => index.input.tests[t]?.file === a.file) ? null : all;
};
const renamedFile = (index: MatchIndex, a: MatchAllowance): string | undefined => index.input.renames.get(a.file);

const STAGES: readonly Stage[] = [
  candidateStage(
    (index, a) => exactIn(index, a, a.file),
    () => 'exact',
    'in the file have this name',
    openAllowances,
  ),
  rowStage((_, a) => a.file, 'exact', openAllowances),
  lineageStage,
  candidateStage(sameFilePrints, () => 'renamed', 'in the same file have this body (a copy?)'),
  candidateStage(
    otherFilePrints,
    (index, a, t) => (index.input.tests[t]?.fullName === a.fullName ? 'moved' : 'moved-renamed'),
    'in other files have this body (a copy?)',
  ),
  candidateStage(
    (index, a) => {
      const target = renamedFile(index, a);
      return target === undefined ? null : exactIn(index, a, target);
    },
    () => 'git-renamed',
    'in the renamed file have this name',
  ),
  rowStage(renamedFile, 'git-renamed', fallbackOpen),
];

/** One match per allowance, in the allowances' order. */
export function matchAllowances(input: MatchInput): AllowanceMatch[] {
  const index = buildIndex(input);
  const state = STAGES.reduce((s, stage) => stage(index, s), EMPTY_STATE);
  return input.allowances.map((a) => state.results.get(a.id) ?? { kind: 'orphan', id: a.id });
}
