/**
 * The commit a run started from and whether the working tree was dirty; null outside a git repo.
 */
import { runGit } from './run-git.js';

export interface GitState {
  /** HEAD's sha, or null in a repo with no commit yet. */
  readonly commit: string | null;
  readonly dirty: boolean;
}

/**
 * `exclude` are paths relative to `cwd` left out of the dirty check (the run-record folder, so
 * that a run's own records never make the next run dirty).
 */
export async function readGitState(cwd: string, exclude: readonly string[] = []): Promise<GitState | null> {
  const inside = await runGit(cwd, ['rev-parse', '--is-inside-work-tree']);
  if (!inside.ok || inside.out.trim() !== 'true') return null;
  const [head, status] = await Promise.all([
    runGit(cwd, ['rev-parse', '--verify', '-q', 'HEAD']),
    runGit(cwd, ['status', '--porcelain', '--', ':/', ...exclude.map((p) => `:(exclude)${p}`)]),
  ]);
  const commit = head.ok ? head.out.trim() || null : null;
  return { commit, dirty: !status.ok || status.out.trim() !== '' };
}
