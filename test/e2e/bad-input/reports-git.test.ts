/**
 * Bad input catalogue, part 3: what CI leaves (a cut Vitest JSON report, a cut JUnit file with
 * invalid UTF-8, an XXE entity in JUnit), a shallow clone without the base ref, a broken
 * vitest.config.ts in the gate, and test names with `$(...)` in the commands flakeguard prints.
 * Needs `npm run build`. No user file changes unless the case is a command that writes by design.
 * Triage and the gate's refusals run in this process (test/helpers/in-process-cli.ts: what they read
 * and print is the subject; the gate's Vitest list child that fails to load the config stays a real
 * process); the pasted commands are spawned from a shell, the pasted `allowances add` with Vitest
 * uninstalled for the while (withoutVitest: no Vitest started to list the test files).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLI_BUILT,
  createFixture,
  type Fixture,
  REPO_ROOT,
  vitestConfigWithReporter,
  withoutVitest,
} from '../../helpers/fixture.js';
import { flakeguardInProcess, runCliInProcess } from '../../helpers/in-process-cli.js';
import { countProcess } from '../../helpers/process-budget.js';
import { expectBadInputInProcess, hashFiles } from './catalogue.js';

let fx: Fixture;
const FAILING =
  "import { expect, it } from 'vitest';\nfor (let i = 0; i < 40; i += 1) it(`case ${i}`, () => { expect(i % 7).not.toBe(3); });\n";
beforeAll(async () => {
  fx = await createFixture({ git: true, files: { 'test/a.test.ts': FAILING, 'secret.txt': 'TOP-SECRET-VALUE\n' } });
  await fx.vitest(['--reporter=json', '--outputFile=out/report.json']);
});
afterAll(() => fx.remove());

/** Runs triage on the inputs and checks: exit 1 (a red run classified), no user file changed. */
async function triage(args: readonly string[]): Promise<string> {
  const before = hashFiles(fx.root);
  const run = await flakeguardInProcess(fx, ['triage', ...args]);
  expect(run.exitCode, run.output).toBe(1);
  expect(hashFiles(fx.root)).toEqual(before);
  return run.output;
}

describe('reports that CI cut or that carry hostile content', () => {
  it('a Vitest JSON report cut off mid-value: the complete entries are used, the cut is at the file size', async () => {
    fx.write('out/cut.json', readFileSync(path.join(fx.root, 'out/report.json'), 'utf8'));
    const size = Math.floor(statSync(path.join(fx.root, 'out/cut.json')).size * 0.6);
    truncateSync(path.join(fx.root, 'out/cut.json'), size);
    const out = await triage(['--report', 'out/cut.json', '--exit-code', '1']);
    expect(out).toContain(`cut off at byte ${size}`);
    expect(out).toMatch(/\d+ complete test entries salvaged/);
  });

  it('a JUnit file cut off after invalid UTF-8: "cut off at byte N" is the size on disk', async () => {
    const xml = Buffer.concat([
      Buffer.from(
        '<?xml version="1.0"?>\n<testsuites><testsuite name="a"><testcase classname="test/a.test.ts" name="case 3"><failure message="boom">boom</failure></testcase>\n<testcase name="',
      ),
      Buffer.alloc(3000, 0xff),
    ]);
    fx.write('out/cut.xml', xml as unknown as string);
    const out = await triage(['--junit', 'out/cut.xml', '--exit-code', '1']);
    expect(out).toContain(`cut off at byte ${xml.length}`);
  });

  it('an external entity in JUnit (XXE) is never expanded', async () => {
    fx.write(
      'out/xxe.xml',
      `<?xml version="1.0"?>\n<!DOCTYPE t [<!ENTITY xxe SYSTEM "file://${path.join(fx.root, 'secret.txt')}">]>\n<testsuites><testsuite name="a"><testcase classname="test/a.test.ts" name="case 3 &xxe;"><failure message="boom &xxe;">AssertionError: &xxe;</failure></testcase></testsuite></testsuites>\n`,
    );
    const out = await triage(['--junit', 'out/xxe.xml', '--exit-code', '1']);
    expect(out).toContain('case 3');
    expect(out).not.toContain('TOP-SECRET-VALUE');
  });
});

