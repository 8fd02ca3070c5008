/**
 * The bad-input catalogue, classes 5-7 of issue 19 (validate before work, wrong answers, stores and
 * locks): one case a line. Each case is { class, name, setup(fx), command, env? }: `setup` gets the
 * fixture (root, write, git, vitest) made by ./run-cases.mjs and may prepare it; `command` is the
 * flakeguard arguments. Run: node bench/catalogue/run-cases.mjs (after npm run build).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

const deadPid = () =>
  Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).toString());
const ADD = ['--file', 'test/a.test.ts', '--test', 'adds'];
const withStore = async (fx) => {
  await fx.vitest();
  mkdirSync(path.join(fx.root, '.flakeguard/cache'), { recursive: true });
};

export const cases = [
  // Class 5: validate before work.
  {
    class: 5,
    name: 'bad FLAKEGUARD_HISTORY_URL stops the gate before any try',
    command: ['gate', '--base', 'main', '--tries', '1', '--load', '0'],
    env: { FLAKEGUARD_HISTORY_URL: 'mysql://db.example/x' },
  },
  {
    class: 5,
    name: 'bad FLAKEGUARD_HISTORY_URL stops triage before reading',
    command: ['triage', '--junit', 'reports/junit.xml'],
    env: { FLAKEGUARD_HISTORY_URL: 'mysql://db.example/x' },
  },
  {
    class: 5,
    name: 'bad FLAKEGUARD_HISTORY_URL stops ingest before reading files',
    command: ['history', 'ingest', 'nothing'],
    env: { FLAKEGUARD_HISTORY_URL: 'mysql://db.example/x' },
  },
  {
    class: 5,
    name: 'allowances add --expires in the past',
    command: ['allowances', 'add', ...ADD, '--budget', '2s', '--reason', 'r', '--expires', '2020-01-01'],
  },
  {
    class: 5,
    name: 'quarantine add --expires in the past',
    command: ['quarantine', 'add', ...ADD, '--reason', 'r', '--expires', '2020-01-01'],
  },
  { class: 5, name: 'history prune --keep 99999999d', command: ['history', 'prune', '--keep', '99999999d'] },
  { class: 5, name: 'history --since 99999999d', command: ['history', '--since', '99999999d'] },
  { class: 5, name: 'history prune --keep -1d', command: ['history', 'prune', '--keep', '-1d'] },
  { class: 5, name: 'history --since a future day', command: ['history', '--since', '2999-01-01'] },
  { class: 5, name: 'history --release-after 1e20', command: ['history', '--release-after', '99999999999999999999'] },
  { class: 5, name: 'gate --budget 99999999h', command: ['gate', '--budget', '99999999h'] },
  {
    class: 5,
    name: 'triage --rerun 99999999',
    command: ['triage', '--junit', 'reports/junit.xml', '--rerun', '99999999'],
  },
  // Class 6: wrong answers.
  { class: 6, name: '--root /nonexistent (gate)', command: ['gate', '--root', '/nonexistent-flakeguard'] },
  { class: 6, name: '--root /nonexistent (history)', command: ['history', '--root', '/nonexistent-flakeguard'] },
  {
    class: 6,
    name: 'gate --root api below flakeguard.yaml: the config root sees the change (runs it)',
    setup: (fx) => fx.write('api/package.json', '{"name":"api","type":"module"}'),
    command: ['gate', '--base', 'main', '--root', 'api'],
  },
  {
    class: 6,
    name: 'triage of a green run whose only failure is quarantined',
    setup: async (fx) => {
      fx.write('test/q.test.ts', "import { expect, it } from 'vitest';\nit('bad', () => { expect(1).toBe(2); });\n");
      await fx.flakeguard(['quarantine', 'add', '--file', 'test/q.test.ts', '--test', 'bad', '--reason', 'TRK-1']);
      await fx.vitest();
    },
    command: ['triage'],
  },
  ...['--report', '--junit'].map((flag) => ({
    class: 6,
    name: `triage ${flag} of a green run whose only failure is quarantined (the checkout's quarantine applies)`,
    setup: async (fx) => {
      fx.write('test/q.test.ts', "import { expect, it } from 'vitest';\nit('bad', () => { expect(1).toBe(2); });\n");
      await fx.flakeguard(['quarantine', 'add', '--file', 'test/q.test.ts', '--test', 'bad', '--reason', 'TRK-1']);
      await fx.vitest([
        '--reporter=json',
        '--outputFile.json=out/run.json',
        '--reporter=junit',
        '--outputFile.junit=out/run.xml',
      ]);
    },
    command: ['triage', flag, flag === '--report' ? 'out/run.json' : 'out/run.xml'],
  })),
  {
    class: 6,
    name: 'triage of a jest-junit file gives no npx vitest run',
    setup: (fx) =>
      fx.write(
        'reports/jest.xml',
        '<testsuites name="jest tests"><testsuite name="m"><testcase classname="m adds" name="m adds"><failure>boom</failure></testcase></testsuite></testsuites>\n',
      ),
    command: ['triage', '--junit', 'reports/jest.xml'],
  },
  // Class 7: stores and locks.
  {
    class: 7,
    name: 'empty history.lock is stale (notice, then the query)',
    setup: async (fx) => {
      await withStore(fx);
      writeFileSync(path.join(fx.root, '.flakeguard/cache/history.lock'), '');
    },
    command: ['history'],
  },
  {
    class: 7,
    name: 'garbage allowance lock is stale',
    setup: (fx) => {
      mkdirSync(path.join(fx.root, 'allowances/test'), { recursive: true });
      writeFileSync(path.join(fx.root, 'allowances/test/a.test.ts.yaml.lock'), 'x');
    },
    command: ['quarantine', 'add', ...ADD, '--reason', 'r'],
  },
  {
    class: 7,
    name: 'dead owner of history.lock on this host',
    setup: async (fx) => {
      await withStore(fx);
      writeFileSync(
        path.join(fx.root, '.flakeguard/cache/history.lock'),
        `pid ${deadPid()}\nhost ${hostname()}\ntaken ${new Date().toISOString()}\ntoken feedfacefeedface\n`,
      );
    },
    command: ['history'],
  },
  {
    class: 7,
    name: 'damaged store (PG_VERSION garbage)',
    setup: async (fx) => {
      await withStore(fx);
      writeFileSync(path.join(fx.root, '.flakeguard/runs/history/PG_VERSION'), 'garbage');
    },
    command: ['history'],
  },
  {
    class: 7,
    name: 'damaged store that opens: the runs table file overwritten, a query fails',
    setup: async (fx) => {
      await withStore(fx);
      const store = path.join(fx.root, '.flakeguard/runs/history');
      const { PGlite } = await import('@electric-sql/pglite');
      const db = await PGlite.create(store);
      const file = (await db.query("SELECT pg_relation_filepath('flakeguard_runs') AS p")).rows[0].p;
      await db.close();
      writeFileSync(path.join(store, file), Buffer.alloc(8192, 'x'));
    },
    command: ['history'],
  },
  {
    class: 7,
    name: 'damaged store (global/ emptied)',
    setup: async (fx) => {
      await withStore(fx);
      const g = path.join(fx.root, '.flakeguard/runs/history/global');
      for (const f of readdirSync(g)) rmSync(path.join(g, f), { recursive: true });
    },
    command: ['history', 'prune', '--keep', '30d'],
  },
  ...[
    ['history', 'ingest'],
    ['gate', '--merge'],
    ['triage', '--record'],
  ].map((command) => ({
    class: 7,
    name: `${command.join(' ')} <a character device made here, as /dev/zero is>`,
    setup: (fx) => {
      mkdirSync(path.join(fx.root, 'devices'));
      execFileSync('mknod', [path.join(fx.root, 'devices/zero'), 'c', '1', '5']);
    },
    command: [...command, 'devices/zero'],
  })),
  {
    class: 7,
    name: 'history ingest <a FIFO>',
    setup: (fx) => {
      mkdirSync(path.join(fx.root, 'odd'));
      execFileSync('mkfifo', [path.join(fx.root, 'odd/r.json')]);
    },
    command: ['history', 'ingest', 'odd/r.json'],
  },
  {
    class: 7,
    name: 'history ingest <300 MiB sparse file>',
    setup: (fx) => {
      const f = path.join(fx.root, 'big.json');
      writeFileSync(f, '');
      truncateSync(f, 300 * 1024 * 1024);
    },
    command: ['history', 'ingest', 'big.json'],
  },
  ...['--report', '--junit'].map((flag) => ({
    class: 7,
    name: `triage ${flag} <300 MiB sparse file>`,
    setup: (fx) => {
      writeFileSync(path.join(fx.root, 'big.json'), '');
      truncateSync(path.join(fx.root, 'big.json'), 300 * 1024 * 1024);
    },
    command: ['triage', flag, 'big.json'],
  })),
];
