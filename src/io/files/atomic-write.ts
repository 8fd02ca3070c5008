/**
 * The one way flakeguard writes a file a user names or keeps (reports, allowance files, records).
 * A regular file or a new path is written atomically (a temp file beside it, then rename): a reader
 * sees the old content or the new, never half. A symbolic link is followed and its target written,
 * the link kept. A device, a FIFO or a socket is opened and written, never replaced, and never
 * waited on for ever: a FIFO without a reader (after READER_GRACE_MS) or whose reader stops
 * reading (STALL_MS) is an error naming the path, so the command ends, on SIGTERM too. A folder is
 * refused with an EISDIR error naming the path the caller gave (never the temp file).
 */
import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

type WritePlace = { readonly kind: 'file' | 'special' | 'folder'; readonly path: string };

const MAX_LINKS = 40;

function pathError(code: 'EISDIR' | 'ELOOP' | 'ENXIO' | 'ETIMEDOUT', file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${file}`), { code, path: file, syscall: 'open' });
}

/** What `target` is once its symbolic links are followed (a dangling link: the path it points to). */
function resolveWritePlace(target: string): WritePlace {
  let current = path.resolve(target);
  for (let hops = 0; hops <= MAX_LINKS; hops += 1) {
    let stat;
    try {
      stat = lstatSync(current);
    } catch (error) {
      // Not there yet (ENOTDIR: a file where a folder should be; mkdir below names that file).
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'file', path: current };
      throw error;
    }
    if (stat.isSymbolicLink()) {
      current = path.resolve(path.dirname(current), readlinkSync(current));
      continue;
    }
    if (stat.isDirectory()) return { kind: 'folder', path: current };
    return { kind: stat.isFile() ? 'file' : 'special', path: current };
  }
  throw pathError('ELOOP', target);
}

export function writeFileAtomic(target: string, content: string): void {
  const place = resolveWritePlace(target);
  if (place.kind === 'folder') throw pathError('EISDIR', target);
  if (place.kind === 'special') {
    // A device or FIFO: opened for writing like a shell's `>`; renaming over it would replace the node.
    writeSpecialFile(place.path, target, content);
    return;
  }
  mkdirSync(path.dirname(place.path), { recursive: true });
  const temp = path.join(path.dirname(place.path), `.${path.basename(place.path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(temp, content);
    renameSync(temp, place.path);
  } catch (error) {
    rmSync(temp, { force: true });
    const errno = error as NodeJS.ErrnoException;
    // The temp file is ours, not the user's: a message names the path the caller gave.
    if (errno.path === temp || errno.path === place.path) Object.assign(errno, { path: target });
    throw error;
  }
}

/** How long a FIFO may have no reader (one started just before flakeguard opens it late, under load). */
const READER_GRACE_MS = 2_000;
/** How long a FIFO's reader may read nothing before the write gives up. */
const STALL_MS = 5_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number): void => void Atomics.wait(sleeper, 0, 0, ms);
const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | null)?.code;

/** Opens a device or FIFO without blocking (ENXIO: a FIFO nobody reads), retrying for a reader. */
function openSpecial(file: string, shown: string): number {
  const started = Date.now();
  for (;;) {
    try {
      return openSync(file, constants.O_WRONLY | (constants.O_NONBLOCK ?? 0));
    } catch (error) {
      if (codeOf(error) !== 'ENXIO') throw error;
      if (Date.now() - started > READER_GRACE_MS) throw pathError('ENXIO', shown);
      sleep(20);
    }
  }
}

/** Writes all of `content` to a device or FIFO through a non-blocking descriptor, bounded by STALL_MS. */
function writeSpecialFile(file: string, shown: string, content: string): void {
  const bytes = Buffer.from(content);
  const fd = openSpecial(file, shown);
  try {
    let offset = 0;
    let progressAt = Date.now();
    while (offset < bytes.length) {
      try {
        offset += writeSync(fd, bytes, offset);
        progressAt = Date.now();
      } catch (error) {
        if (codeOf(error) !== 'EAGAIN') throw error;
        if (Date.now() - progressAt > STALL_MS) throw pathError('ETIMEDOUT', shown);
        sleep(5);
      }
    }
  } finally {
    closeSync(fd);
  }
}
