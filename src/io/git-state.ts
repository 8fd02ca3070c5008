/**
 * The commit a run started from and whether the working tree was dirty; null outside a git repo.
 *
 * Uses node:child_process rather than execa (the project's usual process library): the reporter
 * calls this in every Vitest run, and loading execa there cost about 16 MiB of peak memory and
 * 100 ms of CPU in Vitest's main process (bench/reporter-overhead.mjs) for two short git calls.
 */
import { execFile } from 'node:child_process';

export interface GitState {
  /** HEAD's sha, or null in a repo with no commit yet. */
  readonly commit: string | null;
  readonly dirty: boolean;
}

interface GitResult {
  readonly ok: boolean;
  readonly stdout: string;
}

function git(cwd: string, args: readonly string[]): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, timeout: 10_000, maxBuffer: 64 * 1024 * 1024, windowsHide: true }, (error, stdout) => {
      resolve({ ok: error === null, stdout: String(stdout) });
    });
  });
}

/**
 * `exclude` are paths relative to `cwd` left out of the dirty check (the run-record folder, so
 * that a run's own records never make the next run dirty).
 */
export async function readGitState(cwd: string, exclude: readonly string[] = []): Promise<GitState | null> {
  const inside = await git(cwd, ['rev-parse', '--is-inside-work-tree']);
  if (!inside.ok || inside.stdout.trim() !== 'true') return null;
  const [head, status] = await Promise.all([
    git(cwd, ['rev-parse', '--verify', '-q', 'HEAD']),
    git(cwd, ['status', '--porcelain', '--', ':/', ...exclude.map((p) => `:(exclude)${p}`)]),
  ]);
  const commit = head.ok ? head.stdout.trim() || null : null;
  return { commit, dirty: !status.ok || status.stdout.trim() !== '' };
}
