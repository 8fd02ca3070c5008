/** The commit a run started from and whether the working tree was dirty; null outside a git repo. */
import { execa } from 'execa';

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
  const options = { cwd, reject: false, stdin: 'ignore', timeout: 10_000 } as const;
  const inside = await execa('git', ['rev-parse', '--is-inside-work-tree'], options).catch(() => null);
  if (inside === null || inside.exitCode !== 0 || String(inside.stdout).trim() !== 'true') return null;
  const [head, status] = await Promise.all([
    execa('git', ['rev-parse', '--verify', '-q', 'HEAD'], options),
    execa('git', ['status', '--porcelain', '--', ':/', ...exclude.map((p) => `:(exclude)${p}`)], options),
  ]);
  const commit = head.exitCode === 0 ? String(head.stdout).trim() || null : null;
  return { commit, dirty: status.exitCode !== 0 || String(status.stdout).trim() !== '' };
}
