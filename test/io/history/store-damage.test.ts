import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FlakeguardError } from '../../../src/core/errors.js';
import {
  damagedStoreError,
  failedStoreError,
  isStoreDamage,
  probeStoreWrite,
  unwritableStoreError,
} from '../../../src/io/history/store-damage.js';

/** An error as PGlite and node-postgres throw them: a message and a SQLSTATE code. */
const sqlError = (code: string, message: string): Error => Object.assign(new Error(message), { code });

describe("isStoreDamage: which query failures are the store's damage", () => {
  it.each([
    ['XX001', 'invalid page in block 0 of relation "base/5/16394"', true],
    ['XX002', 'index "flakeguard_runs_pkey" contains unexpected zero page', true],
    ['58P01', 'could not open file "base/5/16394": No such file or directory', true],
    ['58030', 'could not read blocks 0..0 in file "base/5/16394": read only 0 of 8192 bytes', true],
    // A constraint or our own SQL is not damage.
    ['23505', 'duplicate key value violates unique constraint', false],
    ['42601', 'syntax error at or near "SELEC"', false],
    ['42P01', 'relation "flakeguard_runz" does not exist', false],
  ])('SQLSTATE %s (%s): damage %s', (code, message, damage) => {
    expect(isStoreDamage(sqlError(code, message))).toBe(damage);
  });

  it('the engine aborting is damage', () => {
    expect(
      isStoreDamage(Object.assign(new Error('Aborted(). Build with -sASSERTIONS'), { name: 'RuntimeError' })),
    ).toBe(true);
  });

  it('our own errors, a damage error already made among them, pass through', () => {
    expect(isStoreDamage(new FlakeguardError('USAGE', 'x'))).toBe(false);
    expect(isStoreDamage(damagedStoreError('/p/.flakeguard/runs/history', sqlError('XX001', 'invalid page')))).toBe(
      false,
    );
  });

  it("the line names the store, the engine's words and the fix", () => {
    expect(
      damagedStoreError(
        '/p/.flakeguard/runs/history',
        sqlError('XX001', 'invalid page in block 0 of relation "base/5/1"'),
      ).message,
    ).toBe(
      'the history store /p/.flakeguard/runs/history is damaged (invalid page in block 0 of relation "base/5/1"); move it aside and rebuild it from the run records: flakeguard history ingest /p/.flakeguard/runs',
    );
  });
});

// The refused writes themselves (a read-only store) are in test/e2e/bad-input/causes.test.ts.
describe('a store that cannot be written is not called damaged (issue 48)', () => {
  const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code, syscall: 'open' });

  it.each([
    ['EACCES', 'permission denied', 'chmod -R u+w'],
    ['EPERM', 'read-only or immutable files', 'chattr -R -i'],
    ['EROFS', 'read-only file system', 'records: in flakeguard.yaml'],
    ['ENOSPC', 'the disk is full', 'free space on its disk'],
  ])('%s: the cause and the fix, never "move it aside"', (code, why, fix) => {
    const error = unwritableStoreError('/p/.flakeguard/runs/history', errno(code));
    expect(error.code).toBe('STORE_UNWRITABLE');
    expect(error.message).toContain('/p/.flakeguard/runs/history cannot be written');
    expect(error.message).toContain(why);
    expect(error.message).toContain(fix);
    expect(error.message).not.toContain('damaged;');
    expect(error.message).not.toContain('move it aside');
  });

  it('a store that takes the probe write is damaged as before, and the probe leaves nothing behind', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-probe-'));
    try {
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, 'PG_VERSION'), '17\n');
      expect(probeStoreWrite(folder)).toBeNull();
      expect(readdirSync(folder)).toEqual(['PG_VERSION']);
      expect(failedStoreError(folder, 'Aborted()').code).toBe('STORE_DAMAGED');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
