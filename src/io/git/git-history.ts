/**
 * History for lineage: the commits from one commit to HEAD with the files each changed (renames
 * detected), and file contents at many (commit, path) pairs read by one `git cat-file --batch`.
 * Paths are relative to `root` (the project), with `/`.
 */
import { runGit, runGitBuffer } from './run-git.js';

export interface FileChange {
  /** A (added), M, D, T, R (renamed: from -> path), C (copied: from -> path). */
  readonly status: string;
  readonly path: string;
  readonly from: string | null;
}

export interface HistoryCommit {
  readonly sha: string;
  readonly changes: readonly FileChange[];
}

function parseNameStatus(tokens: readonly string[]): FileChange[] {
  const changes: FileChange[] = [];
  for (let i = 0; i < tokens.length; ) {
    const status = tokens[i] ?? '';
    if (status === '') {
      i++;
    } else if (status.startsWith('R') || status.startsWith('C')) {
      changes.push({ status: status[0] as string, from: tokens[i + 1] ?? '', path: tokens[i + 2] ?? '' });
      i += 3;
    } else {
      changes.push({ status: status[0] as string, from: null, path: tokens[i + 1] ?? '' });
      i += 2;
    }
  }
  return changes;
}

/** `git log --format=%x01%H --name-status -z` output, oldest first as asked. */
function parseLog(out: string): HistoryCommit[] {
  const commits: HistoryCommit[] = [];
  for (const chunk of out.split('\x01')) {
    if (chunk === '') continue;
    const nul = chunk.indexOf('\0');
    const sha = (nul === -1 ? chunk : chunk.slice(0, nul)).trim();
    const rest = nul === -1 ? '' : chunk.slice(nul + 1).replace(/^\n/, '');
    commits.push({ sha, changes: parseNameStatus(rest.split('\0')) });
  }
  return commits;
}

/**
 * The commits after `from` up to HEAD that descend from it, oldest first; a merge counts as one
 * change against its first parent. Only changes under the project folder, relative to it.
 */
export async function commitsSince(root: string, from: string): Promise<HistoryCommit[] | null> {
  const log = await runGit(root, [
    'log',
    '--reverse',
    '--topo-order',
    '--ancestry-path',
    '--diff-merges=first-parent',
    '--find-renames',
    '--name-status',
    '-z',
    '--relative',
    '--format=%x01%H',
    `${from}..HEAD`,
    '--',
    '.',
  ]);
  return log.ok ? parseLog(log.out) : null;
}

/** Changes from HEAD to the working tree (staged and not, renames detected) plus untracked files. */
export async function worktreeChanges(root: string): Promise<FileChange[]> {
  const [diff, untracked] = await Promise.all([
    runGit(root, ['diff', '--find-renames', '--name-status', '-z', '--relative', 'HEAD', '--', '.']),
    runGit(root, ['ls-files', '--others', '--exclude-standard', '-z', '--', '.']),
  ]);
  const added = untracked.ok
    ? untracked.out
        .split('\0')
        .filter((p) => p !== '')
        .map((p): FileChange => ({ status: 'A', path: p, from: null }))
    : [];
  return [...(diff.ok ? parseNameStatus(diff.out.split('\0')) : []), ...added];
}

export const blobKey = (commit: string, file: string): string => `${commit}:${file}`;

/** The content of each (commit, file) pair, null where the file did not exist: one git process. */
export async function readBlobs(
  root: string,
  pairs: readonly { commit: string; file: string }[],
): Promise<Map<string, string | null>> {
  const result = new Map<string, string | null>();
  if (pairs.length === 0) return result;
  const prefix = (await runGit(root, ['rev-parse', '--show-prefix'])).out;
  const r = await runGitBuffer(
    root,
    ['cat-file', '--batch'],
    pairs.map((p) => `${p.commit}:${prefix}${p.file}\n`).join(''),
  );
  let at = 0;
  for (const p of pairs) {
    const nl = r.out.indexOf(10, at);
    if (nl === -1) break;
    const header = /^[0-9a-f]+ (\w+) (\d+)$/.exec(r.out.subarray(at, nl).toString());
    at = nl + 1;
    if (!header) {
      result.set(blobKey(p.commit, p.file), null);
      continue;
    }
    const size = Number(header[2]);
    result.set(blobKey(p.commit, p.file), header[1] === 'blob' ? r.out.subarray(at, at + size).toString('utf8') : null);
    at += size + 1;
  }
  return result;
}
