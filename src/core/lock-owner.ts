/**
 * What a lock file holds, and when it no longer holds anything (issue 19, class 7). A flakeguard
 * lock names its owner: process id, host and the time it was taken, plus a token that tells two
 * owners apart. Anything else (an empty file, garbage, an older format) protects nothing and is
 * stale; so is a lock whose owner process has ended on this host, or one from another host that
 * was neither taken nor refreshed (its file's modification time, which a holder touches while it
 * holds the lock) within the caller's limit: its process cannot be checked from here, so its age
 * is all there is to judge. Pure: the edge reads the file, its time, the clock and the process table.
 */
export interface LockOwner {
  readonly pid: number;
  readonly host: string;
  /** When the lock was taken (ISO 8601). */
  readonly takenAt: string;
  readonly token: string;
}

export type LockState =
  | { readonly kind: 'held'; readonly owner: LockOwner }
  | { readonly kind: 'stale'; readonly reason: string };

export interface LockFacts {
  readonly host: string;
  readonly nowMs: number;
  readonly isAlive: (pid: number) => boolean;
  /**
   * A lock from another host is stale when neither taken nor refreshed for this long (Infinity:
   * never; its process cannot be checked).
   */
  readonly foreignStaleMs: number;
  /** When the lock file was last modified (ms since the epoch), if known: a holder's refresh. */
  readonly touchedMs?: number;
}

export function formatLockOwner(owner: LockOwner): string {
  return `pid ${owner.pid}\nhost ${owner.host}\ntaken ${owner.takenAt}\ntoken ${owner.token}\n`;
}

/** The owner a lock file names, or null when it is not a whole flakeguard lock. */
export function parseLockOwner(text: string): LockOwner | null {
  const m = /^pid (\d{1,10})\nhost ([^\n]+)\ntaken ([^\n]+)\ntoken ([0-9a-f]{8,64})\n$/.exec(text);
  if (!m) return null;
  const pid = Number(m[1]);
  const takenAt = m[3] as string;
  if (!Number.isSafeInteger(pid) || pid <= 0 || !Number.isFinite(Date.parse(takenAt))) return null;
  return { pid, host: m[2] as string, takenAt, token: m[4] as string };
}

/** Whether `text` (a lock file's content) still protects its owner's work. */
export function judgeLock(text: string, facts: LockFacts): LockState {
  const owner = parseLockOwner(text);
  if (owner === null)
    return {
      kind: 'stale',
      reason: text.trim() === '' ? 'it is empty' : 'it does not name an owner (pid, host, time)',
    };
  if (owner.host === facts.host) {
    return facts.isAlive(owner.pid)
      ? { kind: 'held', owner }
      : { kind: 'stale', reason: `its owner, process ${owner.pid} on this host, has ended` };
  }
  const touched = facts.touchedMs !== undefined && Number.isFinite(facts.touchedMs) ? facts.touchedMs : -Infinity;
  const age = facts.nowMs - Math.max(Date.parse(owner.takenAt), touched);
  if (age > facts.foreignStaleMs)
    return {
      kind: 'stale',
      reason: `it was taken by process ${owner.pid} on ${owner.host} at ${owner.takenAt} and not refreshed for more than ${formatLimit(facts.foreignStaleMs)} (a process on another host cannot be checked from here)`,
    };
  return { kind: 'held', owner };
}

/** 60s, 1h, 90min: a limit as the message names it. */
function formatLimit(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms >= 120_000 && ms % 60_000 === 0) return `${ms / 60_000}min`;
  return `${Math.round(ms / 1000)}s`;
}

/** `process 123 on ci-7 since 2026-12-01T10:00:00.000Z`, for "in use by" messages. */
export function describeLockOwner(owner: LockOwner): string {
  return `process ${owner.pid} on ${owner.host} since ${owner.takenAt}`;
}
