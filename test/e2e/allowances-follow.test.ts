/**
 * An allowance follows its test across renames and moves, in a git fixture repo with the real
 * Vitest and flakeguard's reporter: after each change the run passes (the slow test takes 300 ms
 * against a 200 ms budget and a 1 s allowance), `flakeguard allowances list --json` shows the
 * allowance applied, and the engine (loadAllowancesForRun) says how it followed. One test (a renamed
 * title) runs the real Vitest with the reporter and feeds the engine what Vitest reported; the
 * others feed it the tests read from the source as the gate reads them (their file, full name and
 * line: what the engine matches on), and run the CLI in this process. A copy under a new title gets
 * no allowance.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowanceKey } from '../../src/core/allowances/allowance-match.js';
import { createFixture, type Fixture, fixtureCopies } from '../helpers/fixture.js';
import { runCliInProcess } from '../helpers/in-process-cli.js';
import {
  addAllowance,
  commit,
  type ListedRow,
  seam as seamOf,
  sourceTests,
  type VitestTest,
  vitestTests,
} from './allowances-helpers.js';

const CONFIG = 'budget:\n  test: 200ms\n';
const STORE = 'allowances/test/hub/tracker.test.ts.yaml';
const TRACKER = `import { describe, it, expect } from 'vitest';

describe('tracker', () => {
  it('reloads journal', async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([1, 2, 3]).toHaveLength(3);
  });

  it('flushes', () => {
    expect(2 + 2).toBe(4);
  });
});
`;

/**
 * The engine on `tests`, given the project's test files as the reporter gives it its running
 * Vitest's (the files of the tests, each once): no listing process. `allowances list` (each test's
 * `listed`) still asks the project's Vitest which files are tests.
 */
const seam = (fx: Fixture, tests: readonly Omit<VitestTest, 'durationMs'>[]) =>
  seamOf(fx, CONFIG, tests, [...new Set(tests.map((t) => t.file))]);

/** `flakeguard ...args` in this process (test/helpers/in-process-cli.ts). */
const cli = (fx: Fixture, args: readonly string[]) => runCliInProcess(fx.root, args);

async function listed(fx: Fixture): Promise<ListedRow[]> {
  const result = await cli(fx, ['allowances', 'list', '--json']);
  expect(result.exitCode, result.output).toBe(0);
  return (JSON.parse(result.stdout) as { allowances: ListedRow[] }).allowances;
}

/** The git fixture with the entry added through the CLI and committed: made once per file (beforeAll). */
async function makeTemplate(): Promise<Fixture> {
  const fx = await createFixture({
    git: true,
    files: { 'flakeguard.yaml': CONFIG, 'test/hub/tracker.test.ts': TRACKER },
  });
  const add = await addAllowance(fx, {
    test: 'tracker > reloads journal',
    budget: '1s',
    reason: 'reads a large journal',
  });
  expect(add.exitCode, add.output).toBe(0);
  await commit(fx, 'allowance for the journal test');
  return fx;
}

/** Each test's own copy of the template (the tests change it independently). */
const setup = fixtureCopies(makeTemplate);

/**
 * The slow test named `name` in `file` gets the allowance (1 s) through `match`; with `vitest`, the
 * real Vitest runs it (it needs the allowance: over 200 ms, the run passes, the reporter says it
 * followed), else the engine is fed the tests read from the source.
 */
async function expectFollowed(
  fx: Fixture,
  file: string,
  name: string,
  match: string,
  vitest = false,
): Promise<string[]> {
  const rows = await listed(fx);
  expect(rows).toEqual([expect.objectContaining({ match, current: { fullName: name, file }, limitMs: 1000 })]);
  let tests: readonly Omit<VitestTest, 'durationMs'>[] = sourceTests(fx);
  if (vitest) {
    const ran = await vitestTests(fx);
    if (match !== 'exact') expect(ran.output).toMatch(/allowance [0-9a-f]{8} follows /);
    const slow = ran.find((t) => t.file === file && t.fullName === name);
    expect(slow?.durationMs).toBeGreaterThan(200);
    tests = ran;
  }
  const result = await seam(fx, tests);
  expect([...result.applied.keys()]).toEqual([allowanceKey({ file, fullName: name })]);
  expect(result.applied.get(allowanceKey({ file, fullName: name }))).toMatchObject({
    match,
    budget: { kind: 'single', value: 1000 },
    storedName: 'tracker > reloads journal',
    storedFile: 'test/hub/tracker.test.ts',
  });
  expect(result.warnings).toEqual([]);
  return result.notices;
}

