/**
 * Bad input catalogue (issue 48, finding 4): the gate's base is never the branch itself. A clone of
 * a working copy that had `feature` checked out holds `origin/HEAD -> origin/feature` and the remote
 * says its HEAD is feature too: the gate compares with origin/main, the default branch the clone
 * has, and finds the test the branch adds (it said "nothing to run", exit 0); with no other default
 * branch in the clone it says which base to pass and exits 2. Needs `npm run build`. The selection
 * runs in this process (`gate --plan`: the base and the tests a gate would try, no tries).
 */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, REPO_ROOT } from '../../helpers/fixture.js';
import { runCliInProcess } from '../../helpers/in-process-cli.js';
import { expectBadInputInProcess } from './catalogue.js';

let fx: Fixture;
let dir: string;
beforeAll(async () => {
  fx = await createFixture({
    git: true,
    files: { 'test/a.test.ts': "import { it } from 'vitest';\nit('old', () => {});\n" },
  });
  await fx.git(['checkout', '-q', '-b', 'feature']);
  fx.write('test/a.test.ts', "import { it } from 'vitest';\nit('old', () => {});\nit('new', () => {});\n");
  await fx.git(['commit', '-qam', 'a new test']);
  dir = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-base-'));
}, 60_000);
afterAll(() => {
  fx.remove();
  rmSync(dir, { recursive: true, force: true });
});

/** A clone of the working copy as it is (on feature): origin/HEAD -> origin/feature. */
async function cloneOnFeature(name: string): Promise<string> {
  const clone = path.join(dir, name);
  await execa('git', ['clone', '-q', fx.root, clone]);
  const head = await execa('git', ['symbolic-ref', 'refs/remotes/origin/HEAD'], { cwd: clone });
  expect(head.stdout).toBe('refs/remotes/origin/feature');
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
  return clone;
}

describe("origin/HEAD naming the branch checked out: the base is the clone's default branch", () => {
  it('origin/main exists: the gate compares with it and finds the new test', async () => {
    const clone = await cloneOnFeature('with-main');
    const run = await runCliInProcess(clone, ['gate', '--plan']);
    expect(run.exitCode, run.output).toBe(0);
    const plan = JSON.parse(run.stdout) as { baseRef: string; tests: { fullName: string }[] };
    expect(plan.baseRef).toBe('origin/main');
    expect(plan.tests.map((t) => t.fullName)).toEqual(['new']);
  });

  it('no other default branch: names origin/HEAD and the --base to pass (exit 2), never "nothing to run"', async () => {
    const clone = await cloneOnFeature('feature-only');
    await execa('git', ['update-ref', '-d', 'refs/remotes/origin/main'], { cwd: clone });
    const run = await expectBadInputInProcess({ ...fx, root: clone }, ['gate', '--plan'], {
      exit: 2,
      names: ['origin/HEAD is origin/feature, the branch checked out', 'flakeguard gate --base origin/<branch>'],
    });
    expect(run.stdout).toBe('');
  });
});
