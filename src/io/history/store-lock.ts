/**
 * One process at a time in the embedded store: PGlite is a single-connection database, and two
 * processes opening the same folder would corrupt it. The lock (io/files/file-lock.ts) names its
 * owner; one that protects nothing (empty, garbage, its owner ended on this host) is taken over
 * with a notice. A lock from another host (a shared disk, or a `.flakeguard/` restored from a CI
 * cache) cannot have its process checked from here: it is stale when neither taken nor refreshed
 * for FOREIGN_STALE_MS. A holder refreshes its lock (the file's modification time) every
 * REFRESH_MS while it holds it, so a store held for hours by a live process on another host is
 * never taken over; a lock left behind is, an hour after its holder last refreshed it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { FlakeguardError, interruptedError } from '../../core/errors.js';
import { describeLockOwner } from '../../core/lock-owner.js';
import { printLockNotice, refreshLock, releaseLock, tryLock } from '../files/file-lock.js';

/** A lock from another host not taken or refreshed for this long is stale (docs/history.md). */
const FOREIGN_STALE_MS = 3_600_000;
/** How often a holder refreshes its lock: a small part of FOREIGN_STALE_MS. */
const REFRESH_MS = 60_000;

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
    const got = tryLock(file, FOREIGN_STALE_MS, onNotice);
    const token = got.token;
    if (token !== null) {
      let held = true;
      const refresh = setInterval(() => refreshLock(file, token), REFRESH_MS);
      refresh.unref();
      const release = (): void => {
        if (!held) return;
        held = false;
        clearInterval(refresh);
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
