/**
 * Bad input catalogue, class 7 (issue 19): stores and locks. Locks hold their owner's pid, host and
 * time, and anything else is stale and taken over with a notice; a damaged embedded store is one
 * line naming it and the fix, whether the damage shows when it opens or only when a query reads the
 * damaged file; inputs must be regular files under a size limit (FIFOs made here, in
 * temp folders, and a character device made with mknod in the fixture's own folder: nothing under
 * /dev is read or written); history ingest stops on SIGINT/SIGTERM with 130 and leaves
 * nothing behind. Needs `npm run build`. The tables run the CLI in this process
 * (test/helpers/in-process-cli.ts: their subject is the message, the exit code and what is left
 * behind); the interrupts spawn the built CLI (the signal is the subject); test/e2e/cli-smoke.test.ts
 * spawns each command once.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLockOwner } from '../../../src/core/lock-owner.js';
import { makeRecord } from '../../core/history/history-factories.js';
import { CLI_BUILT, createFixture, type Fixture, vitestConfigWithReporter } from '../../helpers/fixture.js';
import { seedHistoryStore } from '../../helpers/history-template.js';
import { flakeguardInProcess, runCliInProcess } from '../../helpers/in-process-cli.js';
import { countProcess } from '../../helpers/process-budget.js';
import { expectBadInputInProcess, messageLine } from './catalogue.js';

let fx: Fixture;
let store: string;
let good: string;
const RUNS = '.flakeguard/runs';

function deadPid(): number {
  return Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).toString());
}

/** The one notice line about taking over `lock`. */
function noticeLine(stderr: string, lock: string): string {
  const lines = stderr
    .split('\n')
    .filter((l) => l.startsWith(`flakeguard: notice: took over the stale lock ${lock}: `));
  expect(lines, stderr).toHaveLength(1);
  return lines[0] ?? '';
}

/**
 * Puts the store back as the good copy left it. The copies keep the good copy's modification times,
 * so a file a test damaged or the engine wrote has another size or time: only those are copied back,
 * and what the good copy lacks is removed (a whole copy is a thousand files and 40 MB, and the store is
 * put back before each of the 20 tests that damage or write it).
 */
function restoreStore(): void {
  syncTree(good, store);
}

