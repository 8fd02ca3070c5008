/**
 * Bad input catalogue (issue 48, findings 1 and 7): allowance files and folders that are symbolic
 * links, FIFOs where a file is read or written. A link inside the project is followed (a folder
 * shared in a monorepo: its allowance applies, `check` counts it, `add` and `gate
 * --write-allowances` update the test's one entry through it); a link that leaves the project or
 * loops, and a FIFO named as an allowance file, is a problem naming the path (check exits 1); a FIFO
 * without a reader (`--markdown fifo`) or where a test file should be (`quarantine add --file`)
 * ends the command with a message naming it, and SIGTERM ends it. FIFOs and links are made in the
 * fixture's temp folder, never /dev. Needs `npm run build`. The allowance commands run in this
 * process; the reporter, the gate and every command that met a FIFO (before the fix it never
 * returned, and a hung command in this process would hang the test worker) are spawned.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGateReport } from '../../core/html/html-factories.js';
import { CLI_BUILT, createFixture, type Fixture, vitestConfigWithReporter } from '../../helpers/fixture.js';
import { runCliInProcess } from '../../helpers/in-process-cli.js';
import { cliKind, countProcess } from '../../helpers/process-budget.js';
import { gateAtNoSlowdown } from '../gate-fixtures.js';
import { expectBadInputInProcess, messageLine } from './catalogue.js';

const SLOW =
  "import { it } from 'vitest';\nit('slow', async () => { await new Promise((r) => setTimeout(r, 300)); });\n";
const ADD = ['allowances', 'add', '--file', 'test/a.test.ts', '--test', 'slow', '--reason', 'slow by design'];

let template: Fixture;
beforeAll(async () => {
  template = await createFixture({
    git: true,
    files: {
      'vitest.config.ts': vitestConfigWithReporter(),
      'flakeguard.yaml': 'budget:\n  test: 100ms\n',
      'test/a.test.ts': SLOW,
    },
  });
  // The allowance as `allowances add` writes it, then its folder moved to shared/ and linked back.
  const add = await runCliInProcess(template.root, [...ADD, '--budget', '5s']);
  expect(add.exitCode, add.output).toBe(0);
  mkdirSync(path.join(template.root, 'shared'));
  renameSync(path.join(template.root, 'allowances/test'), path.join(template.root, 'shared/test'));
  symlinkSync('../shared/test', path.join(template.root, 'allowances/test'));
  await template.git(['add', '-A']);
  await template.git(['commit', '-qm', 'allowances shared through a link']);
}, 60_000);
afterAll(() => template.remove());

/** A copy of the template for one test, removed after it. */
function copy(): Fixture {
  const fx = template.copy();
  onFinished.push(() => fx.remove());
  return fx;
}
const onFinished: (() => void)[] = [];
afterAll(() => {
  for (const f of onFinished) f();
});

const SHARED = 'shared/test/a.test.ts.yaml';
const entries = (fx: Fixture, rel = SHARED): number =>
  (readFileSync(path.join(fx.root, rel), 'utf8').match(/- id:/g) ?? []).length;
const mkfifo = (file: string): void => void execFileSync('mkfifo', [file]);

describe('allowances through symbolic links inside the project', () => {
  it('a linked allowance folder: the run is green on its allowance, check counts it, add updates its one entry', async () => {
    const fx = copy();
    const check = await runCliInProcess(fx.root, ['allowances', 'check']);
    expect(check.exitCode, check.output).toBe(0);
    expect(check.stdout.trim()).toBe('1 allowance checked: no problems.');
    const run = await fx.vitest();
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).not.toContain('over budget');
    // The reporter's advice followed again: refused, naming the entry there is (not a second entry).
    await expectBadInputInProcess(fx, [...ADD, '--budget', '5s'], { exit: 2, names: ['already has allowance'] });
    const replace = await runCliInProcess(fx.root, [...ADD, '--budget', '6s', '--replace']);
    expect(replace.exitCode, replace.output).toBe(0);
    expect(entries(fx)).toBe(1);
    expect(readFileSync(path.join(fx.root, SHARED), 'utf8')).toContain('budget: 6s');
  });

  it('an allowance file linked to another file of the project is read', async () => {
    const fx = copy();
    rmSync(path.join(fx.root, 'allowances/test'));
    mkdirSync(path.join(fx.root, 'allowances/test'));
    symlinkSync(`../../${SHARED}`, path.join(fx.root, 'allowances/test/a.test.ts.yaml'));
    const check = await runCliInProcess(fx.root, ['allowances', 'check']);
    expect(check.stdout.trim(), check.output).toBe('1 allowance checked: no problems.');
  });

  it('gate --write-allowances sets the budget in the entry the test has, through the link, never a second', async () => {
    const fx = copy();
    writeFileSync(path.join(fx.root, SHARED), readFileSync(path.join(fx.root, SHARED), 'utf8').replace('5s', '150ms'));
    await fx.git(['commit', '-qam', 'a tight allowance']);
    await fx.git(['checkout', '-q', '-b', 'feature']);
    fx.write('test/a.test.ts', SLOW.replace('300', '310'));
    await fx.git(['commit', '-qam', 'slow changes']);
    const gate = await fx.flakeguard(gateAtNoSlowdown(1, 0, '--base', 'main', '--write-allowances'));
    expect(gate.output).toContain('(written)');
    expect(entries(fx)).toBe(1);
    expect(readFileSync(path.join(fx.root, SHARED), 'utf8')).toMatch(/budget: \{ default: 150ms, linux: \d+ms \}/);
    const check = await runCliInProcess(fx.root, ['allowances', 'check']);
    expect(check.stdout.trim(), check.output).toBe('1 allowance checked: no problems.');
  }, 120_000);
});

