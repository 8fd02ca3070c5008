/**
 * One process at a time in the embedded store: PGlite is a single-connection database, and two
 * processes opening the same folder would corrupt it. The lock (io/files/file-lock.ts) names its
 * owner; one that protects nothing (empty, garbage, its owner ended on this host) is taken over
 * with a notice. A lock from another host (a shared disk) is never judged stale: its process
 * cannot be checked from here.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { FlakeguardError, interruptedError } from '../../core/errors.js';
import { describeLockOwner } from '../../core/lock-owner.js';
import { printLockNotice, releaseLock, tryLock } from '../files/file-lock.js';

export interface FileLock {
  release(): void;
}

export async function acquireFileLock(
  file: string,
  timeoutMs: number,
  what: string,
  signal?: AbortSignal,
  onNotice: (line: string) => void = printLockNotice,
): Promise<FileLock> {
  const deadline = Date.now() + timeoutMs;
  let wait = 10;
  let told = false;
  for (;;) {
    if (signal?.aborted) throw interruptedError(`waiting for ${what}`);
    const got = tryLock(file, Number.POSITIVE_INFINITY, onNotice);
    const token = got.token;
    if (token !== null) {
      let held = true;
      const release = (): void => {
        if (!held) return;
        held = false;
        process.off('exit', release);
        releaseLock(file, token);
      };
      process.on('exit', release);
      return { release };
    }
    if (!told && got.state?.kind === 'held') {
      told = true;
      onNotice(`waiting for ${what}: in use by ${describeLockOwner(got.state.owner)} (lock ${file}); Ctrl-C stops`);
    }
    if (Date.now() >= deadline) {
      const owner = got.state?.kind === 'held' ? ` by ${describeLockOwner(got.state.owner)}` : '';
      throw new FlakeguardError(
        'INPUT_UNREADABLE',
        `${what} is in use by another process${owner} (lock ${file}) after ${Math.round(timeoutMs / 1000)}s; wait for it to finish, or remove the lock file if no flakeguard is running`,
      );
    }
    await sleep(wait);
    wait = Math.min(wait * 2, 200);
  }
}
