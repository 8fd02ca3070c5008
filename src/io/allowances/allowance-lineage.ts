/**
 * Follows each allowance's test from the commit the allowance records to HEAD through the commits
 * that touch its file (renames followed), reading the file at each of them (core/allowances/
 * allowance-lineage.ts decides which test is the same one). The step from HEAD to the working tree
 * is the caller's (it has the working tree's tests).
 *
 * Cost: one `git log` per distinct starting commit and one `git cat-file --batch` per round (one
 * round, plus one for each test that moved to another file). Results are cached by commit in
 * `<cache>/allowance-lineage.json` (the cache folder beside the records, io/places): a repeat run at the same HEAD asks git for HEAD only, and a
 * run after new commits walks only the new ones.
 */
import { existsSync, readFileSync } from 'node:fs';
import {
  carryAcrossFiles,
  carryInFile,
  describeLoss,
  type Lineage,
  type LineageState,
  type VersionTest,
} from '../../core/allowances/allowance-lineage.js';
import { sourceUniverseTest } from '../../core/allowances/allowance-universe.js';
import { extractTests } from '../../core/source/test-source.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import {
  blobKey,
  commitsSince,
  type FileChange,
  type HistoryCommit,
  readBlobs,
  worktreeChanges,
} from '../git/git-history.js';
import { runGit } from '../git/run-git.js';

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

interface CacheEntry {
  readonly at: string;
  readonly lineage: Lineage;
}

const CACHE_VERSION = 1;
const SOURCE_RE = /\.[cm]?[jt]sx?$/;
const keyOf = (r: LineageRequest): string =>
  JSON.stringify([r.commit, r.state.file, r.state.name, r.state.fingerprint]);

function readCache(file: string | null): Map<string, CacheEntry> {
  if (file === null || !existsSync(file)) return new Map();
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { version?: number; entries?: Record<string, CacheEntry> };
    return data.version === CACHE_VERSION && data.entries ? new Map(Object.entries(data.entries)) : new Map();
  } catch {
    return new Map();
  }
}

interface Walker {
  readonly request: LineageRequest;
  readonly commits: readonly HistoryCommit[];
  pos: number;
  state: LineageState;
  steps: number;
  result: Lineage | null;
}

/** The change of `commit` to the file `file`, if any (a copy leaves the original where it was). */
function touching(commit: HistoryCommit, file: string): FileChange | undefined {
  return commit.changes.find((c) => (c.status === 'R' ? c.from === file : c.status !== 'C' && c.path === file));
}

/** The (commit, path) pairs the walker will read if its test stays in its file. */
function chainPairs(w: Walker): { commit: string; file: string }[] {
  const pairs: { commit: string; file: string }[] = [];
  let file = w.state.file;
  for (let i = w.pos; i < w.commits.length; i++) {
    const c = w.commits[i] as HistoryCommit;
    const change = touching(c, file);
    if (!change) continue;
    if (change.status === 'D') break;
    file = change.path;
    pairs.push({ commit: c.sha, file });
  }
  return pairs;
}

function othersAt(c: HistoryCommit, except: string | null): { commit: string; file: string }[] {
  return c.changes
    .filter((x) => x.status !== 'D' && x.path !== except && SOURCE_RE.test(x.path))
    .map((x) => ({ commit: c.sha, file: x.path }));
}

type Parse = (file: string, text: string) => VersionTest[] | null;

/** Walks until done (result set) or until it needs contents it does not have (returned). */
function advance(
  w: Walker,
  blobs: ReadonlyMap<string, string | null>,
  parse: Parse,
): { commit: string; file: string }[] {
  const versionAt = (commit: string, file: string): VersionTest[] | null | undefined => {
    const text = blobs.get(blobKey(commit, file));
    return text === undefined ? undefined : text === null ? [] : parse(file, text);
  };
  for (; w.pos < w.commits.length; w.pos++) {
    const c = w.commits[w.pos] as HistoryCommit;
    const change = touching(c, w.state.file);
    if (!change) continue;
    const file = change.status === 'D' ? null : change.path;
    const tests = file === null ? [] : versionAt(c.sha, file);
    if (tests === undefined) return [{ commit: c.sha, file: file as string }];
    // A version that does not parse says nothing: keep the state, follow the path.
    if (tests === null) {
      w.state = { ...w.state, file: file ?? w.state.file };
      continue;
    }
    let carry = file === null ? ({ kind: 'gone' } as const) : carryInFile(w.state, file, tests);
    if (carry.kind === 'gone') {
      const others = othersAt(c, file);
      const missing = others.filter((o) => !blobs.has(blobKey(o.commit, o.file)));
      if (missing.length > 0) return missing;
      const versions = new Map<string, readonly VersionTest[]>();
      for (const o of others) versions.set(o.file, versionAt(o.commit, o.file) ?? []);
      carry = carryAcrossFiles(w.state, versions);
      if (carry.kind === 'kept') {
        w.state = carry.state;
        w.steps++;
        w.pos++;
        return chainPairs(w).filter((p) => !blobs.has(blobKey(p.commit, p.file)));
      }
    }
    if (carry.kind === 'gone') {
      w.result = { kind: 'ended', why: describeLoss(w.state, `in commit ${c.sha.slice(0, 10)}`) };
      return [];
    }
    if (carry.kind === 'ambiguous') {
      w.result = { kind: 'ambiguous', why: `${carry.why}, in commit ${c.sha.slice(0, 10)}` };
      return [];
    }
    if (
      carry.state.name !== w.state.name ||
      carry.state.file !== w.state.file ||
      carry.state.fingerprint !== w.state.fingerprint
    )
      w.steps++;
    w.state = carry.state;
  }
  w.result = { kind: 'traced', state: w.state, steps: w.steps };
  return [];
}

