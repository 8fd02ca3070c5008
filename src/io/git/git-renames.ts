/**
 * Files git says were renamed since the allowance files were last committed: for each distinct
 * commit that last touched one of `storeFiles`, `git diff --find-renames --name-status <commit>`
 * against the working tree (staged `git mv` included). Asked only when an allowance found no test
 * by name or body, so a clean run never pays for it. Empty outside a git repo.
 */
import { runGit } from './run-git.js';

export function parseRenames(nameStatusZ: string): Map<string, string> {
  const renames = new Map<string, string>();
  const parts = nameStatusZ.split('\0');
  for (let i = 0; i < parts.length; ) {
    const status = parts[i] ?? '';
    if (status.startsWith('R') || status.startsWith('C')) {
      const from = parts[i + 1];
      const to = parts[i + 2];
      if (status.startsWith('R') && from && to) renames.set(from, to);
      i += 3;
    } else {
      i += status === '' ? 1 : 2;
    }
  }
  return renames;
}

/** Paths are relative to `root`, which must be the folder git paths are relative to (the repo top). */
export async function gitRenamesSince(root: string, storeFiles: readonly string[]): Promise<Map<string, string>> {
  const top = await runGit(root, ['rev-parse', '--show-toplevel']);
  if (!top.ok) return new Map();
  const inRepo = (await runGit(root, ['rev-parse', '--show-prefix'])).out.trim();
  const commits = new Set<string>();
  for (const file of storeFiles) {
    const log = await runGit(root, ['log', '-1', '--format=%H', '--', file]);
    const sha = log.out.trim();
    if (log.ok && sha) commits.add(sha);
  }
  const renames = new Map<string, string>();
  for (const commit of commits) {
    const diff = await runGit(root, ['diff', '--find-renames', '--name-status', '-z', commit, '--', '.']);
    if (!diff.ok) continue;
    for (const [from, to] of parseRenames(diff.out)) {
      if (!from.startsWith(inRepo) || !to.startsWith(inRepo)) continue;
      renames.set(from.slice(inRepo.length), to.slice(inRepo.length));
    }
  }
  return renames;
}
