/**
 * Quarantine end to end, with the real Vitest and flakeguard's reporter in a git fixture: a failing
 * quarantined test still runs and is listed, and the run is green; another failure still fails the
 * run; once the quarantine has expired the test fails the run again and the report says since when;
 * the quarantine follows a renamed test; check finds the entry of a deleted test and remove drops it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createFixture,
  type Fixture,
  fixtureCopies,
  type RunResult,
  vitestConfigWithReporter,
} from '../helpers/fixture.js';
import { ingestEarlierRuns, seedHistoryStore } from '../helpers/history-template.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';
import { schemaErrors } from '../helpers/schema-check.js';
import { lastLine, records } from '../reporter/reporter-fixture.js';

const API = (title: string, extra = '') => `import { describe, expect, it } from 'vitest';

describe('api', () => {
  it(${JSON.stringify(title)}, () => {
    expect('aborted late').toBe('aborted');
  });

  it('answers', () => {
    expect(1 + 1).toBe(2);
  });
${extra}});
`;

/** The git fixture with the entry added through the CLI and committed: made once per file (beforeAll). */
async function makeTemplate(): Promise<Fixture> {
  const fx = await createFixture({
    git: true,
    files: {
      'vitest.config.ts': vitestConfigWithReporter(),
      'flakeguard.yaml': 'budget:\n  test: 5s\n',
      'test/api.test.ts': API('aborts a slow request'),
    },
  });
  const add = await flakeguardInProcess(fx, [
    'quarantine',
    'add',
    '--file',
    'test/api.test.ts',
    '--test',
    'api > aborts a slow request',
    '--reason',
    'fails about 1 in 30 runs on CI; owner: web team',
    '--expires',
    '2999-01-01',
    '--link',
    'https://tracker.example/T-19',
  ]);
  expect(add.exitCode, add.output).toBe(0);
  await fx.git(['add', '-A']);
  await fx.git(['commit', '-qm', 'quarantine the abort test']);
  return fx;
}

/** Each test's own copy of the template (the tests change it independently). */
const setup = fixtureCopies(makeTemplate);

const storeFile = (fx: Fixture): string => path.join(fx.root, 'allowances/test/api.test.ts.yaml');

/**
 * The template's run with history on, made once for the two tests that read it: two earlier runs in
 * which the test failed are ingested (records as the reporter writes them); the real run then reads
 * them from the store at its start and counts itself.
 */
let withHistory: Promise<{ fx: Fixture; run: RunResult }> | undefined;
const historyFixtures: Fixture[] = [];
afterAll(() => {
  for (const fx of historyFixtures) fx.remove();
});
function runWithHistory(): Promise<{ fx: Fixture; run: RunResult }> {
  withHistory ??= (async () => {
    const fx = await setup();
    const own = fx.copy();
    historyFixtures.push(own);
    writeFileSync(path.join(own.root, 'flakeguard.yaml'), 'budget:\n  test: 5s\nhistory: true\n');
    seedHistoryStore(own.root);
    await ingestEarlierRuns(own, [
      { file: 'test/api.test.ts', name: 'api > aborts a slow request', state: 'failed' },
      { file: 'test/api.test.ts', name: 'api > answers' },
    ]);
    return { fx: own, run: await own.vitest() };
  })();
  return withHistory;
}

