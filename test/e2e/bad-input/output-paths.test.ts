/**
 * Bad input catalogue, class 2: output paths that are not plain files. Every report writer
 * (`--markdown` and `--html` of gate, triage and history) is tried on every kind of path: a new
 * path, a regular file, a symbolic link to a file, a dangling link, a FIFO, a link to a FIFO, and a
 * folder. The rule (io/files/atomic-write.ts): links are followed and kept, FIFOs and devices are
 * written in place and never replaced, a folder is refused naming the user's path, and the report is
 * on stdout first in every case. FIFOs and links are made in the fixture's temp folder, never /dev.
 * The commands run in this process (test/helpers/in-process-cli.ts: the subject is the file
 * written, not a process start), each writing `--markdown` and `--html` at once to two paths of one
 * kind; a FIFO's reader is a separate process, `cat pipe` as in another shell. The history store is a copy of the run's template (seedHistoryStore) holding one ingested
 * run record, and the report `gate --merge` prints is built by the real computeGateReport (no gate
 * runs: its subject is the report file, not the tries). Needs `npm run build` (the CLI is the built one).
 */
import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  type Stats,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRecord } from '../../core/history/history-factories.js';
import { makeGateReport } from '../../core/html/html-factories.js';
import { createFixture, type Fixture, type RunResult } from '../../helpers/fixture.js';
import { seedHistoryStore } from '../../helpers/history-template.js';
import { runCliInProcess } from '../../helpers/in-process-cli.js';
import { messageLine } from './catalogue.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await createFixture({
    git: true,
    files: {
      'flakeguard.yaml': 'history: true\n',
      'test/a.test.ts': "import { it } from 'vitest';\nit('old', () => {});\n",
      'ci/log.txt': 'FAIL test/a.test.ts > old\nAssertionError: boom\n Test Files  1 failed (1)\n',
    },
  });
  // The report --merge prints: one new test that passed its tries.
  const tries = [12, 14, 13].map((durationMs) => ({ state: 'passed' as const, durationMs }));
  const gate = makeGateReport([{ file: 'test/a.test.ts', name: 'adds', line: 3, selection: 'new', tries }]);
  fx.write('ci/shard.json', `${JSON.stringify({ ...gate, shard: { index: 1, count: 1 } }, null, 2)}\n`);
  // The run history reports on, ingested into a copy of the template store (the path of the report
  // is the subject, not where the run came from).
  seedHistoryStore(fx.root);
  const record = makeRecord({ runId: 'paths-run', startedAt: new Date().toISOString(), tests: [{ name: 'old' }] });
  fx.write('ci/run.json', JSON.stringify(record));
  const ingest = await runCliInProcess(fx.root, ['history', 'ingest', 'ci/run.json']);
  expect(ingest.exitCode, ingest.output).toBe(0);
}, 120_000);
afterAll(() => fx.remove());

interface Writer {
  readonly command: readonly string[];
  readonly flag: '--markdown' | '--html';
  readonly exit: number;
  /** What the command prints on stdout, whatever happens to the file. */
  readonly stdout: RegExp;
}

const WRITERS: readonly Writer[] = [
  {
    command: ['gate', '--merge', 'ci/shard.json'],
    flag: '--markdown',
    exit: 0,
    stdout: /flakeguard gate: 1 new or changed test/,
  },
  {
    command: ['gate', '--merge', 'ci/shard.json'],
    flag: '--html',
    exit: 0,
    stdout: /flakeguard gate: 1 new or changed test/,
  },
  {
    command: ['triage', '--log', 'ci/log.txt', '--exit-code', '1'],
    flag: '--markdown',
    exit: 1,
    stdout: /flakeguard triage: run red/,
  },
  {
    command: ['triage', '--log', 'ci/log.txt', '--exit-code', '1'],
    flag: '--html',
    exit: 1,
    stdout: /flakeguard triage: run red/,
  },
  { command: ['history'], flag: '--markdown', exit: 0, stdout: /flakeguard history since/ },
  { command: ['history'], flag: '--html', exit: 0, stdout: /flakeguard history since/ },
];

const report = (flag: Writer['flag']): RegExp => (flag === '--html' ? /^<!doctype html>/i : /flakeguard/);

function mkfifo(file: string): void {
  // mkfifo from PATH (coreutils); Node has no API for it.
  execFileSync('mkfifo', [file]);
}

/** Each kind of path: made in `dir`, the path to pass, and what must hold after the write. */
interface Target {
  readonly kind: string;
  make(dir: string): string;
  readonly refused?: true;
}

