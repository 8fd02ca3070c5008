/**
 * `flakeguard history`'s arguments, run in this process (test/helpers/in-process-cli.ts): the
 * history commands parse with the shared option tables (src/commands/command-args.ts), and each
 * usage error is one stderr line that names the bad argument and points at --help, exit 2. No
 * store is opened: every case fails, or prints its help, before the store's place is resolved.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/in-process-cli.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-history-args-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('flakeguard history: usage errors', () => {
  it.each([
    [['history', '--nope'], "Unknown option '--nope'; see flakeguard history --help"],
    [
      ['history', 'stray'],
      'unknown history command "stray"; use ingest, prune, or flags for a query; see flakeguard history --help',
    ],
    [['history', '--json', '--markdown', 'h.md'], '--json and --markdown are exclusive; see flakeguard history --help'],
    [['history', '--top', '0'], '--top "0" must be a whole number from 1 to 10000; see flakeguard history --help'],
    [['history', 'prune'], 'history prune needs --keep, e.g. --keep 90d; see flakeguard history --help'],
    [['history', 'prune', '--keep', 'soon'], expect.stringContaining('--keep "soon"')],
    [['history', 'prune', '--test', 'x'], expect.stringContaining("Unknown option '--test'")],
    [
      ['history', 'ingest'],
      'history ingest needs run records or folders of them, e.g. flakeguard history ingest .flakeguard/runs; see flakeguard history --help',
    ],
    [['history', 'ingest', 'a.json', '--keep', '9d'], expect.stringContaining("Unknown option '--keep'")],
    [['history', '--url', 'mysql://x'], expect.stringContaining('--url "mysql://x" is not a PostgreSQL URL')],
  ])('flakeguard %j: exit 2 and one line', async (args, line) => {
    const run = await runCliInProcess(root, args);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).not.toContain('\n');
    expect(run.stderr.replace(/^flakeguard: /, '')).toEqual(line);
  });

  it.each([
    [
      ['history', '--help'],
      ['flakeguard history [options]', '--quarantine-above <percent>', '--url <postgres url>'],
    ],
    [
      ['history', 'prune', '-h'],
      ['flakeguard history prune --keep 90d [options]', '--dry-run', '--root <dir>'],
    ],
    [
      ['history', 'ingest', '--help'],
      ['flakeguard history ingest <run record or folder>... [options]', '--job <id>'],
    ],
  ])('flakeguard %j: the help from the option table, exit 0', async (args, names) => {
    const run = await runCliInProcess(root, args);
    expect(run.exitCode).toBe(0);
    for (const name of names) expect(run.stdout).toContain(name);
    expect(run.stderr).toBe('');
  });
});