describe('allowances follow their test', () => {
  it('applies exactly right after add', async () => {
    const fx = await setup();
    expect(await expectFollowed(fx, 'test/hub/tracker.test.ts', 'tracker > reloads journal', 'exact')).toEqual([]);
  });

  it('follows a renamed title', async () => {
    const fx = await setup();
    fx.write('test/hub/tracker.test.ts', TRACKER.replace("'reloads journal'", "'reloads the journal'"));
    await commit(fx, 'rename title');
    // The one run of the real Vitest here: the reporter applies the followed allowance to a 300 ms test.
    const notices = await expectFollowed(
      fx,
      'test/hub/tracker.test.ts',
      'tracker > reloads the journal',
      'renamed',
      true,
    );
    expect(notices).toEqual([
      expect.stringMatching(
        /^allowance [0-9a-f]{8} follows renamed test: "tracker > reloads journal" -> "tracker > reloads the journal" \(traced through git history\); run flakeguard allowances migrate/,
      ),
    ]);
  });

  it('follows a renamed describe', async () => {
    const fx = await setup();
    fx.write('test/hub/tracker.test.ts', TRACKER.replace("describe('tracker'", "describe('journal tracker'"));
    await commit(fx, 'rename describe');
    await expectFollowed(fx, 'test/hub/tracker.test.ts', 'journal tracker > reloads journal', 'renamed');
  });

  it('follows git mv', async () => {
    const fx = await setup();
    await fx.git(['mv', 'test/hub/tracker.test.ts', 'test/tracker.test.ts']);
    await commit(fx, 'move');
    const notices = await expectFollowed(fx, 'test/tracker.test.ts', 'tracker > reloads journal', 'moved');
    expect(notices[0]).toMatch(
      /follows moved test "tracker > reloads journal": test\/hub\/tracker\.test\.ts -> test\/tracker\.test\.ts/,
    );
  });

  it('follows a move and a title rename in one commit', async () => {
    const fx = await setup();
    mkdirSync(path.join(fx.root, 'test/core'));
    await fx.git(['mv', 'test/hub/tracker.test.ts', 'test/core/journal.test.ts']);
    fx.write('test/core/journal.test.ts', TRACKER.replace("'reloads journal'", "'reloads the journal'"));
    await commit(fx, 'move and rename');
    await expectFollowed(fx, 'test/core/journal.test.ts', 'tracker > reloads the journal', 'moved-renamed');
  });

  it('follows a move with the body edited in one commit (git rename detection, then the name)', async () => {
    const fx = await setup();
    mkdirSync(path.join(fx.root, 'test/core'));
    await fx.git(['mv', 'test/hub/tracker.test.ts', 'test/core/tracker.test.ts']);
    fx.write(
      'test/core/tracker.test.ts',
      TRACKER.replace('[1, 2, 3]).toHaveLength(3)', '[1, 2, 3, 4]).toHaveLength(4)'),
    );
    await commit(fx, 'move and edit');
    await expectFollowed(fx, 'test/core/tracker.test.ts', 'tracker > reloads journal', 'moved');
  });

  it('keeps applying when the body is edited and the title kept', async () => {
    const fx = await setup();
    fx.write('test/hub/tracker.test.ts', TRACKER.replace('setTimeout(resolve, 300)', 'setTimeout(resolve, 310)'));
    await commit(fx, 'edit body');
    await expectFollowed(fx, 'test/hub/tracker.test.ts', 'tracker > reloads journal', 'exact');
  });

  it('does not give a copy under a new title the allowance', async () => {
    const fx = await setup();
    const copy = `  it('reloads journal again', async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([1, 2, 3]).toHaveLength(3);
  });
`;
    fx.write('test/hub/tracker.test.ts', TRACKER.replace("  it('flushes'", `${copy}\n  it('flushes'`));
    await commit(fx, 'copy');
    const rows = await listed(fx);
    expect(rows).toEqual([
      expect.objectContaining({
        match: 'exact',
        current: { fullName: 'tracker > reloads journal', file: 'test/hub/tracker.test.ts' },
      }),
    ]);
    const tests = sourceTests(fx);
    expect(tests.map((t) => t.fullName)).toContain('tracker > reloads journal again');
    const result = await seam(fx, tests);
    // The copy (300 ms against the 200 ms budget) gets no allowance: a run fails on it.
    expect([...result.applied.keys()]).toEqual([
      allowanceKey({ file: 'test/hub/tracker.test.ts', fullName: 'tracker > reloads journal' }),
    ]);
  });
});

describe('orphans', () => {
  it('check reports the allowance of a deleted test and prune removes it', async () => {
    const fx = await setup();
    fx.write('test/hub/tracker.test.ts', TRACKER.replace(/ {2}it\('reloads journal'[\s\S]*?\n {2}}\);\n\n/, ''));
    await commit(fx, 'delete the test');
    const check = await cli(fx, ['allowances', 'check']);
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toMatch(
      /allowances\/test\/hub\/tracker\.test\.ts\.yaml:1:3: allowance [0-9a-f]{8} is an orphan: no test matches "tracker > reloads journal" in test\/hub\/tracker\.test\.ts/,
    );
    const stored = readFileSync(path.join(fx.root, STORE), 'utf8');
    const dry = await cli(fx, ['allowances', 'prune', '--dry-run']);
    expect(dry.stdout).toMatch(/^would remove orphan [0-9a-f]{8} "tracker > reloads journal"/);
    expect(readFileSync(path.join(fx.root, STORE), 'utf8')).toBe(stored);
    const prune = await cli(fx, ['allowances', 'prune']);
    expect(prune.exitCode).toBe(0);
    expect(prune.stdout).toMatch(/^removed orphan [0-9a-f]{8}/);
    const after = await cli(fx, ['allowances', 'check']);
    expect(after.exitCode, after.output).toBe(0);
    expect(after.stdout).toBe('0 allowances checked: no problems.');
    const result = await seam(fx, sourceTests(fx));
    expect(result).toEqual({ applied: new Map(), quarantine: new Map(), notices: [], warnings: [] });
  });
});