const TARGETS: readonly Target[] = [
  { kind: 'a new path in a new folder', make: (dir) => path.join(dir, 'new/report.out') },
  {
    kind: 'a regular file',
    make: (dir) => (writeFileSync(path.join(dir, 'old.out'), 'old content\n'), path.join(dir, 'old.out')),
  },
  {
    kind: 'a symbolic link to a file',
    make: (dir) => (
      writeFileSync(path.join(dir, 'real.out'), 'old\n'),
      symlinkSync('real.out', path.join(dir, 'link.out')),
      path.join(dir, 'link.out')
    ),
  },
  {
    kind: 'a dangling symbolic link',
    make: (dir) => (symlinkSync('later.out', path.join(dir, 'dangling.out')), path.join(dir, 'dangling.out')),
  },
  { kind: 'a FIFO', make: (dir) => (mkfifo(path.join(dir, 'pipe')), path.join(dir, 'pipe')) },
  {
    kind: 'a symbolic link to a FIFO',
    make: (dir) => (
      mkfifo(path.join(dir, 'pipe2')), symlinkSync('pipe2', path.join(dir, 'to-pipe')), path.join(dir, 'to-pipe')
    ),
  },
  {
    kind: 'a folder',
    make: (dir) => (mkdirSync(path.join(dir, 'folder.out')), path.join(dir, 'folder.out')),
    refused: true,
  },
];

const CASES = WRITERS.flatMap((w) => TARGETS.map((t) => ({ name: `${w.command[0]} ${w.flag} <${t.kind}>`, w, t })));

/** A path made for one flag of one run, as it was before the run, with the FIFO's reader if it is one. */
interface Made {
  readonly target: string;
  readonly before: Stats | undefined;
  readonly isFifo: boolean;
  /** What the FIFO's reader read. */
  readonly reader: Promise<{ readonly stdout: unknown }> | null;
}

/** One command run that writes its report to paths of one kind, and those paths by flag. */
interface SharedRun {
  readonly run: RunResult;
  readonly made: ReadonlyMap<Writer['flag'], Made>;
}

/**
 * The run a case reads: one per command and kind of path, writing `--markdown` and `--html` at once,
 * each to its own path of that kind (the two cases of a kind read the same run: a history run opens
 * the store, about 0.8 CPU-s). A folder gets one run per flag: the first refused path ends the
 * command, so a second flag would never be tried.
 */
const runs = new Map<string, Promise<SharedRun>>();
function runFor(w: Writer, t: Target): Promise<SharedRun> {
  const flags: readonly Writer['flag'][] = t.refused ? [w.flag] : ['--markdown', '--html'];
  const key = `${w.command[0]} ${flags.join(' ')} <${t.kind}>`;
  let shared = runs.get(key);
  if (!shared) {
    shared = writeReports(w.command, t, flags);
    runs.set(key, shared);
  }
  return shared;
}

async function writeReports(
  command: readonly string[],
  t: Target,
  flags: readonly Writer['flag'][],
): Promise<SharedRun> {
  const made = new Map<Writer['flag'], Made>();
  for (const flag of flags) {
    const dir = path.join(fx.root, 'out', `${command[0]}-${flag.slice(2)}-${t.kind.replace(/\W+/g, '-')}`);
    mkdirSync(dir, { recursive: true });
    const target = t.make(dir);
    const isFifo = lstatSync(linkTarget(target), { throwIfNoEntry: false })?.isFIFO() === true;
    // A FIFO needs its reader: started first, `cat pipe` as in another shell.
    const reader = isFifo ? execa('cat', [target], { reject: false }) : null;
    made.set(flag, { target, before: lstatSync(target, { throwIfNoEntry: false }), isFifo, reader });
  }
  const args = [...made].flatMap(([flag, m]) => [flag, path.relative(fx.root, m.target)]);
  return { run: await runCliInProcess(fx.root, [...command, ...args]), made };
}

describe('report writers on paths that are not plain files', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, { w, t }) => {
    const { run, made } = await runFor(w, t);
    const { target, before, isFifo, reader } = made.get(w.flag) as Made;
    const rel = path.relative(fx.root, target);
    expect(run.stdout, run.output).toMatch(w.stdout);
    if (t.refused) {
      expect(run.exitCode, run.output).toBe(2);
      expect(messageLine(run)).toBe(
        `flakeguard: ${w.flag} ${rel}: the report was printed to stdout but not written: ${rel} is a folder; pass a file`,
      );
      expect(readdirSync(target)).toEqual([]);
    } else {
      expect(run.exitCode, run.output).toBe(w.exit);
      if (reader) {
        const read = await reader;
        expect(String(read.stdout)).toMatch(report(w.flag));
        expect(lstatSync(target).isFIFO() || lstatSync(target).isSymbolicLink()).toBe(true);
      } else {
        expect(readFileSync(target, 'utf8')).toMatch(report(w.flag));
      }
      if (before?.isSymbolicLink()) expect(lstatSync(target).isSymbolicLink()).toBe(true);
      if (isFifo) expect(lstatSync(linkTarget(target)).isFIFO()).toBe(true);
    }
    // No temp file left beside the target.
    expect(readdirSync(path.dirname(target)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

/** The path a link points to (the path itself when it is not a link). */
function linkTarget(file: string): string {
  return lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()
    ? path.resolve(path.dirname(file), readlinkSync(file))
    : file;
}

afterAll(() => rmSync(path.join(fx.root, 'out'), { recursive: true, force: true }));
