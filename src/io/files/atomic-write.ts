/**
 * The one way flakeguard writes a file a user names or keeps (reports, allowance files, records).
 * A regular file or a new path is written atomically (a temp file beside it, then rename): a reader
 * sees the old content or the new, never half. A symbolic link is followed and its target written,
 * the link kept. A device, a FIFO or a socket is opened and written, never replaced. A folder is
 * refused with an EISDIR error naming the path the caller gave (never the temp file).
 */
import { lstatSync, mkdirSync, readlinkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

type WritePlace = { readonly kind: 'file' | 'special' | 'folder'; readonly path: string };

const MAX_LINKS = 40;

function pathError(code: 'EISDIR' | 'ELOOP', file: string): NodeJS.ErrnoException {
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
    writeFileSync(place.path, content);
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
