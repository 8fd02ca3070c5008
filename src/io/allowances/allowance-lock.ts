/**
 * One writer at a time per allowance file, across processes: `<file>.lock` (io/files/file-lock.ts)
 * names its owner; others wait and retry. A lock that protects nothing (empty, garbage, its owner
 * ended on this host, or older than STALE_MS from another host) is taken over with a notice.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { FlakeguardError } from '../../core/errors.js';
import { describeLockOwner } from '../../core/lock-owner.js';
import { printLockNotice, releaseLock, tryLock } from '../files/file-lock.js';

const WAIT_MS = 30_000;
const STALE_MS = 60_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** Runs `work` holding the lock of `file` (an absolute path); throws after WAIT_MS. */
export function withFileLock<T>(file: string, work: () => T, onNotice: (line: string) => void = printLockNotice): T {
  const lock = `${file}.lock`;
  const started = Date.now();
  mkdirSync(path.dirname(lock), { recursive: true });
  let token: string | null = null;
  for (let attempt = 0; token === null; attempt++) {
    const got = tryLock(lock, STALE_MS, onNotice);
    token = got.token;
    if (token !== null) break;
    if (Date.now() - started > WAIT_MS) {
      const owner = got.state?.kind === 'held' ? describeLockOwner(got.state.owner) : 'another process';
      throw new FlakeguardError(
        'INPUT_UNREADABLE',
        `${lock} is held by ${owner}; wait for it to finish, or remove the lock file if no flakeguard is running`,
      );
    }
    sleep(Math.min(50, 2 + attempt * 3) + Math.floor(Math.random() * 10));
  }
  try {
    return work();
  } finally {
    releaseLock(lock, token);
  }
}
