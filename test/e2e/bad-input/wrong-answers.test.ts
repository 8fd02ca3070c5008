/**
 * Bad input catalogue, class 6 (issue 19): no wrong answer that looks like an answer. A root that
 * does not exist says so; the gate says which root and Vitest config it uses and never answers
 * "nothing to run" while the branch changes test files that root does not see; the default base is
 * the remote's default branch, never HEAD's own; triage applies quarantine as the reporter does and
 * gives no Vitest command for another tool's JUnit file. Needs `npm run build`. The refusals and
 * triage run in this process (test/helpers/in-process-cli.ts: the answer is the subject), and so
 * does the clone's selection (`gate --plan`: the base and the tests a gate would try, no tries);
 * test/e2e/cli-smoke.test.ts spawns each command once.
 */
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, REPO_ROOT, vitestConfigWithReporter } from '../../helpers/fixture.js';
import { runCliInProcess } from '../../helpers/in-process-cli.js';
import { expectBadInputInProcess } from './catalogue.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await createFixture({
    git: true,
    files: {
      'package.json': JSON.stringify({ name: 'mono', type: 'module', private: true }),
      'web/package.json': JSON.stringify({ name: 'web', type: 'module', private: true }),
      'web/test/w.test.ts': "import { it } from 'vitest';\nit('old', () => {});\n",
      'api/package.json': JSON.stringify({ name: 'api', type: 'module', private: true }),
      'api/test/a.test.ts': "import { it } from 'vitest';\nit('old', () => {});\n",
      'notes.txt': 'a file\n',
    },
  });
  await fx.git(['checkout', '-q', '-b', 'feature']);
  fx.write('web/test/w.test.ts', "import { it } from 'vitest';\nit('old', () => {});\nit('new', () => {});\n");
  await fx.git(['commit', '-qam', 'a new web test']);
});
afterAll(() => fx.remove());

describe('a --root that is not a folder is named, by every command that takes --root', () => {
  it.each([
    [['gate']],
    [['triage']],
    [['history']],
    [['history', 'ingest', 'x']],
    [['history', 'prune', '--keep', '30d']],
  ])('flakeguard %j --root /nonexistent and --root <a file>', async (args) => {
    await expectBadInputInProcess(fx, [...args, '--root', '/nonexistent-flakeguard-root'], {
      exit: 2,
      names: ['the project root /nonexistent-flakeguard-root does not exist', 'pass an existing folder to --root'],
    });
    await expectBadInputInProcess(fx, [...args, '--root', 'notes.txt'], {
      exit: 2,
      names: ['notes.txt is a file, not a folder'],
    });
  });

  it('init --root /nonexistent', async () => {
    await expectBadInputInProcess(fx, ['init', '--root', '/nonexistent-flakeguard-root'], {
      exit: 2,
      names: ['/nonexistent-flakeguard-root does not exist'],
    });
  });
});

describe('the gate in a subfolder that does not see the changed tests', () => {
  it.each([
    ['--root', 'api'],
    ['--root', 'api', '--json'],
  ])(
    'flakeguard gate %s %s: names the unseen test files and the root to use (exit 2), never "nothing to run"',
    async (...flags) => {
      const run = await expectBadInputInProcess(fx, ['gate', '--base', 'main', ...flags], {
        exit: 2,
        names: ['does not see 1 test file this branch changes (../web/test/w.test.ts)', 'flakeguard gate --root '],
      });
      expect(run.stderr).toMatch(/^flakeguard gate: project root .*api, Vitest config none \(Vitest's defaults\)$/m);
      expect(run.stdout).not.toContain('nothing to run');
    },
  );
});

describe("the default base is the remote's default branch, never HEAD's own", () => {
  let clone: string;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-clone-'));
    await execa('git', ['clone', '-q', '--bare', fx.root, path.join(dir, 'origin.git')]);
    await execa('git', ['symbolic-ref', 'HEAD', 'refs/heads/main'], { cwd: path.join(dir, 'origin.git') });
    clone = path.join(dir, 'work');
    await execa('git', ['clone', '-q', '--branch', 'feature', path.join(dir, 'origin.git'), clone]);
    // What a clone made with --branch can hold: origin/HEAD naming the branch itself.
    await execa('git', ['remote', 'set-head', 'origin', 'feature'], { cwd: clone });
    symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
  });
  afterAll(() => rmSync(path.dirname(clone), { recursive: true, force: true }));

  // The selection is the subject, not the tries: `gate --plan` selects as the gate does and runs nothing.
  it('a clone made with --branch feature: the gate compares with origin/main and finds the new test', async () => {
    const run = await runCliInProcess(clone, ['gate', '--root', 'web', '--plan']);
    expect(run.exitCode, run.output).toBe(0);
    const plan = JSON.parse(run.stdout) as { baseRef: string; tests: { fullName: string }[] };
    expect(plan.baseRef).toBe('origin/main');
    expect(plan.tests.map((t) => t.fullName)).toEqual(['new']);
  });
});

