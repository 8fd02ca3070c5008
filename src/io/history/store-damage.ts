/**
 * A damaged embedded store (issue 19, class 7) is one line that names the store and the fix, never
 * PGlite's own "Aborted(). Build with -sASSERTIONS", an "[object Object]" or "no history yet": the
 * store is a cache of the run records, so `flakeguard history ingest` rebuilds it from them.
 */
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
