/**
 * One writer at a time per allowance file, across processes: `<file>.lock` is created exclusively
 * (O_EXCL) holding the owner's pid, host and a token; others wait and retry. A lock whose owner is
 * gone (its pid no longer runs on this host, or older than STALE_MS from another host) is stale:
 * it is renamed aside (one process wins the rename), checked to be the one seen, and removed.
 */
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { FlakeguardError } from '../../core/errors.js';
import { isProcessAlive as isAlive } from '../process/process-group.js';

const WAIT_MS = 30_000;
const STALE_MS = 60_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

interface Owner {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
}

function readOwner(lock: string): Owner | null {
  try {
    const [pid, host, token] = readFileSync(lock, 'utf8').split('\n');
    return { pid: Number(pid), host: host ?? '', token: token ?? '' };
  } catch {
    return null;
  }
}

function ageMs(lock: string): number {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return 0;
  }
}

function isStale(lock: string, owner: Owner): boolean {
  // Created but never written: its owner died between the two steps.
  if (owner.token === '') return ageMs(lock) > 5_000;
  if (owner.host === hostname()) return !Number.isInteger(owner.pid) || owner.pid <= 0 || !isAlive(owner.pid);
  return ageMs(lock) > STALE_MS;
}

/** Removes a stale lock unless another process replaced it since `seen` was read. */
function breakStale(lock: string, seen: Owner): void {
  const aside = `${lock}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(lock, aside);
  } catch {
    return;
  }
  const taken = readOwner(aside);
  if (taken?.token === seen.token) {
    rmSync(aside, { force: true });
    return;
  }
  // A live lock was taken in between: put it back (it is only ours to wait for).
  try {
    renameSync(aside, lock);
  } catch {
    rmSync(aside, { force: true });
  }
}

/** Runs `work` holding the lock of `file` (an absolute path); throws LOCKED after WAIT_MS. */
export function withFileLock<T>(file: string, work: () => T): T {
  const lock = `${file}.lock`;
  const token = randomBytes(8).toString('hex');
  const started = Date.now();
  mkdirSync(path.dirname(lock), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    let fd: number | null = null;
    try {
      fd = openSync(lock, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (fd !== null) {
      writeSync(fd, `${process.pid}\n${hostname()}\n${token}\n`);
      closeSync(fd);
      break;
    }
    const owner = readOwner(lock);
    if (owner && isStale(lock, owner)) {
      breakStale(lock, owner);
      continue;
    }
    if (Date.now() - started > WAIT_MS) {
      throw new FlakeguardError('INPUT_UNREADABLE', `${lock} is held by process ${owner?.pid ?? '?'} on ${owner?.host ?? '?'}; wait for it to finish, or remove the lock file if no flakeguard is running`);
    }
    sleep(Math.min(50, 2 + attempt * 3) + Math.floor(Math.random() * 10));
  }
  try {
    return work();
  } finally {
    if (readOwner(lock)?.token === token) rmSync(lock, { force: true });
  }
}