async function isAncestor(root: string, commit: string): Promise<true | string> {
  if ((await runGit(root, ['merge-base', '--is-ancestor', commit, 'HEAD'])).ok) return true;
  const exists = (await runGit(root, ['cat-file', '-e', `${commit}^{commit}`])).ok;
  return exists
    ? `commit ${commit.slice(0, 10)} is not in HEAD's history (rebased or squashed)`
    : `commit ${commit.slice(0, 10)} is not in this clone (a shallow clone, or history rewritten)`;
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
  const cache = readCache(cacheFile);
  const starts: { request: LineageRequest; resume: CacheEntry | null }[] = [];
  for (const r of requests) {
    const cached = cache.get(keyOf(r));
    if (cached?.at === head) byId.set(r.id, cached.lineage);
    else if (r.commit === null)
      byId.set(r.id, { kind: 'unavailable', why: 'it records no commit (flakeguard allowances migrate records one)' });
    else starts.push({ request: r, resume: cached?.lineage.kind === 'traced' ? cached : null });
  }
  const walkers: Walker[] = [];
  const ancestry = new Map<string, Promise<true | string>>();
  const checkAncestor = (commit: string): Promise<true | string> => {
    if (!ancestry.has(commit)) ancestry.set(commit, isAncestor(root, commit));
    return ancestry.get(commit) as Promise<true | string>;
  };
  const histories = new Map<string, Promise<HistoryCommit[] | null>>();
  const historyFrom = (commit: string): Promise<HistoryCommit[] | null> => {
    if (!histories.has(commit)) histories.set(commit, commitsSince(root, commit));
    return histories.get(commit) as Promise<HistoryCommit[] | null>;
  };
  await Promise.all(
    starts.map(async ({ request, resume }) => {
      // Resume from the cached state when its commit is still in HEAD's history, else start over.
      const useResume = resume !== null && (await checkAncestor(resume.at)) === true;
      const from = useResume ? resume.at : (request.commit as string);
      const ancestor = useResume ? true : await checkAncestor(from);
      const commits = ancestor === true ? await historyFrom(from) : null;
      if (commits === null) {
        byId.set(request.id, {
          kind: 'unavailable',
          why: ancestor === true ? `git log from ${from.slice(0, 10)} failed` : ancestor,
        });
        return;
      }
      const traced = useResume && resume.lineage.kind === 'traced' ? resume.lineage : null;
      walkers.push({
        request,
        commits,
        pos: 0,
        state: traced?.state ?? request.state,
        steps: traced?.steps ?? 0,
        result: null,
      });
    }),
  );
  const parsed = new Map<string, VersionTest[] | null>();
  const parse: Parse = (file, text) => {
    const key = `${file}\0${text}`;
    if (!parsed.has(key)) {
      try {
        parsed.set(key, extractTests(text, file).map(sourceUniverseTest));
      } catch {
        parsed.set(key, null);
      }
    }
    return parsed.get(key) ?? null;
  };
  const blobs = new Map<string, string | null>();
  let needs = walkers.flatMap(chainPairs);
  for (let open = walkers; open.length > 0; ) {
    const fresh = [
      ...new Map(
        needs.filter((p) => !blobs.has(blobKey(p.commit, p.file))).map((p) => [blobKey(p.commit, p.file), p]),
      ).values(),
    ];
    for (const [k, v] of await readBlobs(root, fresh)) blobs.set(k, v);
    for (const p of fresh) if (!blobs.has(blobKey(p.commit, p.file))) blobs.set(blobKey(p.commit, p.file), null);
    needs = open.flatMap((w) => advance(w, blobs, parse));
    open = open.filter((w) => w.result === null);
  }
  const next: Record<string, CacheEntry> = {};
  for (const w of walkers) byId.set(w.request.id, w.result as Lineage);
  for (const r of requests) {
    const lineage = byId.get(r.id);
    if (lineage && lineage.kind !== 'unavailable') next[keyOf(r)] = { at: head, lineage };
  }
  if (cacheFile !== null) {
    try {
      writeFileAtomic(cacheFile, `${JSON.stringify({ version: CACHE_VERSION, entries: next })}\n`);
    } catch {
      // A cache that cannot be written costs time, not results.
    }
  }
  return { head, byId, worktree: await worktreeChanges(root) };
}