function syncTree(from: string, to: string): void {
  const wanted = new Set(readdirSync(from));
  for (const name of readdirSync(to)) if (!wanted.has(name)) rmSync(path.join(to, name), { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    const there = lstatSync(target, { throwIfNoEntry: false });
    if (entry.isDirectory()) {
      if (there && !there.isDirectory()) rmSync(target);
      mkdirSync(target, { recursive: true });
      syncTree(source, target);
      continue;
    }
    const want = statSync(source);
    if (there?.isFile() && there.size === want.size && Math.floor(there.mtimeMs) === Math.floor(want.mtimeMs)) continue;
    if (there) rmSync(target, { recursive: true });
    copyFileSync(source, target);
    utimesSync(target, want.atime, want.mtime);
  }
}

/** The store's lock, in the cache folder beside the records folder. */
const LOCK = (): string => path.join(fx.root, '.flakeguard/cache/history.lock');

/** What a command left behind: files in the records folder other than records and the store, locks and temp files in the cache folder. */
function leftovers(): string[] {
  const cache = path.join(fx.root, '.flakeguard/cache');
  const inCache = existsSync(cache) ? readdirSync(cache).filter((n) => /\.lock$|\.new$|\.stale$/.test(n)) : [];
  return [...readdirSync(path.join(fx.root, RUNS)).filter((n) => !n.endsWith('.json') && n !== 'history'), ...inCache];
}

beforeAll(async () => {
  fx = await createFixture({
    git: true,
    files: {
      'vitest.config.ts': vitestConfigWithReporter(),
      'flakeguard.yaml': 'history: true\n',
      'test/a.test.ts': "import { it } from 'vitest';\nit('adds', () => {});\n",
    },
  });
  // A copy of the run's template store (the damaged and locked stores below are made from it), with
  // one run record stored (the reporter storing real runs is test/e2e/history.test.ts's subject;
  // the two reporter runs below meet the damaged store).
  seedHistoryStore(fx.root);
  const record = makeRecord({ runId: 'first', startedAt: new Date().toISOString(), tests: [{ name: 'adds' }] });
  fx.write(`${RUNS}/first.json`, JSON.stringify(record));
  const first = await runCliInProcess(fx.root, ['history', 'ingest', RUNS]);
  expect(first.exitCode, first.output).toBe(0);
  store = path.join(fx.root, RUNS, 'history');
  // Under .flakeguard, which the catalogue's file check skips (the store's thousands of files are not the user's).
  good = path.join(fx.root, '.flakeguard/good-store');
  cpSync(store, good, { recursive: true, preserveTimestamps: true });
  // Many records for ingest to work through (copies of that one under new run ids).
  mkdirSync(path.join(fx.root, 'artifacts'));
  for (let i = 0; i < 200; i++)
    writeFileSync(path.join(fx.root, 'artifacts', `r${i}.json`), JSON.stringify({ ...record, runId: `copy-${i}` }));
}, 120_000);
afterAll(() => fx.remove());

// Both locks judge and take over a lock through the same io/files/file-lock.ts (tryLock), and each
// take-over of the store's lock opens the store (a PGlite start): the store's lock with one lock of
// each kind of stale (no owner named; an owner that has ended), the allowance lock with every kind.
describe('a lock that names no live owner is stale: taken over with one notice, for both locks', () => {
  const owner = (pid: number) =>
    formatLockOwner({ pid, host: hostname(), takenAt: new Date().toISOString(), token: 'feedfacefeedface' });
  it.each([
    ['garbage', () => 'garbage\u0000\u0001\n', 'it does not name an owner (pid, host, time)'],
    ['a dead pid on this host', () => owner(deadPid()), 'has ended'],
  ])('history.lock %s: flakeguard history reads the store', async (_, content, reason) => {
    mkdirSync(path.dirname(LOCK()), { recursive: true });
    writeFileSync(LOCK(), content());
    const run = await runCliInProcess(fx.root, ['history']);
    expect(run.exitCode, run.output).toBe(0);
    expect(noticeLine(run.stderr, LOCK())).toContain(reason);
    expect(run.stdout).toContain('flakeguard history since');
    expect(existsSync(LOCK())).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  it.each([
    ['empty', () => '', 'it is empty'],
    ['garbage', () => 'x', 'it does not name an owner'],
    ['an older format (pid and host only)', () => `${deadPid()}\n${hostname()}\n`, 'it does not name an owner'],
    ['a dead pid on this host', () => owner(deadPid()), 'has ended'],
  ])('an allowance file lock %s: quarantine add writes the entry', async (_, content, reason) => {
    mkdirSync(path.join(fx.root, 'allowances/test'), { recursive: true });
    const lock = path.join(fx.root, 'allowances/test/a.test.ts.yaml.lock');
    writeFileSync(lock, content());
    const run = await runCliInProcess(fx.root, [
      'quarantine',
      'add',
      '--file',
      'test/a.test.ts',
      '--test',
      'adds',
      '--reason',
      'TRK-1',
    ]);
    expect(run.exitCode, run.output).toBe(0);
    expect(noticeLine(run.stderr, lock)).toContain(reason);
    expect(existsSync(lock)).toBe(false);
    expect(readdirSync(path.join(fx.root, 'allowances/test'))).toEqual(['a.test.ts.yaml']);
    rmSync(path.join(fx.root, 'allowances'), { recursive: true });
  });
});

describe('a damaged embedded store: one line naming the store and the fix, everywhere it is read', () => {
  // The data file of the runs table (base/<db>/<file>), as the store itself names it.
  let runsTable = '';
  beforeAll(async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create(good);
    runsTable = (await db.query<{ p: string }>("SELECT pg_relation_filepath('flakeguard_runs') AS p")).rows[0]?.p ?? '';
    await db.close();
    restoreStore();
    expect(runsTable).toMatch(/^base\/\d+\/\d+$/);
  });
  // [damage, what it does, the engine's words the line keeps ('' for damage met at open)]
  const damages: [string, () => void, RegExp | null][] = [
    ['PG_VERSION overwritten', () => writeFileSync(path.join(store, 'PG_VERSION'), 'garbage\n'), null],
    ['PG_VERSION missing', () => rmSync(path.join(store, 'PG_VERSION')), null],
    [
      'global/ emptied',
      () => {
        for (const f of readdirSync(path.join(store, 'global')))
          rmSync(path.join(store, 'global', f), { recursive: true });
      },
      null,
    ],
    // The store opens (its catalog and meta table are whole); the first query of the runs table fails.
    [
      "the runs table's data file overwritten (opens; a query fails)",
      () => writeFileSync(path.join(store, runsTable), Buffer.alloc(8192, 'x')),
      /\(invalid page in block 0 of relation "base\/\d+\/\d+"\)/,
    ],
    [
      "the runs table's data file missing (opens; a query fails)",
      () => rmSync(path.join(store, runsTable)),
      /\(could not open file "base\/\d+\/\d+": No such file or directory\)/,
    ],
  ];
  const commands = [['history'], ['history', 'prune', '--keep', '30d'], ['history', 'ingest', RUNS]];
  // One test per damage and command: a store that opens starts the engine whole before a query fails.
  it.each(damages.flatMap(([name, damage, engine]) => commands.map((args) => [name, args, damage, engine] as const)))(
    '%s: flakeguard %j',
    async (_, args, damage, engine) => {
      restoreStore();
      damage();
      const run = await runCliInProcess(fx.root, args);
      expect(run.exitCode, run.output).toBe(2);
      const line = messageLine(run);
      expect(line).toContain(`the history store ${store} is damaged (`);
      if (engine) expect(line).toMatch(engine);
      expect(line).toContain(
        `move it aside and rebuild it from the run records: flakeguard history ingest ${path.join(fx.root, RUNS)}`,
      );
      expect(run.stderr).not.toMatch(/Aborted\(\)|\[object Object\]|no history yet|^\s+at /m);
      expect(leftovers()).toEqual([]);
    },
  );

  it('damage met by a query: the reporter says it in one warning too', async () => {
    restoreStore();
    writeFileSync(path.join(store, runsTable), Buffer.alloc(8192, 'x'));
    const vitest = await fx.vitest();
    expect(vitest.exitCode, vitest.output).toBe(0);
    expect(vitest.stderr).toMatch(
      /flakeguard: warning: the run was not stored in history .*is damaged \(invalid page in block 0 of relation .*rebuild it from the run records: flakeguard history ingest/,
    );
    expect(vitest.stderr).not.toMatch(/^\s+at /m);
  });

  it('the reporter says it in one warning; the fix the line gives works', async () => {
    restoreStore();
    writeFileSync(path.join(store, 'PG_VERSION'), 'garbage\n');
    const vitest = await fx.vitest();
    expect(vitest.exitCode, vitest.output).toBe(0);
    expect(vitest.stderr).toMatch(
      /flakeguard: warning: the run was not stored in history .*is damaged \(.*rebuild it from the run records: flakeguard history ingest/,
    );
    renameSync(store, `${store}.damaged`);
    // A real creation (the store was moved aside), counted as one.
    const ingest = await flakeguardInProcess(fx, ['history', 'ingest', RUNS]);
    expect(ingest.exitCode, ingest.output).toBe(0);
    expect(ingest.stdout).toMatch(/run records read, \d+ stored/);
    rmSync(`${store}.damaged`, { recursive: true });
    rmSync(good, { recursive: true });
    cpSync(store, good, { recursive: true, preserveTimestamps: true });
  });
});

describe('inputs must be regular files under a size limit', () => {
  let fifo: string;
  let big: string;
  let hugeLog = '';
  afterAll(() => rmSync(path.dirname(hugeLog), { recursive: true, force: true }));
  beforeAll(() => {
    const tmp = path.join(fx.root, 'odd');
    mkdirSync(tmp, { recursive: true });
    fifo = path.join(tmp, 'record.json');
    execFileSync('mkfifo', [fifo]);
    mkdirSync(path.join(fx.root, 'big'));
    big = path.join(fx.root, 'big/big.json');
    writeFileSync(big, '');
    truncateSync(big, 300 * 1024 * 1024); // sparse: no disk used
    // Over the streamed log's 2 GiB: outside the fixture, whose files the catalogue hashes whole.
    hugeLog = path.join(mkdtempSync(path.join(tmpdir(), 'flakeguard-huge-')), 'huge.log');
    writeFileSync(hugeLog, '');
    truncateSync(hugeLog, 2.5 * 1024 ** 3);
    // A character device of our own (1,5 is what /dev/zero is: endless zero bytes), never /dev's.
    mkdirSync(path.join(fx.root, 'devices'));
    execFileSync('mknod', [path.join(fx.root, 'devices/zero'), 'c', '1', '5']);
  });

  it.each([
    [
      ['history', 'ingest', 'devices/zero'],
      ['devices/zero is a character device, not a regular file', 'pass a run record saved as a file'],
    ],
    [['history', 'ingest', 'odd/record.json'], ['odd/record.json is a FIFO (named pipe), not a regular file']],
    [['history', 'ingest', 'odd'], ['odd/record.json is a FIFO (named pipe), not a regular file']],
    [
      ['history', 'ingest', 'big/big.json'],
      ['big/big.json is 300.0 MiB', 'above the 256.0 MiB (268435456 bytes) limit for a run record'],
    ],
    [
      ['gate', '--merge', 'devices/zero'],
      ['devices/zero is a character device, not a regular file', 'pass a gate report'],
    ],
    [['gate', '--merge', 'odd/record.json'], ['odd/record.json is a FIFO (named pipe), not a regular file']],
    [['gate', '--merge', 'big/big.json'], ['above the 256.0 MiB (268435456 bytes) limit for a gate report']],
    [['triage', '--record', 'odd/record.json'], ['--record odd/record.json: is not a regular file']],
    [['triage', '--record', 'devices/zero'], ['--record devices/zero: is not a regular file']],
    [['triage', '--junit', 'odd/record.json'], ['--junit odd/record.json: is not a regular file']],
    [['triage', '--report', 'odd/record.json'], ['--report odd/record.json: is not a regular file']],
    [['triage', '--log', 'odd/record.json'], ['--log odd/record.json: is not a regular file']],
    [
      ['triage', '--report', 'big/big.json'],
      [
        '--report big/big.json: is 300.0 MiB (314572800 bytes), above the 256.0 MiB (268435456 bytes) limit for a Vitest JSON report; it was not read',
        'pass the report of each shard as its own --report',
      ],
    ],
    [
      ['triage', '--junit', 'big/big.json'],
      ['--junit big/big.json: is 300.0 MiB', 'limit for a JUnit XML file', 'the JUnit file of each shard'],
    ],
    [
      ['triage', '--record', 'big/big.json'],
      ['--record big/big.json: is 300.0 MiB', 'limit for a flakeguard run record', 'the record of each shard'],
    ],
    [
      ['triage', '--log', '<huge log>'],
      [
        'huge.log: is 2.5 GiB (2684354560 bytes), above the 2.0 GiB (2147483648 bytes) limit for the CI log of the job that ran Vitest; it was not read',
        "pass the log of the job's Vitest step only",
      ],
    ],
  ])('flakeguard %j is refused at once', async (args, names) => {
    await expectBadInputInProcess(
      fx,
      args.map((a) => (a === '<huge log>' ? hugeLog : a)),
      { exit: 2, names },
    );
  });
});

describe('history ingest stops on SIGINT and SIGTERM with 130 and leaves nothing behind', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('%s while it waits for the store another process holds', async (signal) => {
    restoreStore();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
    const lock = LOCK();
    mkdirSync(path.dirname(lock), { recursive: true });
    const content = formatLockOwner({
      pid: holder.pid ?? 0,
      host: hostname(),
      takenAt: new Date().toISOString(),
      token: 'abcdefabcdef0123',
    });
    writeFileSync(lock, content);
    try {
      countProcess('cli');
      const child = spawn(process.execPath, [CLI_BUILT, 'history', 'ingest', 'artifacts'], {
        cwd: fx.root,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      const waiting = new Promise<void>((resolve) =>
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          if (stderr.includes('waiting for history store')) resolve();
        }),
      );
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await waiting;
      child.kill(signal);
      expect(await exited, stderr).toBe(130);
      expect(stderr).toMatch(/^flakeguard: interrupted; waiting for history store .* stopped$/m);
      // The other process's lock is untouched; nothing of ingest's is left.
      expect(readFileSync(lock, 'utf8')).toBe(content);
      expect(leftovers()).toEqual(['history.lock']);
    } finally {
      holder.kill();
      rmSync(lock, { force: true });
    }
  });

  // One signal here: both reach the command the same way (src/cli.ts listens for SIGINT and SIGTERM
  // alike, src/io/process/interrupt.ts), as the two tests above show while it waits; each run here
  // opens the store in a process of its own.
  it('SIGINT while it stores records: each record whole, the lock removed', async () => {
    restoreStore();
    countProcess('cli');
    const child = spawn(process.execPath, [CLI_BUILT, 'history', 'ingest', 'artifacts'], {
      cwd: fx.root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // The lock appears once every record was checked and the store is being opened (a child that
    // ended before it fails the assertions below with its stderr, instead of waiting for the timeout).
    while (!existsSync(LOCK()) && child.exitCode === null && child.signalCode === null)
      await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    expect(stderr).toMatch(
      /^flakeguard: interrupted; history ingest \(\d+ of 200 records stored, each whole\) stopped$/m,
    );
    expect(leftovers()).toEqual([]);
    const after = await runCliInProcess(fx.root, ['history', '--json']);
    expect(after.exitCode, after.output).toBe(0);
  });
});
