/**
 * Bad input catalogue: messages name the path the user can fix (issue 48, finding 14). A folder
 * given to `quarantine add --file` is named as that --file, not as "a path (read)"; an allowance
 * folder that cannot be written (immutable as root, read-only otherwise) is named, not the lock's
 * private temporary file inside it. Needs `npm run build`.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Fixture } from '../../helpers/fixture.js';
import { A_ADDS, A_OLD, createGateFixture } from '../gate-fixtures.js';
import { expectBadInputInProcess as expectBadInput } from './catalogue.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await createGateFixture({ 'test/a.test.ts': A_ADDS }, { 'test/a.test.ts': A_OLD });
});
afterAll(() => fx.remove());

/** chattr from PATH, or null. */
function findChattr(): string | null {
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'chattr');
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * Makes `folder` unwritable for this process: immutable (chattr +i) as root, whom permissions do not
 * stop; read-only (0555) otherwise. Returns the undo, or null when this machine cannot (root
 * without chattr or without the capability).
 */
function lockFolder(folder: string): (() => void) | null {
  if (process.getuid?.() !== 0) {
    chmodSync(folder, 0o555);
    return () => chmodSync(folder, 0o755);
  }
  const chattr = findChattr();
  if (chattr === null) return null;
  try {
    execFileSync(chattr, ['+i', folder], { stdio: 'ignore' });
  } catch {
    return null;
  }
  return () => execFileSync(chattr, ['-i', folder], { stdio: 'ignore' });
}

describe('messages that name the path to fix', () => {
  it('quarantine add --file <folder>: the --file named', async () => {
    await expectBadInput(fx, ['quarantine', 'add', '--file', 'test', '--test', 'adds', '--reason', 'r'], {
      exit: 2,
      names: ['--file test is a folder', 'pass a file'],
    });
  });

  it('an allowances/test folder that cannot be written: the folder named, not the lock temp file', async (ctx) => {
    const folder = path.join(fx.root, 'allowances/test');
    mkdirSync(folder, { recursive: true });
    const undo = lockFolder(folder);
    if (undo === null) ctx.skip('this machine cannot make a folder unwritable for root (no chattr, or no capability)');
    try {
      const run = await expectBadInput(
        fx,
        ['allowances', 'add', '--file', 'test/a.test.ts', '--test', 'adds', '--budget', '1s', '--reason', 'r'],
        { exit: 2, names: ['flakeguard: allowances/test cannot be accessed', 'check its permissions'] },
      );
      if (run.stderr.includes('.lock.')) throw new Error(`the lock's temp file is named: ${run.stderr}`);
    } finally {
      undo?.();
    }
  });
});
