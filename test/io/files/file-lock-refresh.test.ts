import { mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { refreshLock, releaseLock, tryLock } from '../../../src/io/files/file-lock.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('refreshLock (issue 48, finding 10)', () => {
  it("touches the lock while it is the holder's, and only then", () => {
    dir = mkdtempSync(path.join(tmpdir(), 'flakeguard-lock-'));
    const lock = path.join(dir, 'history.lock');
    const got = tryLock(lock, 3_600_000, () => {});
    expect(got.token).not.toBeNull();
    const old = new Date(Date.now() - 35 * 86_400_000);
    utimesSync(lock, old, old);
    refreshLock(lock, 'not-the-token');
    expect(Math.round(statSync(lock).mtimeMs)).toBe(old.getTime());
    refreshLock(lock, got.token ?? '');
    expect(statSync(lock).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
    releaseLock(lock, got.token ?? '');
    refreshLock(lock, got.token ?? '');
    expect(() => statSync(lock)).toThrow();
  });
});
