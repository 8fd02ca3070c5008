/** The branch and CI job a run is stored under (core runContextOf), else the branch checked out at the root. */
import { type RunContext, runContextOf } from '../../core/history/history-rows.js';
import type { RunRecord } from '../../core/record/run-record.js';
import { runGit } from '../git/run-git.js';

export async function readRunContext(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  record: Pick<RunRecord, 'ci'>,
  override: Partial<RunContext> = {},
): Promise<RunContext> {
  const found = runContextOf(record, env);
  let branch = override.branch ?? found.branch;
  if (branch === null) {
    const head = await runGit(root, ['rev-parse', '--abbrev-ref', 'HEAD']);
    branch = head.ok && head.out !== '' && head.out !== 'HEAD' ? head.out : null;
  }
  return { branch, job: override.job ?? found.job };
}
