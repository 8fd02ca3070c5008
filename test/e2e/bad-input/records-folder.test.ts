/**
 * Bad input catalogue, class 1 (issue 19): the records folder holds run records only. Files that
 * are not run records beside them (an older flakeguard's lineage cache, another tool's JSON) are
 * skipped by every reader with one notice that never says to delete them; FLAKEGUARD_RECORDS moves
 * the folder for the reporter and every command alike. Needs `npm run build`. The commands run in
 * this process (test/helpers/in-process-cli.ts: what they read and print is the subject); the
 * reporter runs in a real Vitest; test/e2e/cli-smoke.test.ts spawns each command once. `allowances
 * list` runs without Vitest installed (withoutVitest, test/helpers/fixture.ts): it reads the records
 * folder the same way, without a Vitest started to list the test files.
 */
import { cpSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, vitestConfigWithReporter, withoutVitest } from '../../helpers/fixture.js';
import { ingestRunRecords, seedHistoryStore } from '../../helpers/history-template.js';
import { runCliInProcess } from '../../helpers/in-process-cli.js';
import { hashFiles } from './catalogue.js';

const TEST = "import { it } from 'vitest';\nit('adds', () => {});\n";
const FILES = {
  'vitest.config.ts': vitestConfigWithReporter(),
  'flakeguard.yaml': 'history: true\n',
  'test/a.test.ts': TEST,
};
/** Sort after the record's name (a run id starts with the year): plain `triage` used to take one for the newest run. */
const FOREIGN = {
  'allowance-lineage.json': '{"version":1,"entries":{}}\n',
  'zz-coverage-summary.json': '{"total":{"lines":{"pct":100}}}\n',
};

let fx: Fixture;
const recordsIn = (folder: string): string[] =>
  readdirSync(path.join(fx.root, folder))
    .filter((n) => n.endsWith('.json'))
    .map((n) => `${folder}/${n}`);

beforeAll(async () => {
  fx = await createFixture({ git: true, files: FILES });
  // A copy of the run's template store: the subject is the records folder, not the store's creation.
  seedHistoryStore(fx.root);
  // The first run with history off, its record stored by `history ingest` in this process (the code
  // the reporter stores with): no PGlite start in that Vitest. The FLAKEGUARD_RECORDS run below
  // keeps the reporter storing.
  fx.write('flakeguard.yaml', 'history: false\n');
  const run = await fx.vitest();
  expect(run.exitCode, run.output).toBe(0);
  await ingestRunRecords(fx, FILES['flakeguard.yaml']);
  await runCliInProcess(fx.root, [
    'allowances',
    'add',
    '--file',
    'test/a.test.ts',
    '--test',
    'adds',
    '--budget',
    '2s',
    '--reason',
    'x',
  ]);
  for (const [name, text] of Object.entries(FOREIGN)) fx.write(`.flakeguard/runs/${name}`, text);
});
afterAll(() => fx.remove());

interface Case {
  readonly command: string;
  readonly args: () => string[];
  /** What stdout says when the record, and only it, was read. */
  readonly read: RegExp;
  /** Run without Vitest installed (withoutVitest). */
  readonly bare?: true;
}

const CASES: readonly Case[] = [
  { command: 'triage (the newest record)', args: () => ['triage'], read: /run green|passed|no failure/i },
  {
    command: 'triage --record runs/*.json',
    args: () => ['triage', ...recordsIn('.flakeguard/runs').flatMap((f) => ['--record', f])],
    read: /run green|passed|no failure/i,
  },
  {
    command: 'history ingest <records folder>',
    args: () => ['history', 'ingest', '.flakeguard/runs'],
    read: /1 run record read, (1 stored|0 stored, 1 already there)/,
  },
  // Without Vitest installed for the while (withoutVitest): which files are tests is not the subject.
  { command: 'allowances list', args: () => ['allowances', 'list'], read: /adds/, bare: true },
];

describe('files in the records folder that are not run records', () => {
  it.each(CASES)('$command skips them with one notice and reads the record', async ({ args, read, bare }) => {
    const before = hashFiles(fx.root);
    const command = () => runCliInProcess(fx.root, args());
    const run = await (bare ? withoutVitest(fx, command) : command());
    expect(run.exitCode, run.output).toBe(0);
    expect(run.stdout, run.output).toMatch(read);
    const notices = run.stderr.split('\n').filter((l) => l.includes('not run records'));
    expect(notices, run.stderr).toHaveLength(1);
    expect(notices[0]).toContain('skipped 2 files that are not run records');
    expect(notices[0]).toContain('allowance-lineage.json');
    expect(run.output).not.toMatch(/delete/i);
    expect(hashFiles(fx.root)).toEqual(before);
    for (const name of Object.keys(FOREIGN))
      expect(existsSync(path.join(fx.root, '.flakeguard/runs', name))).toBe(true);
  });

  it('triage --record with only a file that is not a run record: exit 2, naming it, no advice to delete', async () => {
    const run = await runCliInProcess(fx.root, ['triage', '--record', '.flakeguard/runs/zz-coverage-summary.json']);
    expect(run.exitCode, run.output).toBe(2);
    expect(run.stderr).toContain('--record .flakeguard/runs/zz-coverage-summary.json: is JSON but not a run record');
    expect(run.output).not.toMatch(/delete/i);
  });
});

describe('FLAKEGUARD_RECORDS', () => {
  it('the reporter, triage, allowances and history agree on the folder it names', async () => {
    const env = { FLAKEGUARD_RECORDS: 'elsewhere/runs' };
    // The store holding the first run, copied (a new PGlite store takes half a minute to create under load).
    cpSync(path.join(fx.root, '.flakeguard/runs/history'), path.join(fx.root, 'elsewhere/runs/history'), {
      recursive: true,
    });
    const run = await fx.vitest([], env);
    expect(run.exitCode, run.output).toBe(0);
    const written = recordsIn('elsewhere/runs');
    expect(written).toHaveLength(1);
    expect(existsSync(path.join(fx.root, 'elsewhere/runs/history'))).toBe(true);
    expect(readdirSync(path.join(fx.root, 'elsewhere/runs')).filter((n) => !n.endsWith('.json'))).toEqual(['history']);
    expect(existsSync(path.join(fx.root, 'elsewhere/cache'))).toBe(true);
    // Triage takes the newest record from the folder the reporter wrote to, not .flakeguard/runs.
    const triage = await runCliInProcess(fx.root, ['triage', '--no-history'], {
      ...env,
      FLAKEGUARD_RECORDS: path.join(fx.root, 'elsewhere/runs'),
    });
    expect(triage.exitCode, triage.output).toBe(0);
    expect(triage.stderr).not.toContain('not run records');
    // The store the reporter filled is the one `history` reads: the copied run and this one.
    const history = await runCliInProcess(fx.root, ['history', '--json'], env);
    expect(history.exitCode, history.output).toBe(0);
    expect(history.stdout).toMatch(/"runs":\s*2\b/);
    const list = await withoutVitest(fx, () => runCliInProcess(fx.root, ['allowances', 'list'], env));
    expect(list.exitCode, list.output).toBe(0);
    expect(list.stderr).not.toContain('not run records');
  });
});