describe('quarantine', () => {
  // The run of runWithHistory: history on changes the block's note, not what it shows here.
  it('a failing quarantined test runs, is listed, and leaves the run green', async () => {
    const { fx, run } = await runWithHistory();
    expect(run.exitCode, run.output).toBe(0);
    expect(run.stdout).toContain('Quarantined (still run; their failures do not fail the run):');
    expect(run.stdout).toMatch(
      /quarantined {2}test\/api\.test\.ts:4 {2}api > aborts a slow request {2}failed under quarantine [0-9a-f]+ until 2999-01-01: fails about 1 in 30 runs/,
    );
    expect(lastLine(run.stdout)).toContain('1 quarantined test failed (not counted)');
    const [record] = records(fx);
    const test = record?.tests.find((t) => t.fullName === 'api > aborts a slow request');
    expect(test?.state).toBe('failed');
    expect(test?.quarantine).toMatchObject({
      expires: '2999-01-01',
      expired: false,
      link: 'https://tracker.example/T-19',
    });
    expect(record?.verdict).toMatchObject({ red: false, excusedByQuarantine: true });
  });

  it('an expired quarantine no longer applies and the report says since when', async () => {
    const fx = await setup();
    const text = readFileSync(storeFile(fx), 'utf8');
    writeFileSync(storeFile(fx), text.replace('2999-01-01', '2020-01-31'));
    const run = await fx.vitest();
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(
      /failed {2}test\/api\.test\.ts:4 {2}api > aborts a slow request .*\(its quarantine [0-9a-f]+ expired on 2020-01-31: .*; it fails the run again\)/,
    );
    expect(lastLine(run.stdout)).toBe('flakeguard: run failed: 1 failing test');
  });

  // One run shows both: the quarantine follows the renamed test (its failure is excused), and another
  // failing test still fails the run (the only failure counted).
  it('follows the test when its title is renamed, with no migrate; another failing test still fails the run', async () => {
    const fx = await setup();
    writeFileSync(
      path.join(fx.root, 'test/api.test.ts'),
      API('aborts a request that is too slow', `\n  it('counts', () => {\n    expect(2).toBe(3);\n  });\n`),
    );
    await fx.git(['commit', '-qam', 'retitle']);
    const run = await fx.vitest();
    expect(run.exitCode, run.output).toBe(1);
    expect(run.stdout).toContain('api > aborts a request that is too slow  failed under quarantine');
    expect(lastLine(run.stdout)).toBe('flakeguard: run failed: 1 failing test');
  });

  it('list shows it; check reports it once its test is gone; remove drops it', async () => {
    const fx = await setup();
    const list = await flakeguardInProcess(fx, ['quarantine', 'list', '--json']);
    expect(list.exitCode, list.output).toBe(0);
    expect(schemaErrors('quarantine-list', JSON.parse(list.stdout))).toEqual([]);
    const rows = (
      JSON.parse(list.stdout) as {
        quarantines: { id: string; fullName: string; expires: string | null; link: string | null; state: string }[];
      }
    ).quarantines;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      fullName: 'api > aborts a slow request',
      expires: '2999-01-01',
      link: 'https://tracker.example/T-19',
      state: 'applies',
    });
    expect((await flakeguardInProcess(fx, ['quarantine', 'check'])).exitCode).toBe(0);

    writeFileSync(
      path.join(fx.root, 'test/api.test.ts'),
      `import { it, expect } from 'vitest';\nit('answers', () => expect(2).toBe(2));\n`,
    );
    const check = await flakeguardInProcess(fx, ['quarantine', 'check']);
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toContain('api > aborts a slow request');
    const id = rows[0]?.id ?? '';
    const remove = await flakeguardInProcess(fx, ['quarantine', 'remove', '--id', id]);
    expect(remove.exitCode, remove.output).toBe(0);
    expect(JSON.parse((await flakeguardInProcess(fx, ['quarantine', 'list', '--json'])).stdout)).toMatchObject({
      version: 2,
      quarantines: [],
    });
  });

  // The ordinals and the singular are formatted in test/core/quarantine/quarantine.test.ts.
  it("with history on, the block counts the test's recent failures from the store", async () => {
    const { run: third } = await runWithHistory();
    expect(third.exitCode, third.output).toBe(0);
    expect(third.stdout).toMatch(
      /api > aborts a slow request {2}failed under quarantine [0-9a-f]+ until 2999-01-01: .*; 3rd failure in the last 3 runs; /,
    );
  });

  it('refuses a quarantine without a reason or with a bad date, and changes no file', async () => {
    const fx = await setup();
    const before = readFileSync(storeFile(fx), 'utf8');
    const noReason = await flakeguardInProcess(fx, [
      'quarantine',
      'add',
      '--file',
      'test/api.test.ts',
      '--test',
      'api > answers',
    ]);
    expect(noReason.exitCode).toBe(2);
    expect(noReason.stderr).toContain('--reason');
    const badDate = await flakeguardInProcess(fx, [
      'quarantine',
      'add',
      '--file',
      'test/api.test.ts',
      '--test',
      'api > answers',
      '--reason',
      'x',
      '--expires',
      '2027-02-30',
    ]);
    expect(badDate.exitCode).toBe(2);
    expect(badDate.stderr).toContain('2027-02-30');
    expect(readFileSync(storeFile(fx), 'utf8')).toBe(before);
  });
});
