/**
 * A damaged embedded store (issue 19, class 7) is one line that names the store and the fix, never
 * PGlite's own "Aborted(). Build with -sASSERTIONS", an "[object Object]" or "no history yet": the
 * store is a cache of the run records, so `flakeguard history ingest` rebuilds it from them. A store
 * that cannot be written (read-only, immutable, its disk full) is not damaged: the engine fails the
 * same way on it, so before a failure is called damage the folder is probed (a file written and
 * removed, an existing file opened for writing), and a refused probe names the true cause and fix.
 */
import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FlakeguardError } from '../../core/errors.js';
import { clipText } from '../../core/excerpt.js';

/** The first line of whatever was thrown: an Error's message, an object's `message`, else its kind (another library's cut to 120 characters). */
export function describeThrown(thrown: unknown): string {
  const message =
    thrown instanceof Error
      ? thrown.message
      : typeof thrown === 'object' && thrown !== null && typeof (thrown as { message?: unknown }).message === 'string'
        ? (thrown as { message: string }).message
        : typeof thrown === 'string'
          ? thrown
          : '';
  const first = message.split('\n')[0]?.trim() ?? '';
  if (first === '') return `a ${thrown === null ? 'null' : typeof thrown} with no message`;
  // Our own messages end with the fix: never cut them. A driver's or engine's may run on: clipped.
  return thrown instanceof FlakeguardError ? first : clipText(first, 120);
}

/**
 * A failure that says the store's files are damaged, met when a query reads them (the store opened):
 * SQLSTATE class XX (data or index corrupted: "invalid page in block 0 of relation base/5/16394", a
 * file cut short) or 58 (a file missing or unreadable: "could not open file base/5/16394"), or the
 * engine aborting. Any other query error (a constraint, a bug in our SQL) is not the store's damage.
 */
export function isStoreDamage(thrown: unknown): boolean {
  if (thrown instanceof FlakeguardError) return false;
  const code = (thrown as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^(XX|58)[0-9A-Z]{3}$/.test(code)) return true;
  return (thrown instanceof Error && thrown.name === 'RuntimeError') || /Aborted\(/.test(describeThrown(thrown));
}

export function damagedStoreError(folder: string, reason: unknown): FlakeguardError {
  const raw = typeof reason === 'string' ? reason : describeThrown(reason);
  // PGlite's own words for a store it cannot start on ("Aborted(). Build with -sASSERTIONS for more
  // info.") say nothing a user can act on.
  const why = /Aborted\(|-sASSERTIONS|\[object Object\]|failed to initialize/.test(raw)
    ? 'the database engine could not start on its files'
    : raw;
  const records = path.dirname(folder);
  return new FlakeguardError(
    'STORE_DAMAGED',
    `the history store ${folder} is damaged (${why}); move it aside and rebuild it from the run records: flakeguard history ingest ${records}`,
    { cause: reason },
  );
}

/** What a refused write says, and what to do about it. */
const UNWRITABLE: Readonly<Record<string, { readonly why: string; readonly fix: string }>> = {
  EACCES: { why: 'permission denied', fix: 'make it writable by this user (chmod -R u+w)' },
  EPERM: {
    why: 'operation not permitted: read-only or immutable files',
    fix: 'make it writable (chmod -R u+w; chattr -R -i)',
  },
  EROFS: {
    why: 'it is on a read-only file system',
    fix: 'put the records folder on a writable disk (records: in flakeguard.yaml)',
  },
  ENOSPC: { why: 'the disk is full', fix: 'free space on its disk' },
  EDQUOT: { why: 'the disk quota is used up', fix: 'free space within the quota' },
};

/** The error a write into `folder` meets now, or null when the folder takes a write (or is not there). */
export function probeStoreWrite(folder: string): NodeJS.ErrnoException | null {
  const probe = path.join(folder, `.flakeguard-write-probe-${process.pid}`);
  try {
    writeFileSync(probe, Buffer.alloc(8192));
    closeSync(openSync(path.join(folder, 'PG_VERSION'), 'r+'));
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    return code in UNWRITABLE ? (error as NodeJS.ErrnoException) : null;
  } finally {
    rmSync(probe, { force: true });
  }
}

/** `the history store <folder> cannot be written (<why>); <fix>, then run again`: nothing in it is damaged. */
export function unwritableStoreError(folder: string, error: NodeJS.ErrnoException): FlakeguardError {
  const { why, fix } = UNWRITABLE[error.code ?? ''] ?? { why: error.code ?? 'refused', fix: 'make it writable' };
  return new FlakeguardError(
    'STORE_UNWRITABLE',
    `the history store ${folder} cannot be written (${why}); it is not damaged: ${fix}, then run again`,
    { cause: error },
  );
}

/** A store on disk that failed: unwritable when a write into it is refused now, else damaged. */
export function failedStoreError(folder: string, reason: unknown): FlakeguardError {
  const refused = probeStoreWrite(folder);
  return refused === null ? damagedStoreError(folder, reason) : unwritableStoreError(folder, refused);
}
