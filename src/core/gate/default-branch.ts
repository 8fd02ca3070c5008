/**
 * The gate's default base: the remote's default branch, never the branch checked out. Pure: io/git
 * gathers the facts (HEAD's branch, origin/HEAD, what the remote says its HEAD is, which of the
 * usual default branches exist) and this decides.
 *
 * 1. `origin/HEAD`, unless it names HEAD's own branch (a clone made with `--branch X`, or a clone of
 *    a working copy that had X checked out, points it at X);
 * 2. then what the remote says its HEAD is, unless that is HEAD's own branch too;
 * 3. then origin/main, origin/master, main, master, whichever exists and is not HEAD's own;
 * 4. HEAD's own branch only when it is the default branch itself (named main or master, or no
 *    origin/HEAD named it: the gate on the default branch, where nothing is new);
 * 5. else none: the caller says which base to pass (exit 2). Comparing a branch with itself would
 *    say "nothing to run" for a branch that adds tests.
 */

export const DEFAULT_CANDIDATES = ['origin/main', 'origin/master', 'main', 'master'] as const;

export interface BranchFacts {
  /** HEAD's branch (`feature`), '' when HEAD is detached. */
  readonly own: string;
  /** `origin/HEAD` as a ref (`origin/main`), or null when the clone has none. */
  readonly originHead: string | null;
  /** The branch the remote says its HEAD is (`main`), as `origin/<branch>` when that ref exists; else null. */
  readonly remoteHead: string | null;
  /** Which of DEFAULT_CANDIDATES (and originHead) exist as commits. */
  readonly exists: ReadonlySet<string>;
}

export type DefaultBranch =
  | { readonly kind: 'found'; readonly ref: string }
  /** origin/HEAD (and the remote) name the branch checked out, and no other default branch exists. */
  | { readonly kind: 'own-branch'; readonly originHead: string }
  | { readonly kind: 'none' };

const isDefaultName = (branch: string): boolean => branch === 'main' || branch === 'master';

export function chooseDefaultBranch(facts: BranchFacts): DefaultBranch {
  const { own, originHead, remoteHead, exists } = facts;
  const isOwn = (ref: string): boolean => own !== '' && (ref === own || ref === `origin/${own}`);
  if (originHead !== null && !isOwn(originHead)) return { kind: 'found', ref: originHead };
  if (originHead !== null && remoteHead !== null && !isOwn(remoteHead)) return { kind: 'found', ref: remoteHead };
  const other = DEFAULT_CANDIDATES.find((c) => !isOwn(c) && exists.has(c));
  if (other !== undefined) return { kind: 'found', ref: other };
  // The branch itself, only where it is the default branch: nothing is new against it.
  const itself = [...(originHead === null ? [] : [originHead]), ...DEFAULT_CANDIDATES].find((c) => exists.has(c));
  if (itself !== undefined && (originHead === null || isDefaultName(own))) return { kind: 'found', ref: itself };
  return originHead !== null ? { kind: 'own-branch', originHead } : { kind: 'none' };
}