describe('git', () => {
  it('a shallow clone without the base ref: exit 2 and the fetch command', async () => {
    await fx.git(['checkout', '-q', '-b', 'feature']);
    fx.write('test/b.test.ts', "import { it } from 'vitest';\nit('new', () => {});\n");
    await fx.git(['add', '-A']);
    await fx.git(['commit', '-qm', 'new test']);
    const clone = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-shallow-'));
    try {
      await execa(
        'git',
        ['clone', '-q', '--depth', '1', '--branch', 'feature', '--single-branch', `file://${fx.root}`, 'repo'],
        { cwd: clone },
      );
      const repo = path.join(clone, 'repo');
      symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(repo, 'node_modules'), 'dir');
      const before = hashFiles(repo);
      const run = await runCliInProcess(repo, ['gate', '--base', 'origin/main']);
      expect(run.exitCode).toBe(2);
      expect(run.stderr.trim().split('\n')).toEqual([
        'flakeguard: base "origin/main" is not in this clone (a shallow clone); fetch it: git fetch --no-tags --depth=50 origin main (or git fetch --unshallow origin for the whole history), or name another with --base <ref>',
      ]);
      expect(hashFiles(repo)).toEqual(before);
    } finally {
      rmSync(clone, { recursive: true, force: true });
      await fx.git(['checkout', '-q', 'main']);
    }
  });
});

describe('Vitest cannot start in the gate', () => {
  it('a vitest.config.ts importing a missing package: exit 2, the cause without ANSI codes or stack frames', async () => {
    await fx.git(['checkout', '-q', 'feature']);
    fx.write('vitest.config.ts', "import x from 'nope-missing-pkg';\nexport default { test: { x } };\n");
    try {
      const before = hashFiles(fx.root);
      const run = await flakeguardInProcess(fx, ['gate', '--base', 'main', '--load', '0', '--tries', '1']);
      expect(run.exitCode, run.output).toBe(2);
      expect(run.stderr).toMatch(/^flakeguard: Vitest .*nope-missing-pkg/m);
      expect(run.stderr).not.toContain('\u001b');
      expect(run.stderr).not.toMatch(/^\s+at /m);
      expect(hashFiles(fx.root)).toEqual(before);
    } finally {
      rmSync(path.join(fx.root, 'vitest.config.ts'));
      await fx.git(['checkout', '-q', 'main']);
    }
  });
});

describe('a test named $(...)', () => {
  const name = "$(touch pwned) and `touch pwned2` 'quoted'";
  let project: Fixture;
  let red: Awaited<ReturnType<Fixture['vitest']>>;
  beforeAll(async () => {
    project = await createFixture({
      git: true,
      files: {
        'vitest.config.ts': vitestConfigWithReporter(),
        'flakeguard.yaml': 'budget:\n  test: 100ms\n',
        'test/x.test.ts': `import { it } from 'vitest';\nit(${JSON.stringify(name)}, async () => { await new Promise((r) => setTimeout(r, 300)); });\n`,
        'test/y.test.ts': `import { expect, it } from 'vitest';\nit(${JSON.stringify(`${name} [x] (y)`)}, () => { expect(1).toBe(2); });\nit('another', () => {});\n`,
      },
    });
    red = await project.vitest();
  });
  afterAll(() => project.remove());
  const shell = (command: string, env: Record<string, string> = {}) =>
    execa(command, { cwd: project.root, shell: true, reject: false, env });
  const pwned = () => ['pwned', 'pwned2'].filter((f) => existsSync(path.join(project.root, f)));

  it('the allowance command the reporter prints adds the allowance when pasted into a shell, and runs nothing', async () => {
    expect(red.exitCode).toBe(1);
    const command = red.stdout
      .split('\n')
      .find((l) => l.trim().startsWith('flakeguard allowances add'))
      ?.trim();
    expect(command, red.output).toBeDefined();
    countProcess('cli');
    // Without Vitest installed for the while (withoutVitest): which files are tests is not the subject.
    const pasted = await withoutVitest(project, () =>
      shell(
        `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI_BUILT)} ${(command ?? '').slice('flakeguard '.length)}`,
      ),
    );
    expect(pasted.exitCode, `${pasted.stdout}\n${pasted.stderr}`).toBe(0);
    expect(pwned()).toEqual([]);
    expect(readFileSync(path.join(project.root, 'allowances/test/x.test.ts.yaml'), 'utf8')).toContain('touch pwned');
  });

  it("triage's reproduce command runs exactly that test when pasted into a shell, and nothing else", async () => {
    const record = (await flakeguardInProcess(project, ['triage', '--exit-code', '1'])).stdout;
    const reproduce = /reproduce with (npx vitest run .*)$/m.exec(record)?.[1];
    expect(reproduce, record).toBeDefined();
    countProcess('vitest');
    const rerun = await shell(
      `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'))} ${(reproduce ?? '').slice('npx vitest '.length)}`,
      { NO_COLOR: '1' },
    );
    // -t matched the one failing test by its exact name (brackets and parentheses escaped).
    expect(rerun.stdout, rerun.stderr).toMatch(/Tests\s+1 failed \| 1 skipped/);
    expect(pwned()).toEqual([]);
  });
});

describe('missing input', () => {
  it('the only triage input does not exist: exit 2 naming it', async () => {
    await expectBadInputInProcess(fx, ['triage', '--report', 'out/missing.json'], {
      exit: 2,
      names: ['--report out/missing.json: does not exist', 'expected a Vitest JSON report'],
    });
  });
});