describe('allowance paths that cannot be read are problems, never skipped', () => {
  const CASES: readonly [string, (fx: Fixture) => void, string][] = [
    [
      'a link that leaves the project',
      (fx) => symlinkSync(path.join(template.root, '..'), path.join(fx.root, 'allowances/out')),
      'allowances/out: a symbolic link to',
    ],
    [
      'a link that loops',
      (fx) => symlinkSync('..', path.join(fx.root, 'shared/test/loop')),
      'allowances/test/loop: a symbolic link that loops',
    ],
    [
      'a FIFO named as an allowance file',
      (fx) => mkfifo(path.join(fx.root, 'shared/test/b.test.ts.yaml')),
      'allowances/test/b.test.ts.yaml: a FIFO (named pipe), not a regular file or folder; it was not read',
    ],
  ];
  it.each(CASES)('%s: check names it and exits 1', async (_kind, make, named) => {
    const fx = copy();
    make(fx);
    const check = await runCliInProcess(fx.root, ['allowances', 'check']);
    expect(check.exitCode, check.output).toBe(1);
    expect(check.stdout).toContain(named);
    expect(check.stdout).toContain('1 problem in 1 allowance.');
  });
});

/** The built CLI spawned in `fx`, killed by the test if it runs 20 s; SIGTERM after `termAfterMs` if given (1.5 s: past its start, where it met the FIFO). */
async function spawnCli(fx: Fixture, args: readonly string[], termAfterMs?: number) {
  countProcess(cliKind(args));
  const started = Date.now();
  const child = execa(process.execPath, [CLI_BUILT, ...args], {
    cwd: fx.root,
    reject: false,
    timeout: 20_000,
    killSignal: 'SIGKILL',
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', NO_COLOR: '1', CI: 'true' },
    extendEnv: false,
    stdin: 'ignore',
  });
  if (termAfterMs !== undefined) setTimeout(() => child.kill('SIGTERM'), termAfterMs);
  const result = await child;
  return { ...result, stderr: String(result.stderr), ms: Date.now() - started };
}

describe('a FIFO without a reader or writer never hangs a command', () => {
  const merge = (fx: Fixture): string[] => {
    const report = makeGateReport([
      {
        file: 'test/a.test.ts',
        name: 'slow',
        line: 2,
        selection: 'new',
        tries: [{ state: 'passed' as const, durationMs: 12 }],
      },
    ]);
    fx.write('r.json', JSON.stringify({ ...report, shard: { index: 1, count: 1 } }));
    mkfifo(path.join(fx.root, 'fifo'));
    return ['gate', '--merge', 'r.json', '--markdown', 'fifo'];
  };
  const quarantine = (fx: Fixture): string[] => {
    mkfifo(path.join(fx.root, 'test/fifo.test.ts'));
    return ['quarantine', 'add', '--file', 'test/fifo.test.ts', '--test', 'x', '--reason', 'flaky'];
  };
  const CASES = [
    [
      'gate --merge r.json --markdown fifo',
      merge,
      '--markdown fifo: the report was printed to stdout but not written: fifo is a FIFO with no reader',
    ],
    [
      'quarantine add --file test/fifo.test.ts',
      quarantine,
      'test/fifo.test.ts is a FIFO (named pipe), not a regular file',
    ],
  ] as const;

  it.each(CASES)('%s: exits 2 naming the FIFO', async (_name, make, named) => {
    const fx = copy();
    const run = await spawnCli(fx, make(fx));
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(2);
    expect(messageLine({ ...run, stdout: String(run.stdout), output: run.stderr, exitCode: 2 })).toContain(named);
  });

  it.each(CASES)('%s: SIGTERM ends it', async (_name, make) => {
    const fx = copy();
    const run = await spawnCli(fx, make(fx), 1_500);
    expect(run.timedOut, run.stderr).toBe(false);
    expect([2, 130]).toContain(run.exitCode);
    expect(run.ms).toBeLessThan(15_000);
  });
});
