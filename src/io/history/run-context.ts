/** The branch and CI job of a run: CI variables first, else the branch checked out at the root. */
import { runContextFromEnv, type RunContext } from '../../core/history/history-rows.js';
import { runGit } from '../git/run-git.js';

export async function readRunContext(root: string, env: Readonly<Record<string, string | undefined>>, override: Partial<RunContext> = {}): Promise<RunContext> {
  const fromEnv = runContextFromEnv(env);
  let branch = override.branch ?? fromEnv.branch;
  if (branch === null) {
    const head = await runGit(root, ['rev-parse', '--abbrev-ref', 'HEAD']);
    branch = head.ok && head.out !== '' && head.out !== 'HEAD' ? head.out : null;
  }
  return { branch, job: override.job ?? fromEnv.job };
}
