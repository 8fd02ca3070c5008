/**
 * One process at a time in the embedded store: PGlite is a single-connection database, and two
 * processes opening the same folder would corrupt it. A lock file created with O_EXCL holds the
 * owner's pid and host; a lock left by a process that died on this host is taken over.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { FlakeguardError } from '../../core/errors.js';
import { isProcessAlive as isAlive } from '../process/process-group.js';

export interface FileLock {
  release(): void;
}

/** True when the lock file names a process on this host that no longer exists. */
function isStale(file: string): boolean {
  try {
    const [pid, host] = readFileSync(file, 'utf8').split('\n');
    return host === os.hostname() && Number(pid) > 0 && !isAlive(Number(pid));
  } catch {
    return false;
  }
}

export async function acquireFileLock(file: string, timeoutMs: number, what: string): Promise<FileLock> {
  const deadline = Date.now() + timeoutMs;
  let wait = 10;
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n${os.hostname()}\n`);
      closeSync(fd);
      let held = true;
      const release = (): void => {
        if (!held) return;
        held = false;
        process.off('exit', release);
        rmSync(file, { force: true });
      };
      process.on('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (isStale(file)) {
      rmSync(file, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      throw new FlakeguardError(
        'INPUT_UNREADABLE',
        `${what} is in use by another process (lock ${file}) after ${Math.round(timeoutMs / 1000)}s; wait for it to finish, or remove the lock file if no flakeguard is running`,
      );
    }
    await sleep(wait);
    wait = Math.min(wait * 2, 200);
  }
}
