/**
 * A team's PostgreSQL store, on a real engine the test starts (test/io/history/postgres-server.ts):
 * 4 `flakeguard history ingest` processes writing at once (on 2 cores, more than run at a time) lose
 * no row and store a record they all hold once; the reporter writes its run there through
 * FLAKEGUARD_HISTORY_URL.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHistoryStore } from '../../src/io/history/history-store.js';
import { makeRecord } from '../core/history/history-factories.js';
import { CLI_BUILT, createFixture, vitestConfigWithReporter } from '../helpers/fixture.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';
import { countProcess } from '../helpers/process-budget.js';
import { type PostgresServer, startPostgres } from '../io/history/postgres-server.mjs';

const WRITERS = 4;
const RECORDS_EACH = 5;
const TESTS = 200;

let server: PostgresServer;
let scratch: string;
beforeAll(async () => {
  server = await startPostgres();
  scratch = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-pgw-'));
});
afterAll(async () => {
  await server?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function counts(): Promise<{ runs: number; results: number; tests: number }> {
  const store = await openHistoryStore({ kind: 'postgres', url: server.url });
  try {
    const [row] = await store.query<{ runs: number; results: number; tests: number }>(
      `SELECT (SELECT count(*) FROM flakeguard_runs)::int AS runs, (SELECT count(*) FROM flakeguard_results)::int AS results,
        (SELECT count(*) FROM flakeguard_tests)::int AS tests`,
    );
    return row!;
  } finally {
    await store.close();
  }
}

describe('history in PostgreSQL', () => {
  it('4 processes ingesting at once into a new store: no row lost, a shared record stored once', async () => {
    const tests = (writer: number) =>
      Array.from({ length: TESTS }, (_, i) => ({
        file: `test/f${i % 20}.test.ts`,
        name: `suite > case ${i}${i % 10 === 0 ? ` of writer ${writer}` : ''}`,
        durationMs: 10 + i,
      }));
    const shared = makeRecord({ runId: 'shared-run', startedAt: new Date().toISOString(), tests: tests(-1) });
    const folders = Array.from({ length: WRITERS }, (_, w) => {
      const folder = path.join(scratch, `writer-${w}`);
      mkdirSync(folder, { recursive: true });
      for (let r = 0; r < RECORDS_EACH; r += 1) {
        const record = makeRecord({
          runId: `w${w}-r${r}`,
          startedAt: new Date(Date.now() - r * 60_000).toISOString(),
          tests: tests(w),
        });
        writeFileSync(path.join(folder, `${record.runId}.json`), JSON.stringify(record));
      }
      writeFileSync(path.join(folder, 'shared-run.json'), JSON.stringify(shared));
      return folder;
    });
    const runs = await Promise.all(
      folders.map((folder) => {
        countProcess('cli');
        return execa(
          process.execPath,
          [CLI_BUILT, 'history', 'ingest', folder, '--url', server.url, '--branch', 'main'],
          { reject: false, cwd: scratch },
        );
      }),
    );
    for (const run of runs) expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
    const stored = runs.map((r) => Number(/(\d+) stored/.exec(r.stdout)?.[1]));
    expect(stored.reduce((a, b) => a + b, 0)).toBe(WRITERS * RECORDS_EACH + 1);
    // 180 names every writer shares plus 20 of its own, and the shared record's own 20.
    expect(await counts()).toEqual({
      runs: WRITERS * RECORDS_EACH + 1,
      results: (WRITERS * RECORDS_EACH + 1) * TESTS,
      tests: 180 + 20 * (WRITERS + 1),
    });
  });

  it('the reporter stores its run in the store FLAKEGUARD_HISTORY_URL names, and history reads it back', async () => {
    const before = await counts();
    const fx = await createFixture({
      files: {
        'vitest.config.ts': vitestConfigWithReporter(),
        'test/one.test.ts': "import { test } from 'vitest';\ntest('one', () => {});\ntest('two', () => {});\n",
      },
    });
    try {
      const run = await fx.vitest([], { FLAKEGUARD_HISTORY_URL: server.url, FLAKEGUARD_BRANCH: 'team' });
      expect(run.exitCode, run.output).toBe(0);
      expect(run.output).toMatch(/flakeguard: history postgres:\/\/\S+: run stored/);
      expect((await counts()).runs).toBe(before.runs + 1);
      const report = await flakeguardInProcess(fx, ['history', '--json', '--branch', 'team', '--file', 'test'], {
        FLAKEGUARD_HISTORY_URL: server.url,
      });
      expect(report.exitCode, report.output).toBe(0);
      expect(JSON.parse(report.stdout)).toMatchObject({
        runs: 1,
        tests: [
          { fullName: 'one', runs: 1 },
          { fullName: 'two', runs: 1 },
        ],
      });
    } finally {
      fx.remove();
    }
  });
});
