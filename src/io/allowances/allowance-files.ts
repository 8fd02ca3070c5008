/**
 * Which allowance files there are under `<root>/<folder>`: every `.yaml` file, through symbolic
 * links that stay inside the project (a folder shared in a monorepo, a file linked to another of
 * the project). A link that leaves the project, loops or points at nothing, and a FIFO, device or
 * socket named `.yaml`, is a problem naming the path (core/allowances/allowance-file-problems.ts),
 * never skipped in silence. Writers check their path the same way before they open it.
 */
import { type Dirent, lstatSync, readdirSync, readlinkSync, realpathSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import type { AllowanceProblem } from '../../core/allowances/allowance.js';
import {
  describeUnreadablePath,
  type SpecialKind,
  type UnreadablePath,
  unreadablePathProblem,
} from '../../core/allowances/allowance-file-problems.js';
import { FlakeguardError } from '../../core/errors.js';

export interface AllowanceFileScan {
  /** Allowance files relative to the root (through the links followed), sorted. */
  readonly files: readonly string[];
  readonly problems: readonly AllowanceProblem[];
}

const toPosix = (p: string): string => p.split(path.sep).join('/');
const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | null)?.code;

function specialKind(stat: Stats | Dirent): SpecialKind | null {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return null;
}

const isWithin = (outer: string, inner: string): boolean =>
  inner === outer || inner.startsWith(outer.endsWith(path.sep) ? outer : outer + path.sep);

type Followed =
  | { readonly ok: true; readonly real: string; readonly stat: Stats }
  | { readonly ok: false; readonly reason: UnreadablePath };

/** Where the symbolic link `full` leads, or why it is not followed. */
function followLink(full: string, rootReal: string): Followed {
  let real: string;
  try {
    real = realpathSync(full);
  } catch (error) {
    if (codeOf(error) === 'ELOOP') return { ok: false, reason: { kind: 'loop', target: null } };
    if (codeOf(error) === 'ENOENT') return { ok: false, reason: { kind: 'dangling', target: readlinkSync(full) } };
    throw error;
  }
  if (!isWithin(rootReal, real)) return { ok: false, reason: { kind: 'outside', target: real, root: rootReal } };
  return { ok: true, real, stat: statSync(real) };
}

/** The allowance files and the problems of the paths that could not be read as one. */
export function scanAllowanceFiles(root: string, folder: string): AllowanceFileScan {
  const base = path.resolve(root, folder);
  const files: string[] = [];
  const problems: AllowanceProblem[] = [];
  const rootReal = realpathSync(root);
  const relOf = (full: string): string => toPosix(path.relative(root, full));
  const refuse = (full: string, reason: UnreadablePath): void =>
    void problems.push(unreadablePathProblem(relOf(full), reason));
  /** `dir` is read, its real path `real`; `inside`: the real paths of the folders it is within. */
  const walk = (dir: string, real: string, inside: ReadonlySet<string>): void => {
    const chain = new Set([...inside, real]);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      let stat: Stats | Dirent = entry;
      let target = path.join(real, entry.name);
      if (entry.isSymbolicLink()) {
        const followed = followLink(full, rootReal);
        if (!followed.ok) {
          refuse(full, followed.reason);
          continue;
        }
        ({ stat, real: target } = followed);
      }
      if (stat.isDirectory()) {
        // A link to a folder that holds this one (or is it) would be walked for ever.
        if ([...chain].some((c) => isWithin(target, c))) refuse(full, { kind: 'loop', target: relOf(target) || '.' });
        else walk(full, target, chain);
        continue;
      }
      if (!entry.name.endsWith('.yaml')) continue;
      const special = specialKind(stat);
      if (special !== null) refuse(full, { kind: 'special', what: special });
      else if (stat.isFile()) files.push(relOf(full));
    }
  };
  const top = baseFolder(base, rootReal);
  if (top === null) return { files: [], problems: [] };
  if (!top.ok) return { files: [], problems: [unreadablePathProblem(relOf(base), top.reason)] };
  walk(base, top.real, new Set());
  return { files: files.sort(), problems };
}

/** The allowances folder itself: null when absent (no allowances), else followed like any link. */
function baseFolder(base: string, rootReal: string): Followed | null {
  let stat: Stats;
  try {
    stat = lstatSync(base);
  } catch (error) {
    if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return null;
    throw error;
  }
  const followed: Followed = stat.isSymbolicLink() ? followLink(base, rootReal) : { ok: true, real: base, stat };
  if (!followed.ok || followed.stat.isDirectory()) return followed;
  const what = specialKind(followed.stat) ?? 'a file';
  return { ok: false, reason: { kind: 'not-folder', what } };
}

/**
 * Refuses to write `rel` (an allowance file, relative to the root) through a link that leaves the
 * project, loops or points at nothing, or into a FIFO or device: the same paths the reader refuses,
 * so a writer never writes what the next read cannot see. A missing path is fine (it is created).
 */
export function checkAllowanceWritePath(root: string, rel: string): void {
  const rootReal = realpathSync(root);
  const parts = rel.split('/');
  for (let i = 1; i <= parts.length; i += 1) {
    const full = path.join(root, ...parts.slice(0, i));
    let stat: Stats;
    try {
      stat = lstatSync(full);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return;
      throw error;
    }
    let reason: UnreadablePath | null = null;
    if (stat.isSymbolicLink()) {
      const followed = followLink(full, rootReal);
      if (followed.ok) stat = followed.stat;
      else reason = followed.reason;
    }
    const special = reason === null ? specialKind(stat) : null;
    if (special !== null) reason = { kind: 'special', what: special };
    if (reason !== null)
      throw new FlakeguardError(
        'USAGE',
        `${toPosix(path.relative(root, full))}: ${describeUnreadablePath(reason, 'written')}`,
      );
  }
}