describe('triage answers as the reporter and the input do', () => {
  let tx: Fixture;
  beforeAll(async () => {
    tx = await createFixture({
      git: true,
      files: {
        'vitest.config.ts': vitestConfigWithReporter(),
        'test/q.test.ts':
          "import { expect, it } from 'vitest';\nit('bad', () => { expect(1).toBe(2); });\nit('good', () => {});\n",
        'reports/jest.xml':
          '<?xml version="1.0"?>\n<testsuites name="jest tests" tests="1" failures="1"><testsuite name="math" tests="1" failures="1"><testcase classname="math adds" name="math adds" time="0.002"><failure>Error: expect(received).toBe(expected)</failure></testcase></testsuite></testsuites>\n',
      },
    });
    const add = await runCliInProcess(tx.root, [
      'quarantine',
      'add',
      '--file',
      'test/q.test.ts',
      '--test',
      'bad',
      '--reason',
      'TRK-1 flaky on CI',
    ]);
    expect(add.exitCode, add.output).toBe(0);
    const run = await tx.vitest();
    expect(run.exitCode, run.output).toBe(0);
    // The same run as Vitest's own JSON and JUnit reports, which carry no quarantine of their own.
    const reports = await tx.vitest([
      '--reporter=json',
      '--outputFile.json=reports/run.json',
      '--reporter=junit',
      '--outputFile.junit=reports/run.xml',
    ]);
    for (const f of ['reports/run.json', 'reports/run.xml'])
      expect(existsSync(path.join(tx.root, f)), reports.output).toBe(true);
  });
  afterAll(() => tx.remove());

  it.each([
    ['--report', 'reports/run.json', []],
    ['--report', 'reports/run.json', ['--json']],
    ['--junit', 'reports/run.xml', []],
    ['--junit', 'reports/run.xml', ['--json']],
  ])(
    "the same run as %s %s %j: the checkout's quarantine applies as in the reporter; green, exit 0, and it says so",
    async (flag, file, flags) => {
      const run = await runCliInProcess(tx.root, ['triage', flag, file, ...flags]);
      expect(run.exitCode, run.output).toBe(0);
      if (flags[0] === '--json') expect(JSON.parse(run.stdout)).toMatchObject({ verdict: 'green', findings: [] });
      else {
        expect(run.stdout).toContain('run green');
        expect(run.stdout).not.toMatch(/run red|escape [1-9]/);
      }
      expect(run.stderr).toMatch(
        /^flakeguard: test\/q\.test\.ts > bad: failed under quarantine [0-9a-f]+ with no end date: TRK-1 flaky on CI; the quarantine in the checkout applied as the reporter applies it/m,
      );
    },
  );

  it.each([[[]], [['--json']], [['--markdown', 'out/triage.md']]])(
    'a green run whose only failure is quarantined: triage %j says green, exit 0',
    async (flags) => {
      const run = await runCliInProcess(tx.root, ['triage', ...flags]);
      expect(run.exitCode, run.output).toBe(0);
      if (flags[0] === '--json') expect(JSON.parse(run.stdout)).toMatchObject({ verdict: 'green', findings: [] });
      else expect(run.stdout).toContain('run green');
    },
  );

  it.each([[[]], [['--json']]])('a jest-junit file: no npx vitest run, the tool named (%j)', async (flags) => {
    const run = await runCliInProcess(tx.root, ['triage', '--junit', 'reports/jest.xml', ...flags]);
    expect(run.exitCode, run.output).toBe(1);
    expect(run.stdout).not.toContain('npx vitest run');
    const action =
      flags[0] === '--json'
        ? ((JSON.parse(run.stdout) as { findings: { action: string }[] }).findings[0]?.action ?? '')
        : run.stdout;
    expect(action).toContain('the file is from "jest tests", not Vitest: no Vitest re-run command can be given');
  });
});
