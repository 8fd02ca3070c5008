/**
 * What stops a path under the allowances folder from being read as an allowance file or folder:
 * a symbolic link that leaves the project, loops or points at nothing, and a special file (a FIFO,
 * a device, a socket) where a file or folder belongs. Each is a problem naming the path, so the
 * reporter warns and `allowances check` fails on it instead of skipping it in silence; a writer
 * refuses the same path with the same words. Pure: the io walker (io/allowances/allowance-files.ts)
 * finds the facts.
 */
import type { AllowanceProblem } from './allowance.js';

export type SpecialKind = 'a FIFO (named pipe)' | 'a character device' | 'a block device' | 'a socket';

/** Why a path cannot be read as an allowance file or folder. */
export type UnreadablePath =
  /** A symbolic link whose target (absolute, as resolved) is outside the project root. */
  | { readonly kind: 'outside'; readonly target: string; readonly root: string }
  /** A symbolic link that leads back to itself or to a folder it is inside of. */
  | { readonly kind: 'loop'; readonly target: string | null }
  /** A symbolic link to a path that does not exist. */
  | { readonly kind: 'dangling'; readonly target: string }
  | { readonly kind: 'special'; readonly what: SpecialKind }
  /** The allowances folder itself is a file or a special file. */
  | { readonly kind: 'not-folder'; readonly what: string };

/** The sentence after `<path>: `; it names the fix. `use`: what was not done with the path. */
export function describeUnreadablePath(reason: UnreadablePath, use: 'read' | 'written' = 'read'): string {
  const not = `it was not ${use}`;
  switch (reason.kind) {
    case 'outside':
      return `a symbolic link to ${reason.target}, outside the project at ${reason.root}; ${not}. Links are followed only inside the project: move its target into the project, or copy the allowance files in`;
    case 'loop':
      return `a symbolic link that loops${reason.target === null ? '' : ` (back to ${reason.target})`}; ${not}. Point it at a file or folder that does not hold it`;
    case 'dangling':
      return `a symbolic link to ${reason.target}, which does not exist; ${not}. Restore its target or remove the link`;
    case 'special':
      return `${reason.what}, not a regular file or folder; ${not}. Replace it with the allowance file itself (YAML, docs/allowances.md)`;
    case 'not-folder':
      return `${reason.what}, not a folder; no allowance was ${use}. Make it the folder of allowance files, or set \`allowances:\` in flakeguard.yaml to one`;
    default: {
      const never: never = reason;
      return never;
    }
  }
}

/** The store's problem for `rel` (relative to the root, `/`): check fails on it, the reporter warns. */
export function unreadablePathProblem(rel: string, reason: UnreadablePath): AllowanceProblem {
  return { kind: 'invalid', where: rel, message: describeUnreadablePath(reason), id: null };
}
