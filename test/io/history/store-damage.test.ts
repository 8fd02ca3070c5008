import { describe, expect, it } from 'vitest';
import { FlakeguardError } from '../../../src/core/errors.js';
import { damagedStoreError, isStoreDamage } from '../../../src/io/history/store-damage.js';

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
