/**
 * The bad-input catalogue's one assertion: flakeguard, given bad input, exits with the expected code,
 * says what was wrong in one line that names the bad value and the fix (no stack), and leaves every
 * user file as it was (each file of the fixture hashed before and after, one above 1 MiB by its size,
 * inode and change times; node_modules, .git and the run records that Vitest's reporter writes are
 * not the user's files).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Fixture, RunResult } from '../../helpers/fixture.js';
import { runCliInProcess } from '../../helpers/in-process-cli.js';

const NOT_USER_FILES = new Set(['node_modules', '.git', '.flakeguard']);

/** Above this size a file is fingerprinted by its size, inode and change times, not read (the 300 MiB inputs). */
const READ_LIMIT = 1024 * 1024;

/** What a file is now: sha256 of its bytes, or for a big file its size, inode, mtime and ctime (any write changes them). */
function fingerprint(file: string): string {
  const stat = statSync(file, { bigint: true });
  if (stat.size > READ_LIMIT) return `size ${stat.size} ino ${stat.ino} mtime ${stat.mtimeNs} ctime ${stat.ctimeNs}`;
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** sha256 of every file under `root` by its relative path (a big file: its fingerprint). */
export function hashFiles(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (NOT_USER_FILES.has(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out[path.relative(root, full).split(path.sep).join('/')] = fingerprint(full);
    }
  };
  walk(root);
  return out;
}

export interface Expected {
  readonly exit: number;
  /** Texts the message line must contain: the bad value (as the message quotes it) and the fix. */
  readonly names: readonly string[];
  readonly env?: Record<string, string>;
  /**
   * Run the CLI inside the test's process (test/helpers/in-process-cli.ts) instead of spawning the
   * built one: for the tables whose subject is the message and the exit code, not the process.
   */
  readonly inProcess?: boolean;
}

/** The one `flakeguard: ...` line of stderr (a message that spans lines fails here). */
export function messageLine(run: RunResult): string {
  const lines = run.stderr.split('\n').filter((l) => l.startsWith('flakeguard: '));
  expect(lines, run.stderr).toHaveLength(1);
  return lines[0] ?? '';
}

/** `expectBadInput` with the CLI run in this process. */
export function expectBadInputInProcess(fx: Fixture, args: readonly string[], expected: Expected): Promise<RunResult> {
  return expectBadInput(fx, args, { ...expected, inProcess: true });
}

/** Runs `flakeguard ...args` in the fixture and checks the catalogue's promises; returns the run. */
export async function expectBadInput(fx: Fixture, args: readonly string[], expected: Expected): Promise<RunResult> {
  const before = hashFiles(fx.root);
  const run = expected.inProcess
    ? await runCliInProcess(fx.root, args, expected.env)
    : await fx.flakeguard(args, expected.env);
  expect(run.exitCode, run.output).toBe(expected.exit);
  const line = messageLine(run);
  for (const text of expected.names) expect(line).toContain(text);
  expect(line.length, line).toBeLessThanOrEqual(400);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stderr).not.toContain('\u001b[');
  expect(hashFiles(fx.root)).toEqual(before);
  return run;
}
