/**
 * The lineage stage of matching: an allowance whose lineage reached HEAD takes the test it leads
 * to in the working tree (one more step: the working tree's changes since HEAD). A lineage that
 * ended (the test was deleted, or renamed and edited at once) is an orphan with that reason; an
 * ambiguous one applies to none. Allowances without lineage are left to the name and body stages.
 */
import { carryStep, describeLoss, type LineageState } from './allowance-lineage.js';
import {
  type AllowanceMatch,
  type MatchAllowance,
  type MatchIndex,
  type MatchKind,
  type MatchState,
  type MatchTest,
  openAllowances,
  settleWants,
  withResults,
} from './allowance-match-state.js';

type Target = { readonly kind: 'test'; readonly test: number } | { readonly kind: 'none'; readonly why: string };

function testsIn(index: MatchIndex, file: string): { tests: MatchTest[]; at: readonly number[] } {
  const at = index.byFile.get(file) ?? [];
  return { tests: at.map((i) => index.input.tests[i] as MatchTest), at };
}

/** The working tree's test that the HEAD state leads to. */
function targetInWorktree(index: MatchIndex, state: LineageState): Target {
  const wt = index.input.worktree;
  const renamed = wt?.renames.get(state.file);
  const file = renamed ?? (wt?.deleted.has(state.file) ? null : state.file);
  const here = file === null ? { tests: [], at: [] } : testsIn(index, file);
  const others = (): Map<string, readonly MatchTest[]> =>
    new Map([...(wt?.changed ?? [])].filter((f) => f !== file).map((f) => [f, testsIn(index, f).tests]));
  const carry = carryStep(state, file, here.tests, others);
  if (carry.kind === 'ambiguous') return { kind: 'none', why: `${carry.why} in the working tree` };
  if (carry.kind === 'gone') return { kind: 'none', why: describeLoss(state, 'in the working tree') };
  const at = carry.state.file === file ? here.at : testsIn(index, carry.state.file).at;
  const test = at[carry.index];
  return test === undefined
    ? { kind: 'none', why: `test ${JSON.stringify(state.fullName)} is not in ${carry.state.file}` }
    : { kind: 'test', test };
}

/** How the test the lineage leads to differs from what the allowance stored. */
function netChange(index: MatchIndex, a: MatchAllowance, test: number): MatchKind {
  const t = index.input.tests[test] as MatchTest;
  const sameName = t.fullName === a.fullName || (t.namePattern?.test(a.fullName) ?? false);
  if (t.file === a.file) return sameName ? 'exact' : 'renamed';
  return sameName ? 'moved' : 'moved-renamed';
}

export function lineageStage(index: MatchIndex, state: MatchState): MatchState {
  const lineage = index.input.lineage;
  if (lineage === undefined) return state;
  const results = new Map<string, AllowanceMatch>();
  const wants = new Map<string, readonly number[]>();
  for (const a of openAllowances(index, state)) {
    const l = lineage.get(a.id);
    if (l === undefined || l.kind === 'unavailable') continue;
    if (l.kind === 'ended') results.set(a.id, { kind: 'orphan', id: a.id, why: l.why });
    else if (l.kind === 'ambiguous') results.set(a.id, { kind: 'ambiguous', id: a.id, candidates: [], why: l.why });
    else {
      const target = targetInWorktree(index, l.state);
      if (target.kind === 'none') results.set(a.id, { kind: 'orphan', id: a.id, why: target.why });
      else if (state.claimed.has(target.test))
        results.set(a.id, {
          kind: 'orphan',
          id: a.id,
          why: `its test ${JSON.stringify(index.input.tests[target.test]?.fullName)} holds another allowance by name`,
        });
      else wants.set(a.id, [target.test]);
    }
  }
  return settleWants(
    index,
    withResults(state, results),
    wants,
    (a, t) => netChange(index, a, t),
    'are where its lineage leads',
    'lineage',
  );
}
