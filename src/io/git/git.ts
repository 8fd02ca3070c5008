/**
 * Git for the gate: the base revision (merge base of the default branch, or --base, with HEAD), the
 * files that differ between it and the working tree, and a file's content at the base.
 */
import path from 'node:path';
import { FlakeguardError } from '../../core/errors.js';
import { chooseDefaultBranch, DEFAULT_CANDIDATES, type DefaultBranch } from '../../core/gate/default-branch.js';
import { runGit as git, runGitBuffer } from './run-git.js';

export interface BaseRevision {
  /** The ref as given or found (`origin/main`). */
  readonly ref: string;
  /** The merge base of ref and HEAD. */
  readonly sha: string;
}

/** The facts core/gate/default-branch.ts decides the default base from, and its decision. */
async function readDefaultBranch(root: string): Promise<DefaultBranch> {
  const own = (await git(root, ['symbolic-ref', '--quiet', '--short', 'HEAD'])).out;
  const exists = async (ref: string): Promise<boolean> =>
    (await git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).ok;
  const head = await git(root, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']);
  const originHead = head.ok && head.out.startsWith('refs/remotes/') ? head.out.slice('refs/remotes/'.length) : null;
  const ownRef = (ref: string): boolean => own !== '' && (ref === own || ref === `origin/${own}`);
  let remoteHead: string | null = null;
  if (originHead !== null && ownRef(originHead)) {
    // origin/HEAD names this branch: the remote is asked (no prompt) what its HEAD is.
    const remote = await git(root, ['ls-remote', '--symref', 'origin', 'HEAD'], { noPrompt: true });
    const branch = /^ref: refs\/heads\/(\S+)\s+HEAD$/m.exec(remote.out)?.[1];
    if (branch !== undefined && (await exists(`origin/${branch}`))) remoteHead = `origin/${branch}`;
  }
  const refs = [...new Set([...(originHead === null ? [] : [originHead]), ...DEFAULT_CANDIDATES])];
  const found = await Promise.all(refs.map(async (r) => ((await exists(r)) ? [r] : [])));
  return chooseDefaultBranch({ own, originHead, remoteHead, exists: new Set(found.flat()) });
}

/** The remote's default branch, never the branch checked out (core/gate/default-branch.ts); null when none. */
export async function findDefaultBranch(root: string): Promise<string | null> {
  const found = await readDefaultBranch(root);
  return found.kind === 'found' ? found.ref : null;
}

function fetchAdvice(ref: string): string {
  const slash = ref.indexOf('/');
  const remote = slash > 0 ? ref.slice(0, slash) : 'origin';
  const branch = slash > 0 ? ref.slice(slash + 1) : ref;
  return `git fetch --no-tags --depth=50 ${remote} ${branch} (or git fetch --unshallow ${remote} for the whole history)`;
}

export async function resolveBaseRevision(root: string, ref: string | undefined): Promise<BaseRevision> {
  const inside = await git(root, ['rev-parse', '--is-inside-work-tree']);
  if (!inside.ok)
    throw new FlakeguardError(
      'GIT',
      `${root} is not inside a git repository; the gate compares the working tree with a base commit`,
    );
  const found = ref === undefined ? await readDefaultBranch(root) : ({ kind: 'found', ref } as const);
  if (found.kind === 'own-branch')
    throw new FlakeguardError(
      'GIT',
      `origin/HEAD is ${found.originHead}, the branch checked out, and the clone has no other default branch (origin/main, origin/master, main or master): the gate would compare the branch with itself; name the branch it merges into: flakeguard gate --base origin/<branch>`,
    );
  if (found.kind === 'none') {
    throw new FlakeguardError(
      'GIT',
      'found no default branch other than the one checked out (no origin/HEAD, origin/main, origin/master, main or master); name one: flakeguard gate --base <ref>',
    );
  }
  const base = found.ref;
  const exists = await git(root, ['rev-parse', '--verify', '--quiet', `${base}^{commit}`]);
  if (!exists.ok) {
    const shallow = (await git(root, ['rev-parse', '--is-shallow-repository'])).out === 'true';
    throw new FlakeguardError(
      'GIT',
      `base "${base}" is not in this clone${shallow ? ' (a shallow clone)' : ''}; fetch it: ${fetchAdvice(base)}, or name another with --base <ref>`,
    );
  }
  const mergeBase = await git(root, ['merge-base', base, 'HEAD']);
  if (!mergeBase.ok || mergeBase.out === '') {
    throw new FlakeguardError(
      'GIT',
      `no common ancestor of "${base}" and HEAD in this clone (history too shallow?); deepen it: git fetch --deepen=200 or git fetch --unshallow, then run the gate again`,
    );
  }
  return { ref: base, sha: mergeBase.out.trim() };
}

/** Paths relative to root (with `/`) that differ between `sha` and the working tree, untracked included. */
export async function listChangedFiles(root: string, sha: string): Promise<string[]> {
  const [diff, untracked] = await Promise.all([
    git(root, ['diff', '--name-only', '--no-renames', '--relative', '-z', sha, '--', '.']),
    git(root, ['ls-files', '--others', '--exclude-standard', '-z', '--', '.']),
  ]);
  if (!diff.ok) throw new FlakeguardError('GIT', `git diff ${sha} failed: ${diff.err.trim()}`);
  const names = `${diff.out}\0${untracked.ok ? untracked.out : ''}`.split('\0').filter((n) => n !== '');
  return [...new Set(names)].sort();
}

/**
 * Files changed since `sha` anywhere in the repository but outside `root`, as paths relative to
 * root with `/` (`../web/a.test.ts`): what a gate started in a subfolder would otherwise not see.
 */
export async function listChangedFilesOutside(root: string, sha: string): Promise<string[]> {
  const top = await git(root, ['rev-parse', '--show-toplevel']);
  if (!top.ok) return [];
  const [diff, untracked] = await Promise.all([
    git(top.out, ['diff', '--name-only', '--no-renames', '-z', sha]),
    git(top.out, ['ls-files', '--others', '--exclude-standard', '-z']),
  ]);
  const names = `${diff.ok ? diff.out : ''}\0${untracked.ok ? untracked.out : ''}`.split('\0').filter((n) => n !== '');
  const outside = names
    .map((n) => path.relative(root, path.join(top.out, n)).split(path.sep).join('/'))
    .filter((n) => n.startsWith('../'));
  return [...new Set(outside)].sort();
}

/**
 * The content at `sha` of each file (relative to root), null where it did not exist: one
 * `git cat-file --batch` process for all of them.
 */
export async function readFilesAtRevision(
  root: string,
  sha: string,
  relPaths: readonly string[],
): Promise<Map<string, string | null>> {
  const result = new Map<string, string | null>();
  if (relPaths.length === 0) return result;
  const prefix = (await git(root, ['rev-parse', '--show-prefix'])).out;
  const input = relPaths.map((p) => `${sha}:${prefix}${p}\n`).join('');
  const r = await runGitBuffer(root, ['cat-file', '--batch'], input);
  if (!r.ok) throw new FlakeguardError('GIT', `git cat-file failed: ${r.err.trim()}`);
  const out = r.out;
  let at = 0;
  for (const rel of relPaths) {
    const nl = out.indexOf(10, at);
    const header = out.subarray(at, nl).toString();
    at = nl + 1;
    const match = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (!match) {
      result.set(rel, null);
      continue;
    }
    const size = Number(match[2]);
    result.set(rel, match[1] === 'blob' ? out.subarray(at, at + size).toString('utf8') : null);
    at += size + 1;
  }
  return result;
}

/** The file's content at `sha`, or null when it did not exist there. `relPath` is relative to root. */
export async function readFileAtRevision(root: string, sha: string, relPath: string): Promise<string | null> {
  const r = await git(root, ['show', `${sha}:./${relPath}`], { keepFinalNewline: true });
  return r.ok ? r.out : null;
}
