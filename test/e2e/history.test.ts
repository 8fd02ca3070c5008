/**
 * History end to end, on the real Vitest with the built reporter and CLI: the reporter creates the
 * embedded store on a project's first run and stores each run there, while a `history ingest` that
 * comes at the same time waits on the store's lock and loses no run; `flakeguard history` reports
 * them; `history ingest` of the same records stores nothing twice; a store that is down or newer
 * never fails the run. The reporter runs in a real Vitest; the CLI runs in this process
 * (test/helpers/in-process-cli.ts; test/e2e/cli-smoke.test.ts spawns each command once). The one
 * store creation here is the reporter's (the subject: no template copy); the CLI's, when a damaged
 * store was moved aside, is test/e2e/bad-input/stores-locks.test.ts's.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_SCHEMA_VERSION } from '../../src/core/history/history-schema.js';
import { describeMachine } from '../../src/core/record/machine.js';
import { readMachineIdentity } from '../../src/io/machine.js';
import { makeRecord } from '../core/history/history-factories.js';
import { createFixture, type Fixture, vitestConfigWithReporter } from '../helpers/fixture.js';
import { flakeguardInProcess, runCliInProcess } from '../helpers/in-process-cli.js';
import { schemaErrors } from '../helpers/schema-check.js';

// Fails its first try in every process (a counter file), passes the retry: flaky, deterministically.
const FLAKY_TEST = `import { expect, test } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
test('first try fails', () => {
  const file = new URL('./.tries-' + process.pid, import.meta.url);
  const tries = existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0;
  writeFileSync(file, String(tries + 1));
  expect(tries, 'read ECONNRESET: the first request of the process').toBeGreaterThan(0);
});
test('steady', () => {
  expect(1 + 1).toBe(2);
});
`;

const files = (history: string) => ({
  'flakeguard.yaml': `budget:\n  test: 2s\n${history}`,
  'vitest.config.ts': vitestConfigWithReporter('retry: 1'),
  'test/flaky.test.ts': FLAKY_TEST,
});

describe('history with the embedded store', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await createFixture({ files: files('history: true\n') });
  });
  afterAll(() => fx?.remove());

  it('the first run creates the store while an ingest waits on its lock; every run is stored, none lost', async () => {
    // Records of another branch for the ingest that comes while the reporter creates the store.
    for (let r = 0; r < 3; r += 1) {
      const record = makeRecord({
        runId: `side-${r}`,
        startedAt: new Date().toISOString(),
        tests: [{ name: `case ${r}` }, { name: 'shared' }],
      });
      fx.write(`artifacts/${record.runId}.json`, JSON.stringify(record));
    }
    // No template copy: the reporter of the first run creates the store, holding its lock (the
    // cache folder beside the records folder) from before PGlite's initdb until the run is stored.
    const lock = path.join(fx.root, '.flakeguard/cache/history.lock');
    let ended = false;
    const first = fx.vitest([], { FLAKEGUARD_BRANCH: 'main' }).finally(() => {
      ended = true;
    });
    while (!existsSync(lock) && !ended) await sleep(20);
    // In this process (a second process on the store); not counted as a creation: the reporter makes it.
    const ingest = await runCliInProcess(fx.root, ['history', 'ingest', 'artifacts', '--branch', 'side']);
    const run = await first;
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toContain('flakeguard: history <root>/.flakeguard/runs/history: run stored');
    expect(ingest.exitCode, ingest.output).toBe(0);
    expect(ingest.stderr).toMatch(/^flakeguard: notice: waiting for history store \S+: in use by process \d+/m);
    expect(ingest.stdout).toContain('3 run records read, 3 stored, 0 already there');
    const side = await flakeguardInProcess(fx, ['history', '--json', '--branch', 'side', '--file', 'test']);
    expect(JSON.parse(side.stdout)).toMatchObject({ runs: 3 });
    expect((JSON.parse(side.stdout) as { tests: unknown[] }).tests).toHaveLength(4);
  });

  it('stores every run; the report shows the test that passed only on retry; ingesting the records again stores nothing', async () => {
    const second = await fx.vitest([], { FLAKEGUARD_BRANCH: 'main' });
    expect(second.exitCode, second.output).toBe(0);
    expect(second.output).toContain('flakeguard: history <root>/.flakeguard/runs/history: run stored');
    const json = await flakeguardInProcess(fx, ['history', '--json', '--branch', 'main', '--test', 'first try']);
    expect(json.exitCode, json.output).toBe(0);
    const report = JSON.parse(json.stdout) as { version: number; runs: number; tests: Record<string, unknown>[] };
    expect(report.version).toBe(2);
    expect(schemaErrors('history-report', report)).toEqual([]);
    expect(report.runs).toBe(2);
    expect(report.tests).toHaveLength(1);
    expect(report.tests[0]).not.toHaveProperty('name');
    expect(report.tests[0]).toMatchObject({
      file: 'test/flaky.test.ts',
      fullName: 'first try fails',
      runs: 2,
      failedRuns: 0,
      retriedRuns: 2,
      flakeRate: 1,
      limitMs: 2000,
    });
    // Both runs ran here: the machine the reporter recorded is this machine (issue 37).
    const here = readMachineIdentity();
    expect(report.tests[0]?.['machines']).toMatchObject([
      { id: here.id, cpuModel: here.cpuModel, cores: here.cores, runs: 2 },
    ]);
    // Why it flakes, inferred from the stored runs' first errors (core/cause/history-cause.ts).
    expect(report.tests[0]?.['cause']).toMatchObject({
      class: 'network',
      confidence: 'inferred',
      evidence: [{ kind: 'history', text: "2 of 2 failed runs' errors name ECONNRESET" }],
    });

    const again = await flakeguardInProcess(fx, ['history', 'ingest', '.flakeguard/runs']);
    expect(again.exitCode, again.output).toBe(0);
    expect(again.stdout).toContain('2 run records read, 0 stored, 2 already there');

    const text = await flakeguardInProcess(fx, [
      'history',
      '--branch',
      'main',
      '--html',
      'history.html',
      '--markdown',
      'history.md',
    ]);
    expect(text.exitCode, text.output).toBe(0);
    expect(text.stdout).toContain('flakeguard history since');
    expect(text.stdout).toMatch(
      /Flakiest:\n {2}test\/flaky\.test\.ts {2}first try fails\n {4}2 of 2 runs flaky \(100%\): 0 failed, 2 passed on retry/,
    );
    expect(text.stdout).toContain(`    ran on 1 machine: ${describeMachine(here)} 2 runs`);
    expect(existsSync(path.join(fx.root, 'history.html'))).toBe(true);
    expect(existsSync(path.join(fx.root, 'history.md'))).toBe(true);

    const other = await flakeguardInProcess(fx, ['history', '--json', '--branch', 'feature']);
    expect(JSON.parse(other.stdout)).toMatchObject({ runs: 0, tests: [] });
  });

  it('refuses a store written by a newer flakeguard, and the run still passes with a warning', async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create(path.join(fx.root, '.flakeguard/runs/history'));
    await db.query("UPDATE flakeguard_meta SET value = '9' WHERE key = 'schema_version'");
    await db.close();
    const query = await flakeguardInProcess(fx, ['history']);
    expect(query.exitCode).toBe(2);
    expect(query.stderr).toMatch(
      new RegExp(
        `schema version 9, written by a newer flakeguard \\(this one reads up to ${HISTORY_SCHEMA_VERSION}\\); upgrade flakeguard`,
      ),
    );
    const run = await fx.vitest();
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toMatch(
      /flakeguard: warning: the run was not stored in history \(<root>\/\.flakeguard\/runs\/history\): .*schema version 9.*load it later with flakeguard history ingest \.flakeguard\/runs\/\S+\.json/,
    );
  });
});

describe('history that cannot be reached', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await createFixture({ files: files('') });
  });
  afterAll(() => fx?.remove());

  it('a PostgreSQL store that is down: a warning, the run passes, the record is written', async () => {
    const run = await fx.vitest([], { FLAKEGUARD_HISTORY_URL: 'postgres://ci:secret@127.0.0.1:1/flakes' });
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toMatch(
      /flakeguard: warning: the run was not stored in history \(postgres:\/\/ci:\*\*\*@127\.0\.0\.1:1\/flakes\): cannot connect/,
    );
    expect(run.output).not.toContain('secret');
    expect(readdirSync(path.join(fx.root, '.flakeguard/runs')).filter((f) => f.endsWith('.json'))).toHaveLength(1);
  });

  it('history off, a bad --since, a bad URL: exit 2 with the fix, nothing written', async () => {
    const off = await flakeguardInProcess(fx, ['history']);
    expect(off.exitCode).toBe(2);
    expect(off.stderr).toMatch(
      /history is off for <root>|history is off for .*: add "history: true" to flakeguard\.yaml/,
    );
    const since = await flakeguardInProcess(fx, [
      'history',
      '--since',
      '30 days',
      '--url',
      'postgres://x@127.0.0.1:1/y',
    ]);
    expect(since.exitCode).toBe(2);
    expect(since.stderr).toContain(
      '--since "30 days" is not an age; write a number of days or weeks (30d, 12w) or a day (2026-11-01)',
    );
    const url = await flakeguardInProcess(fx, ['history', 'ingest', '.flakeguard/runs'], {
      FLAKEGUARD_HISTORY_URL: 'mysql://db/x',
    });
    expect(url.exitCode).toBe(2);
    expect(url.stderr).toContain('FLAKEGUARD_HISTORY_URL="mysql://db/x" is not a PostgreSQL URL');
    const missing = await flakeguardInProcess(fx, ['history', 'ingest', 'nope'], {
      FLAKEGUARD_HISTORY_URL: 'postgres://x@127.0.0.1:1/y',
    });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('nope: no such run record or folder (ENOENT)');
  });
});
