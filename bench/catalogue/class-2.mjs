// Class 2: output paths that are not plain files. Each report writer on each kind of path; the
// rule: links followed and kept, FIFOs written in place, a folder refused naming the user's path,
// the report on stdout first. FIFOs and links are made in the case's temp folder, never under /dev.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { write } from './run-case.mjs';

const LOG = 'FAIL test/a.test.ts > plain\nAssertionError: boom\n Test Files  1 failed (1)\n';
const TARGETS = [
  { kind: 'new path', target: 'out/new/report', make: () => {} },
  { kind: 'regular file', target: 'out/old', make: (dir) => write(dir, 'out/old', 'old\n') },
  {
    kind: 'symlink to a file',
    target: 'out/link',
    make: (dir) => {
      write(dir, 'out/real', 'old\n');
      symlinkSync('real', path.join(dir, 'out/link'));
    },
  },
  {
    kind: 'dangling symlink',
    target: 'out/dangling',
    make: (dir) => {
      mkdirSync(path.join(dir, 'out'));
      symlinkSync('later', path.join(dir, 'out/dangling'));
    },
  },
  {
    kind: 'FIFO',
    target: 'out/pipe',
    fifo: true,
    make: (dir) => {
      mkdirSync(path.join(dir, 'out'));
      execFileSync('mkfifo', [path.join(dir, 'out/pipe')]);
    },
  },
  {
    kind: 'symlink to a FIFO',
    target: 'out/to-pipe',
    fifo: true,
    make: (dir) => (
      mkdirSync(path.join(dir, 'out')),
      execFileSync('mkfifo', [path.join(dir, 'out/pipe')]),
      symlinkSync('pipe', path.join(dir, 'out/to-pipe'))
    ),
  },
  {
    kind: 'folder',
    target: 'out/folder',
    folder: true,
    make: (dir) => mkdirSync(path.join(dir, 'out/folder'), { recursive: true }),
  },
];
const WRITERS = [
  {
    name: 'triage',
    args: ['triage', '--log', 'ci/log.txt', '--exit-code', '1'],
    stdout: 'flakeguard triage: run red',
    setup: (dir) => write(dir, 'ci/log.txt', LOG),
  },
  {
    name: 'history',
    args: ['history', '--root', '.'],
    stdout: 'flakeguard history since',
    setup: (dir) => write(dir, 'flakeguard.yaml', 'history: true\n'),
    vitest: true,
  },
];

function check(writer, t, flag) {
  return (run) => {
    if (!run.stdout.includes(writer.stdout)) return 'no report on stdout';
    const full = path.join(run.dir, t.target);
    if (t.folder)
      return run.exitCode === 2 &&
        run.stderr.includes(
          `${flag} ${t.target}: the report was printed to stdout but not written: ${t.target} is a folder`,
        )
        ? ''
        : 'folder not refused naming the path';
    if (t.fifo)
      return run.read && run.read.length > 0 && lstatSync(path.join(run.dir, 'out/pipe')).isFIFO()
        ? ''
        : 'FIFO replaced or not written';
    if (t.kind.startsWith('symlink') || t.kind.startsWith('dangling'))
      return lstatSync(full).isSymbolicLink() ? '' : 'link replaced by a file';
    return '';
  };
}

export const CASES = WRITERS.flatMap((w) =>
  ['--markdown', '--html'].flatMap((flag) =>
    TARGETS.map((t) => ({
      class: 2,
      case: `${w.name} ${flag} <${t.kind}>`,
      command: [...w.args, flag, t.target],
      reader: t.fifo ? t.target : undefined,
      setup: async (dir) => {
        w.setup(dir);
        // history needs a store with a run in it: one Vitest run with flakeguard's reporter.
        if (w.vitest)
          execFileSync(process.execPath, [path.join(dir, 'node_modules/vitest/vitest.mjs'), 'run'], {
            cwd: dir,
            stdio: 'ignore',
          });
        t.make(dir);
      },
      check: check(w, t, flag),
    })),
  ),
);
