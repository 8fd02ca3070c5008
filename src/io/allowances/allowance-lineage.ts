/**
 * Follows each allowance's test from the commit the allowance records to HEAD through the commits
 * that touch its file, renames followed (allowance-lineage-walk.ts; which test is the same one is
 * decided in core/allowances/allowance-lineage.ts). The step from HEAD to the working tree is the
 * caller's (it has the working tree's tests).
 *
 * Cost: one `git log` per distinct starting commit and one `git cat-file --batch` per round (one
 * round, plus one for each test that moved to another file). Results are cached by commit
 * (allowance-lineage-cache.ts): a repeat run at the same HEAD asks git for HEAD only, and a run
 * after new commits walks only the new ones.
 */
import type { Lineage, LineageState } from '../../core/allowances/allowance-lineage.js';
import { commitsSince, type FileChange, type HistoryCommit, worktreeChanges } from '../git/git-history.js';
import { runGit } from '../git/run-git.js';
import { type CacheEntry, cacheKey, readLineageCache, writeLineageCache } from './allowance-lineage-cache.js';
import { type Walker, walkAll } from './allowance-lineage-walk.js';

export interface LineageRequest {
  readonly id: string;
  /** The commit the allowance records, or null. */
  readonly commit: string | null;
  readonly state: LineageState;
}

export interface LineageTrace {
  readonly head: string | null;
  readonly byId: ReadonlyMap<string, Lineage>;
  /** HEAD to the working tree (empty outside git). */
  readonly worktree: readonly FileChange[];
}

/** A request to walk, from its allowance's commit or from where the cache left it. */
interface WalkStart {
  readonly request: LineageRequest;
  readonly resume: CacheEntry | null;
}

async function isAncestor(root: string, commit: string): Promise<true | string> {
  if ((await runGit(root, ['merge-base', '--is-ancestor', commit, 'HEAD'])).ok) return true;
  const exists = (await runGit(root, ['cat-file', '-e', `${commit}^{commit}`])).ok;
  return exists
    ? `commit ${commit.slice(0, 10)} is not in HEAD's history (rebased or squashed)`
    : `commit ${commit.slice(0, 10)} is not in this clone (a shallow clone, or history rewritten)`;
}

/** `fn` once per distinct argument. */
function once<T>(fn: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const seen = new Map<string, Promise<T>>();
  return (key) => {
    if (!seen.has(key)) seen.set(key, fn(key));
    return seen.get(key) as Promise<T>;
  };
}

/** The requests answered by the cache at this HEAD, or without git (no commit); the rest to walk. */
function sortRequests(
  requests: readonly LineageRequest[],
  cache: ReadonlyMap<string, CacheEntry>,
  head: string,
  byId: Map<string, Lineage>,
): WalkStart[] {
  const starts: WalkStart[] = [];
  for (const r of requests) {
    const cached = cache.get(cacheKey(r));
    if (cached?.at === head) byId.set(r.id, cached.lineage);
    else if (r.commit === null)
      byId.set(r.id, { kind: 'unavailable', why: 'it records no commit (flakeguard allowances migrate records one)' });
    else starts.push({ request: r, resume: cached?.lineage.kind === 'traced' ? cached : null });
  }
  return starts;
}

/** A walker for each start whose commit is in HEAD's history (the others unavailable, with why). */
async function startWalkers(root: string, starts: readonly WalkStart[], byId: Map<string, Lineage>): Promise<Walker[]> {
  const walkers: Walker[] = [];
  const checkAncestor = once((commit) => isAncestor(root, commit));
  const historyFrom = once((commit) => commitsSince(root, commit));
  await Promise.all(
    starts.map(async ({ request, resume }) => {
      // Resume from the cached state when its commit is still in HEAD's history, else start over.
      const useResume = resume !== null && (await checkAncestor(resume.at)) === true;
      const from = useResume ? resume.at : (request.commit as string);
      const ancestor = useResume ? true : await checkAncestor(from);
      const commits: HistoryCommit[] | null = ancestor === true ? await historyFrom(from) : null;
      if (commits === null) {
        byId.set(request.id, {
          kind: 'unavailable',
          why: ancestor === true ? `git log from ${from.slice(0, 10)} failed` : ancestor,
        });
        return;
      }
      const traced = useResume && resume.lineage.kind === 'traced' ? resume.lineage : null;
      walkers.push({
        id: request.id,
        commits,
        pos: 0,
        state: traced?.state ?? request.state,
        steps: traced?.steps ?? 0,
        result: null,
      });
    }),
  );
  return walkers;
}

export async function traceLineage(
  root: string,
  cacheFile: string | null,
  requests: readonly LineageRequest[],
): Promise<LineageTrace> {
  const byId = new Map<string, Lineage>();
  const headResult = await runGit(root, ['rev-parse', '--verify', '-q', 'HEAD']);
  const head = headResult.ok && headResult.out.trim() !== '' ? headResult.out.trim() : null;
  if (head === null) {
    for (const r of requests) byId.set(r.id, { kind: 'unavailable', why: 'not in a git repository with a commit' });
    return { head, byId, worktree: [] };
  }
  const starts = sortRequests(requests, readLineageCache(cacheFile), head, byId);
  const walkers = await startWalkers(root, starts, byId);
  await walkAll(root, walkers);
  for (const w of walkers) byId.set(w.id, w.result as Lineage);
  const next: Record<string, CacheEntry> = {};
  for (const r of requests) {
    const lineage = byId.get(r.id);
    if (lineage && lineage.kind !== 'unavailable') next[cacheKey(r)] = { at: head, lineage };
  }
  writeLineageCache(cacheFile, next);
  return { head, byId, worktree: await worktreeChanges(root) };
}
