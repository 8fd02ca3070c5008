/**
 * Which project the gate answers for (issue 19, class 6): it says which root and Vitest config it
 * uses, and it never answers "nothing to run" while the branch changes test files that root does
 * not see (a gate started in a subfolder of a monorepo): it names them and where to run from.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { FlakeguardError } from '../../core/errors.js';
import { displayPath } from '../../io/files/input-file.js';
import { listChangedFilesOutside } from '../../io/git/git.js';
import { CONFIG_EXTENSIONS, describeProjectPlace } from '../../io/vitest/vitest-config-file.js';

const PROJECT_MARKERS = ['vitest.config', 'vite.config', 'vitest.workspace'];

/** The nearest folder above `file` (relative to root) that holds a Vitest or Vite config, else package.json. */
function projectFolderOf(root: string, file: string): string | null {
  let dir = path.dirname(path.resolve(root, file));
  let withPackage: string | null = null;
  for (;;) {
    if (PROJECT_MARKERS.some((m) => CONFIG_EXTENSIONS.some((e) => existsSync(path.join(dir, `${m}${e}`))))) return dir;
    if (withPackage === null && existsSync(path.join(dir, 'package.json'))) withPackage = dir;
    const parent = path.dirname(dir);
    if (parent === dir || existsSync(path.join(dir, '.git'))) return withPackage;
    dir = parent;
  }
}

/** Vitest's default include: `**\/*.{test,spec}.?(c|m)[jt]s?(x)`. */
const DEFAULT_TEST_NAME = /\.(test|spec)\.[cm]?[jt]sx?$/;

/** Test files (Vitest's default naming) the branch changes outside the root: this root cannot run them. */
export async function findUnseenTests(root: string, sha: string): Promise<string[]> {
  return (await listChangedFilesOutside(root, sha)).filter((f) => DEFAULT_TEST_NAME.test(f));
}

export function unseenTestsError(root: string, unseen: readonly string[]): FlakeguardError {
  const shown = unseen.slice(0, 3).join(', ') + (unseen.length > 3 ? ` and ${unseen.length - 3} more` : '');
  const folder = projectFolderOf(root, unseen[0] ?? '');
  const where = folder === null ? 'the folder that holds their Vitest config' : displayPath(folder);
  return new FlakeguardError(
    'USAGE',
    `the project root ${displayPath(root)} does not see ${unseen.length} test file${unseen.length === 1 ? '' : 's'} this branch changes (${shown}); run the gate for them: flakeguard gate --root ${where}`,
  );
}

/** Says the root and Vitest config, stops when the branch's test changes lie outside the root; returns `step`. */
export async function placedStep(
  step: (text: string) => void,
  root: string,
  sha: string,
  whole: { readonly selected: readonly unknown[]; readonly configFile: string | null },
): Promise<(text: string) => void> {
  step(describeProjectPlace(root, whole.configFile));
  const unseen = whole.selected.length === 0 ? await findUnseenTests(root, sha) : [];
  if (unseen.length > 0) throw unseenTestsError(root, unseen);
  return step;
}
