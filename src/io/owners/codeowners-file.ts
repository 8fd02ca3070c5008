/**
 * The repository's CODEOWNERS, found where GitHub looks (.github/, the root, docs/; the first found
 * is used) and then GitLab's .gitlab/, at the root of the git repository that holds the project
 * (found by walking up to the folder with `.git`; without one, the project folder). Test files are
 * relative to the project root; CODEOWNERS patterns to the repository root: the lookup maps one onto
 * the other. No CODEOWNERS: every test has no owner.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { FlakeguardError } from '../../core/errors.js';
import {
  type Codeowners,
  NO_OWNERS,
  type OwnersOf,
  ownersOfPath,
  parseCodeowners,
} from '../../core/owners/codeowners.js';
import { readInputFile } from '../files/input-file.js';

const CODEOWNERS_LOCATIONS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS', '.gitlab/CODEOWNERS'] as const;

function repositoryRoot(root: string): string {
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(root);
  }
}

export interface ProjectOwners {
  /** The CODEOWNERS file read, relative to the repository root, or null when there is none. */
  readonly file: string | null;
  readonly ownersOf: OwnersOf;
}

/** GitHub reads at most 3 MB of a CODEOWNERS file. */
const CODEOWNERS_LIMIT_BYTES = 3 * 1024 * 1024;

function readCodeowners(root: string): { readonly codeowners: Codeowners; readonly repoRoot: string } | null {
  const repoRoot = repositoryRoot(root);
  for (const location of CODEOWNERS_LOCATIONS) {
    const file = path.join(repoRoot, location);
    let text: string;
    try {
      // Non-blocking and bounded: a FIFO or device there is skipped like a missing file, never waited on.
      text = readInputFile(file, 'a CODEOWNERS file', CODEOWNERS_LIMIT_BYTES).toString('utf8');
    } catch {
      continue;
    }
    return { codeowners: parseCodeowners(text, location), repoRoot };
  }
  return null;
}

/** The owners of each test file (relative to `root`), memoized per file. */
export function readProjectOwners(root: string): ProjectOwners {
  const found = readCodeowners(root);
  if (found === null) return { file: null, ownersOf: NO_OWNERS };
  const prefix = path.relative(found.repoRoot, path.resolve(root)).split(path.sep).join('/');
  const memo = new Map<string, readonly string[]>();
  const ownersOf: OwnersOf = (file) => {
    let owners = memo.get(file);
    if (owners === undefined) {
      const inRepo = path.posix.normalize(prefix === '' ? file : `${prefix}/${file}`).replace(/^\.\//, '');
      owners = ownersOfPath(found.codeowners, inRepo);
      memo.set(file, owners);
    }
    return owners;
  };
  return { file: found.codeowners.file, ownersOf };
}

/** `--owner` with no CODEOWNERS would silently match nothing: stop and say where it was looked for. */
export function requireCodeownersFor(owner: string | undefined, owners: ProjectOwners, command: string): void {
  if (owner === undefined || owners.file !== null) return;
  throw new FlakeguardError(
    'USAGE',
    `${command} --owner ${owner}: no CODEOWNERS file (looked for ${CODEOWNERS_LOCATIONS.join(', ')} at the repository root), so no test has an owner; add one or leave --owner out`,
  );
}
