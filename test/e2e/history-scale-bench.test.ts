/**
 * bench/history-scale.mjs --keep (issue 38): a store built once into the folder is reused by the
 * next run, a half-built one (no marker) is built again, and --keep asks for the embedded engine.
 * Tiny sizes: what is checked is the bench's own logic, not a timing.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BENCH = path.resolve(import.meta.dirname, '../../bench/history-scale.mjs');
const SHAPE = ['--tests', '4', '--samples', '1', '--engine', 'embedded'];

const folders: string[] = [];
const keepFolder = () => {
  const keep = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-keep-'));
  folders.push(keep);
  return keep;
};
afterAll(() => {
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});

const bench = (args: readonly string[]) => execa(process.execPath, [BENCH, ...SHAPE, ...args], { reject: false });

describe('bench/history-scale.mjs --keep', () => {
  // One size a run: each store's first open costs PGlite's initdb, seconds. The first run builds the
  // kept store once (its own hook), and the tests read what it printed and left.
  let keep = '';
  let first: Awaited<ReturnType<typeof bench>> | undefined;
  beforeAll(async () => {
    keep = keepFolder();
    first = await bench(['--sizes', '200', '--keep', keep]);
  }, 60_000);

  it('builds a store into the folder with the marker that vouches for it, and ingests nothing into it', () => {
    expect(first?.exitCode, first?.stderr).toBe(0);
    expect(first?.stdout).toMatch(/^built 202 results in 56 runs/m);
    expect(first?.stdout).toMatch(/^ {2}200: history \(default list, 30d\): p50 /m);
    expect(first?.stdout).toContain('ingest: not measured (--keep');
    const marker = JSON.parse(readFileSync(path.join(keep, 'embedded-200-4t-250d.json'), 'utf8'));
    expect(marker).toMatchObject({ results: 202, runs: 56 });
    expect(Date.now() - Date.parse(marker.builtAt)).toBeLessThan(60_000);
  });

  it('reuses the kept store on the next run', async () => {
    const second = await bench(['--sizes', '200', '--keep', keep]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stdout).not.toMatch(/^built/m);
    expect(second.stdout).toMatch(
      new RegExp(
        `^kept store ${path.join(keep, 'embedded-200-4t-250d')}: 202 results in 56 runs, built \\S+ \\(0\\.0 h ago\\)`,
        'm',
      ),
    );
    expect(second.stdout).toMatch(/^ {2}200: history \(default list, 30d\): p50 /m);
  });

  it('builds again a store its marker does not vouch for (a build stopped half-way)', async () => {
    const keep = keepFolder();
    const half = path.join(keep, 'embedded-200-4t-250d');
    mkdirSync(half);
    writeFileSync(path.join(half, 'PG_VERSION'), '17\n');
    const run = await bench(['--sizes', '200', '--keep', keep]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^built 202 results in 56 runs/m);
    expect(readFileSync(path.join(half, 'PG_VERSION'), 'utf8')).not.toBe('17\n');
    expect(JSON.parse(readFileSync(`${half}.json`, 'utf8'))).toMatchObject({ results: 202, runs: 56 });
  }, 30_000);

  it('refuses --keep with PostgreSQL, naming the fix', async () => {
    const run = await execa(process.execPath, [BENCH, '--keep', os.tmpdir()], { reject: false });
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toContain('kept stores are embedded ones; add --engine embedded, or drop --keep');
  });
});
