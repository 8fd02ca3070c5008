/**
 * Files a user names (flags, flakeguard.yaml, allowance files) read with the checks that turn a
 * machine error into a usage error naming the path and the fix: a folder where a file is expected,
 * a file over its size limit, a path that cannot be read or written.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { FlakeguardError } from '../../core/errors.js';

/** The size limit of flakeguard.yaml and of each allowance file (documented in the README). */
const TEXT_FILE_LIMIT_BYTES = 1024 * 1024;

const FS_REASONS: Record<string, string> = {
  ENOENT: 'does not exist; check the path',
  EISDIR: 'is a folder; pass a file',
  ENOTDIR: 'has a file where a folder should be in its path; check the path',
  EACCES: 'cannot be accessed (permission denied); check its permissions',
  EPERM: 'cannot be accessed (operation not permitted); check its permissions',
  EEXIST: 'exists as a file where a folder is needed; check the path',
  ENAMETOOLONG: 'is too long a path; use a shorter one',
  ELOOP: 'is a loop of symbolic links; check the path',
  EROFS: 'is on a read-only file system; choose another place',
  ENOSPC: 'cannot be written: the disk is full; free space and run again',
  ENXIO: 'is a FIFO with no reader; start the program that reads it first, or pass a file',
  ETIMEDOUT: 'is a FIFO whose reader stopped reading; check the program that reads it, or pass a file',
  EPIPE: 'was closed by its reader before all was written; check the program that reads it, or pass a file',
};

/** The fs error codes that mean "this path is wrong" (a usage error), with what to say about them. */
export function isPathError(error: unknown): error is NodeJS.ErrnoException {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return error instanceof Error && typeof code === 'string' && code in FS_REASONS;
}

/** `<path> is a folder; pass a file`, with the path relative to the working folder. */
export function describePathError(error: NodeJS.ErrnoException, file: string | undefined = error.path): string {
  const reason = FS_REASONS[error.code ?? ''] ?? `cannot be used (${error.code})`;
  const shown = file === undefined ? `a path (${error.syscall ?? 'fs'})` : displayPath(file);
  return `${shown} ${reason}`;
}

export function displayPath(file: string): string {
  const rel = path.relative(process.cwd(), path.resolve(file));
  return (rel === '' || rel.startsWith('..') ? path.resolve(file) : rel).split(path.sep).join('/');
}

/** Each path given to `flag` that exists must be a regular file (a missing one is the caller's case). */
export function requireFilesNotFolders(flag: string, files: readonly string[]): void {
  for (const file of files) {
    let isFolder = false;
    try {
      isFolder = statSync(file).isDirectory();
    } catch {
      continue;
    }
    if (isFolder) throw new FlakeguardError('USAGE', `${flag} ${displayPath(file)} is a folder; pass a file`);
  }
}

/** The size limit of a run record or gate report read back (2,000 tests make about 0.7 MB). */
export const RECORD_FILE_LIMIT_BYTES = 256 * 1024 * 1024;

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * The one way flakeguard reads a file it was given (issue 19, class 7): it must be a regular file
 * of at most `limit` bytes. It is opened non-blocking and checked on the open descriptor, so a FIFO
 * or a device (/dev/zero) is refused at once instead of hanging or filling memory.
 */
export function readInputFile(file: string, what: string, limit: number, shown: string = displayPath(file)): Buffer {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if (isPathError(error))
      throw new FlakeguardError('INPUT_UNREADABLE', `${shown} ${FS_REASONS[error.code ?? ''] ?? ''}`, { cause: error });
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new FlakeguardError('INPUT_UNREADABLE', `${shown} ${FS_REASONS['EISDIR'] ?? ''}`);
    if (!stat.isFile())
      throw new FlakeguardError(
        'INPUT_UNREADABLE',
        `${shown} is ${kindOf(stat)}, not a regular file; pass ${what} saved as a file`,
      );
    if (stat.size > limit)
      throw new FlakeguardError(
        'INPUT_UNREADABLE',
        `${shown} ${describeOverLimit(stat.size, limit, what)}. Keep it under the limit (split it, or remove what does not belong)`,
      );
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The size limit of a test file read for its tests (a bundled test file of megabytes fits). */
const SOURCE_FILE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * A test file's text, read as every input is (non-blocking, bounded): a FIFO or device where a test
 * file should be is a FlakeguardError naming it, never a read that waits for a writer.
 */
export function readSourceFile(file: string, shown?: string): string {
  return readInputFile(file, 'a test file', SOURCE_FILE_LIMIT_BYTES, shown).toString('utf8');
}

/**
 * Reads a text file a user wrote (flakeguard.yaml, an allowance file), refusing a folder and a file
 * above `limit` bytes before reading it (a 50 MB config is not parsed into gigabytes of memory).
 */
export function readUserTextFile(
  file: string,
  what: 'a flakeguard.yaml' | 'an allowance file',
  limit: number = TEXT_FILE_LIMIT_BYTES,
): string {
  return readInputFile(file, what, limit).toString('utf8');
}

/** `is 300.0 MiB (314572800 bytes), above the 256.0 MiB (268435456 bytes) limit for a run record; it was not read` */
export function describeOverLimit(size: number, limit: number, what: string): string {
  return `is ${formatBytes(size)}, above the ${formatBytes(limit)} limit for ${what}; it was not read`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB (${bytes} bytes)`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB (${bytes} bytes)`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB (${bytes} bytes)`;
  return `${bytes} bytes`;
}

/**
 * Writes a report file a flag names (`--markdown`, `--html`); a path that cannot be written is a
 * usage error naming the flag and the path. Callers print the report to stdout first.
 */
export function writeReportFile(flag: string, file: string, write: () => void): void {
  try {
    write();
  } catch (thrown) {
    // writeHtmlReport wraps the fs error in its own message; the fs error says more.
    const error = thrown instanceof FlakeguardError && isPathError(thrown.cause) ? thrown.cause : thrown;
    if (error instanceof FlakeguardError) throw error;
    const reason = isPathError(error)
      ? describePathError(error, error.path ?? file)
      : `cannot be written (${(error as Error).message})`;
    throw new FlakeguardError(
      'USAGE',
      `${flag} ${displayPath(file)}: the report was printed to stdout but not written: ${reason}`,
      { cause: error },
    );
  }
}
