/**
 * Files written by flakeguard 0.1.0 still read: two run records and the embedded history store a
 * real 0.1.0 reporter wrote (commit 12b0dbd, built in a temp worktree) from the fixture project in
 * test/fixtures/0.1.0/project (two Vitest projects, `node` and `edge`, holding the same file; a
 * passing, a flaky, a failing and a skipped test), run twice. The store is the PGlite folder as a
 * brotli-compressed tar (1.3 MB; the folder is 39 MB, mostly PostgreSQL's own catalogs and WAL).
 * Its history schema is version 2: today's (3: the runs' machine, issue 37) migrates it on open, and
 * this file says so when it cannot. Read with today's code in this process (test/helpers/in-process-cli.ts).
 */
import { cpSync, createReadStream, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { extract } from 'tar-fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRunRecord } from '../../src/io/record/run-record-file.js';
import { createFixture, type Fixture } from '../helpers/fixture.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';

const OLD = path.resolve(import.meta.dirname, '../fixtures/0.1.0');
const RECORDS = ['run-record-first.json', 'run-record-second.json'];

describe('run records and a history store written by 0.1.0', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await createFixture({
      files: {
        'flakeguard.yaml': readFileSync(path.join(OLD, 'project/flakeguard.yaml'), 'utf8'),
        'test/cart.test.ts': readFileSync(path.join(OLD, 'project/test/cart.test.ts'), 'utf8'),
      },
    });
    const runs = path.join(fx.root, '.flakeguard/runs');
    mkdirSync(path.join(runs, 'history'), { recursive: true });
    for (const name of RECORDS) cpSync(path.join(OLD, name), path.join(runs, name));
    await pipeline(
      createReadStream(path.join(OLD, 'history-store.tar.br')),
      createBrotliDecompress(),
      extract(path.join(runs, 'history')),
    );
  });
  afterAll(() => fx?.remove());

  it('reads the run records: every test with its project, file and full name', () => {
    for (const name of RECORDS) {
      expect(JSON.parse(readFileSync(path.join(OLD, name), 'utf8'))).toMatchObject({ version: 1 });
      // Read as the current version: 0.1.0's `name` is `fullName`.
      const record = readRunRecord(path.join(OLD, name));
      expect(record.version).toBe(2);
      expect(record.tests).toHaveLength(10);
      const ids = record.tests.map((t) => `${t.project}|${t.file}|${t.fullName}|${t.state}`);
      for (const project of ['node', 'edge'])
        expect(ids).toEqual(
          expect.arrayContaining([
            `${project}|test/cart.test.ts|cart > adds an item|passed`,
            `${project}|test/cart.test.ts|cart > retries once|passed`,
            `${project}|test/cart.test.ts|cart > totals the order|failed`,
            `${project}|test/cart.test.ts|cart > applies a coupon|skipped`,
          ]),
        );
    }
  });

  it('triages the newest record: the failing test is an escape, the retried one a flake, in each of its two projects', async () => {
    const triage = await flakeguardInProcess(fx, ['triage', '--json', '--no-history']);
    expect(triage.exitCode, triage.output).toBe(1);
    const report = JSON.parse(triage.stdout) as {
      findings: { class: string; project: string | null; fullName: string; file: string }[];
    };
    expect(report.findings.map((f) => [f.class, f.file, f.project, f.fullName])).toEqual([
      ['escape', 'test/cart.test.ts', 'edge', 'cart > totals the order'],
      ['escape', 'test/cart.test.ts', 'node', 'cart > totals the order'],
      ['flake', 'test/cart.test.ts', 'edge', 'cart > retries once'],
      ['flake', 'test/cart.test.ts', 'node', 'cart > retries once'],
    ]);
  });

  it('opens the store (migrating it), reports both runs per project, and ingests the records once', async () => {
    const history = await flakeguardInProcess(fx, ['history', '--json', '--since', '2026-12-01']);
    expect(history.exitCode, history.output).toBe(0);
    const report = JSON.parse(history.stdout) as {
      runs: number;
      tests: {
        project: string;
        file: string;
        fullName: string;
        runs: number;
        flakyRuns: number;
        failedRuns: number;
        machines: unknown[];
      }[];
    };
    expect(report.runs).toBe(2);
    // 0.1.0 recorded no machine: its runs are one entry with none.
    for (const t of report.tests)
      expect(t.machines).toMatchObject([{ id: null, cpuModel: null, cores: null, runs: t.runs }]);
    const retried = report.tests.filter((t) => t.fullName === 'cart > retries once');
    expect(retried.map((t) => [t.project, t.file, t.runs, t.flakyRuns]).sort()).toEqual([
      ['edge', 'test/cart.test.ts', 2, 2],
      ['node', 'test/cart.test.ts', 2, 2],
    ]);
    const ingest = await flakeguardInProcess(fx, ['history', 'ingest', '.flakeguard/runs']);
    expect(ingest.exitCode, ingest.output).toBe(0);
    expect(ingest.stdout).toContain('2 run records read, 0 stored, 2 already there');
  });
});
