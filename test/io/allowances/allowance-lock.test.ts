import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os, { hostname } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatLockOwner, parseLockOwner } from '../../../src/core/lock-owner.js';
import { withFileLock } from '../../../src/io/allowances/allowance-lock.js';
import { updateAllowanceFile } from '../../../src/io/allowances/allowance-store.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-lock-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The pid of a process that has exited (a short node child, waited for). */
function deadPid(): number {
  return Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).toString());
}

describe('allowance file lock', () => {
  it('runs the work and removes the lock', () => {
    const file = path.join(root, 'a.yaml');
    expect(withFileLock(file, () => existsSync(`${file}.lock`))).toBe(true);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('removes the lock when the work throws', () => {
    const file = path.join(root, 'a.yaml');
    expect(() =>
      withFileLock(file, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('breaks a stale lock whose process is gone on this host', () => {
    const file = path.join(root, 'sub/a.yaml');
    updateAllowanceFile(root, 'sub/a.yaml', () => '# one\n');
    writeFileSync(`${file}.lock`, `${deadPid()}\n${hostname()}\nfeedfacefeedface\n`);
    updateAllowanceFile(root, 'sub/a.yaml', (text) => `${text}# two\n`);
    expect(readFileSync(file, 'utf8')).toBe('# one\n# two\n');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('breaks an old lock from another host, and one its owner never finished writing', () => {
    const file = path.join(root, 'a.yaml');
    writeFileSync(`${file}.lock`, `1\nanother-host.example\nfeedfacefeedface\n`);
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(`${file}.lock`, old, old);
    expect(withFileLock(file, () => 'ran')).toBe('ran');
    writeFileSync(`${file}.lock`, '');
    utimesSync(`${file}.lock`, old, old);
    expect(withFileLock(file, () => 'ran again')).toBe('ran again');
  });

  it('keeps CRLF line endings through an update', () => {
    writeFileSync(path.join(root, 'a.yaml'), '# one\r\n# two\r\n');
    updateAllowanceFile(root, 'a.yaml', (text) => `${text}# three\n`);
    expect(readFileSync(path.join(root, 'a.yaml'), 'utf8')).toBe('# one\r\n# two\r\n# three\r\n');
  });

  it("takes over an empty or garbage lock, and a dead owner's, with one notice each", () => {
    const file = path.join(root, 'a.yaml');
    const notices: string[] = [];
    for (const content of [
      '',
      'garbage\u0000\n',
      formatLockOwner({
        pid: deadPid(),
        host: hostname(),
        takenAt: new Date().toISOString(),
        token: 'feedfacefeedface',
      }),
    ]) {
      writeFileSync(`${file}.lock`, content);
      expect(
        withFileLock(
          file,
          () => 'ran',
          (line) => notices.push(line),
        ),
      ).toBe('ran');
      expect(existsSync(`${file}.lock`)).toBe(false);
    }
    expect(notices).toEqual([
      `took over the stale lock ${file}.lock: it is empty`,
      `took over the stale lock ${file}.lock: it does not name an owner (pid, host, time)`,
      expect.stringMatching(/: its owner, process \d+ on this host, has ended$/),
    ]);
  });

  it('writes its owner (pid, host, time) into the lock while it holds it', () => {
    const file = path.join(root, 'a.yaml');
    const owner = withFileLock(file, () => parseLockOwner(readFileSync(`${file}.lock`, 'utf8')));
    expect(owner).toMatchObject({ pid: process.pid, host: hostname() });
    expect(Date.parse(owner?.takenAt ?? '')).toBeGreaterThan(0);
  });
});
