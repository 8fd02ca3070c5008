/**
 * The one way flakeguard takes a lock file (the embedded history store's, each allowance file's):
 * the owner (pid, host, time, token; core/lock-owner.ts) is written to a private file that is then
 * hard-linked to the lock's name, so a lock exists only whole, never empty or half-written. A lock
 * that is stale by core's rule is moved aside (one process wins the rename), checked to be the
 * one that was judged, removed, and reported with one notice naming the file and why.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { formatLockOwner, judgeLock, type LockState } from '../../core/lock-owner.js';
import { isProcessAlive } from '../process/process-group.js';

export interface LockTry {
  /** The token when the lock was taken, else the lock's state as it was found. */
  readonly token: string | null;
  readonly state: LockState | null;
}

function readText(lock: string): string | null {
  try {
    return readFileSync(lock, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The error of a write in the lock's folder as one about that folder: the private file is a name
 * of flakeguard's (`<lock>.<pid>.<hex>.new`) that the user never gave, and what to fix is the
 * folder (read-only, immutable, full). Same code and syscall, so it is still a path error.
 */
function inFolderOf(lock: string, error: unknown): unknown {
  const e = error as NodeJS.ErrnoException;
  if (!(error instanceof Error) || typeof e.code !== 'string' || e.code === 'EEXIST') return error;
  const folder = path.dirname(lock);
  return Object.assign(new Error(`${e.code}: ${e.syscall ?? 'write'} in ${folder} (lock ${lock})`, { cause: error }), {
    code: e.code,
    syscall: e.syscall,
    path: folder,
  });
}

function createWhole(lock: string, content: string): boolean {
  const temp = `${lock}.${process.pid}.${randomBytes(4).toString('hex')}.new`;
  try {
    writeFileSync(temp, content, { flag: 'wx' });
  } catch (error) {
    throw inFolderOf(lock, error);
  }
  try {
    linkSync(temp, lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw inFolderOf(lock, error);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Moves a stale lock aside unless another process replaced it since `seen` was read. */
function breakStale(lock: string, seen: string): boolean {
  const aside = `${lock}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(lock, aside);
  } catch {
    return false;
  }
  if (readText(aside) === seen) {
    rmSync(aside, { force: true });
    return true;
  }
  // A live lock was taken in between: put it back (it is only ours to wait for).
  try {
    renameSync(aside, lock);
  } catch {
    rmSync(aside, { force: true });
  }
  return false;
}

/**
 * One attempt: takes the lock, or takes over a stale one (calling `onNotice` once) and tries again,
 * or reports who holds it.
 */
export function tryLock(lock: string, foreignStaleMs: number, onNotice: (line: string) => void): LockTry {
  const token = randomBytes(8).toString('hex');
  const content = formatLockOwner({ pid: process.pid, host: hostname(), takenAt: new Date().toISOString(), token });
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createWhole(lock, content)) return { token, state: null };
    const seen = readText(lock);
    if (seen === null) continue; // released between our two steps
    const touchedMs = modifiedMs(lock);
    const state = judgeLock(seen, {
      host: hostname(),
      nowMs: Date.now(),
      isAlive: isProcessAlive,
      foreignStaleMs,
      ...(touchedMs === null ? {} : { touchedMs }),
    });
    if (state.kind === 'held') return { token: null, state };
    if (breakStale(lock, seen)) onNotice(`took over the stale lock ${lock}: ${state.reason}`);
  }
  return { token: null, state: null };
}

function modifiedMs(lock: string): number | null {
  try {
    return statSync(lock).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * Marks the lock as still held (its modification time now) if it is still ours: a process on
 * another host judges a foreign lock by the later of its time taken and this (core/lock-owner.ts).
 */
export function refreshLock(lock: string, token: string): void {
  const text = readText(lock);
  if (text === null || !text.includes(`\ntoken ${token}\n`)) return;
  const now = new Date();
  try {
    utimesSync(lock, now, now);
  } catch {
    // A lock that cannot be touched keeps the time it was taken: the rule then goes by that alone.
  }
}

/** Removes the lock if it is still ours. */
export function releaseLock(lock: string, token: string): void {
  const text = readText(lock);
  if (text !== null && text.includes(`\ntoken ${token}\n`)) rmSync(lock, { force: true });
}

/** The default notice: one stderr line. */
export function printLockNotice(line: string): void {
  process.stderr.write(`flakeguard: notice: ${line}\n`);
}
