/**
 * The allowance files on disk: `<root>/<folder>/**\/*.yaml` (allowance-files.ts lists them, links
 * inside the project followed), read all at once (problems collected, not thrown) and written one
 * file at a time, atomically. Only the CLI writes; the reporter reads.
 */
import { existsSync, lstatSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { type Allowance, type AllowanceProblem, dedupeAllowances } from '../../core/allowances/allowance.js';
import { keepLineEndings } from '../../core/allowances/allowance-edit.js';
import { parseAllowanceFile } from '../../core/allowances/allowance-parse.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import { readUserTextFile } from '../files/input-file.js';
import { checkAllowanceWritePath, scanAllowanceFiles } from './allowance-files.js';
import { withFileLock } from './allowance-lock.js';

export interface AllowanceStore {
  readonly allowances: readonly Allowance[];
  readonly problems: readonly AllowanceProblem[];
  /** Text of each allowance file by its path relative to the root. */
  readonly texts: ReadonlyMap<string, string>;
}

/** Allowance files relative to the root, sorted (through links inside the project); [] when the folder does not exist. */
export function listAllowanceFiles(root: string, folder: string): string[] {
  return [...scanAllowanceFiles(root, folder).files];
}

export function loadAllowanceStore(root: string, folder: string): AllowanceStore {
  const texts = new Map<string, string>();
  const scan = scanAllowanceFiles(root, folder);
  const parsed = scan.files.map((rel) => {
    const text = readUserTextFile(path.join(root, rel), 'an allowance file');
    texts.set(rel, text);
    return parseAllowanceFile(text, rel);
  });
  // The paths that could not be read (a link out of the project, a FIFO) are problems, after the files'.
  const { allowances, problems } = dedupeAllowances([...parsed, { allowances: [], problems: scan.problems }]);
  return { allowances, problems, texts };
}

/**
 * Reads, edits and writes one allowance file holding its lock, so concurrent writers (two `add`s,
 * a `gate --write-allowances`) each see the other's entries. `edit` works on `\n` lines; a CRLF file
 * stays CRLF. Returns the text written.
 */
export function updateAllowanceFile(root: string, rel: string, edit: (text: string) => string): string {
  checkAllowanceWritePath(root, rel);
  return withFileLock(path.join(root, rel), () => {
    const next = keepLineEndings(readAllowanceText(root, rel), edit);
    writeAllowanceFile(root, rel, next);
    return next;
  });
}

/** Writes an allowance file atomically; a file left with nothing but whitespace is removed. */
export function writeAllowanceFile(root: string, rel: string, text: string): void {
  const target = path.join(root, rel);
  if (text.trim() === '') {
    rmSync(target, { force: true });
    // Folders the removal left empty go too, up to the root.
    for (let dir = path.dirname(target); dir.startsWith(path.resolve(root) + path.sep); dir = path.dirname(dir)) {
      // A linked folder is the link's target's, not ours to remove (nor can rmdir remove a link).
      if (lstatSync(dir).isSymbolicLink() || readdirSync(dir).length > 0) break;
      rmdirSync(dir);
    }
    return;
  }
  writeFileAtomic(target, text);
}

export function readAllowanceText(root: string, rel: string): string {
  const target = path.join(root, rel);
  // Non-blocking and bounded (a FIFO is refused, never waited on), like every read of a user's file.
  return existsSync(target) ? readUserTextFile(target, 'an allowance file') : '';
}
