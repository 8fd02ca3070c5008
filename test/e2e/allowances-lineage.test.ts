/**
 * The team that never runs `allowances migrate`: one allowance, then a commit per change (retitle,
 * describe rename, move, move plus retitle, body edit, a copy of the old body, delete), the
 * allowance engine after each, as the reporter calls it (loadAllowancesForRun, its lineage cache
 * walked one commit further each time). Lineage carries the allowance through every change one at
 * a time; the real Vitest with flakeguard's reporter runs after the body edit (green: the reporter
 * follows the whole chain) and after the copy of the old body, which gets no allowance (over budget)
 * while the original keeps it; after the delete the orphan is reported (with where its lineage
 * ended), then pruned. A shallow clone has no lineage: it says so.
 * Each single change with one run of the reporter: test/e2e/allowances-follow.test.ts.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowanceKey } from '../../src/core/allowances/allowance-match.js';
import { createFixture, type Fixture, fixtureCopies } from '../helpers/fixture.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';
import { addAllowance, commit, commitAndRun, listed, seam, sourceTests } from './allowances-helpers.js';
import { gateAtNoSlowdown } from './gate-fixtures.js';

const CONFIG = 'budget:\n  test: 200ms\n';
const SLOW = `  it('reloads journal', async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([1, 2, 3]).toHaveLength(3);
  });
`;
const source = (describeTitle: string, tests: string): string =>
  `import { describe, it, expect } from 'vitest';\n\ndescribe('${describeTitle}', () => {\n${tests}\n  it('flushes', () => {\n    expect(2 + 2).toBe(4);\n  });\n});\n`;

/**
 * A git fixture with the slow test in test/hub/tracker.test.ts and its allowance, not committed: 3 s,
 * ten times the 300 ms sleep, so a run beside another file (project e2e) stays within it. Made once
 * (the allowance added through the CLI); each test changes its own copy.
 */
const withAllowance = fixtureCopies(async () => {
  const fx = await createFixture({
    git: true,
    files: { 'flakeguard.yaml': CONFIG, 'test/hub/tracker.test.ts': source('tracker', SLOW) },
  });
  const add = await addAllowance(fx, {
    test: 'tracker > reloads journal',
    budget: '3s',
    reason: 'reads a large journal',
  });
  expect(add.exitCode, add.output).toBe(0);
  return fx;
});

/** Commits; the run is green, the slow test `name` in `file` gets the allowance, and no warning is printed. */
async function commitAndExpectKept(fx: Fixture, message: string, file: string, name: string): Promise<void> {
  const { tests, result } = await commitAndRun(fx, message, CONFIG);
  expect([...result.applied.keys()]).toEqual([allowanceKey({ file, fullName: name })]);
  expect(result.warnings).toEqual([]);
  expect(tests.find((t) => t.file === file && t.fullName === name)?.durationMs).toBeGreaterThan(200);
}

/**
 * Commits and feeds the engine the tests read from the source (and their files, as the reporter
 * passes its Vitest's): no Vitest run. Returns what it decided.
 */
async function commitAndResolve(fx: Fixture, message: string) {
  await commit(fx, message);
  const tests = sourceTests(fx);
  return seam(fx, CONFIG, tests, [...new Set(tests.map((t) => t.file))]);
}

/** Writes `text` to `file`, commits, and expects the engine to give the allowance to `file` > `name`, with no warning. */
async function step(fx: Fixture, message: string, file: string, text: string, name: string): Promise<void> {
  fx.write(file, text);
  const result = await commitAndResolve(fx, message);
  expect([...result.applied.keys()]).toEqual([allowanceKey({ file, fullName: name })]);
  expect(result.warnings).toEqual([]);
}

describe('an allowance through a team that never migrates', () => {
  it('follows each change through history, never to a copy, and ends as an orphan when the test is deleted', async () => {
    const fx = withAllowance();
    const store = 'allowances/test/hub/tracker.test.ts.yaml';
    const stored = readFileSync(path.join(fx.root, store), 'utf8');
    expect(stored).toMatch(/\n {2}commit: [0-9a-f]{40}\n/);
    await step(fx, 'allowance', 'test/hub/tracker.test.ts', source('tracker', SLOW), 'tracker > reloads journal');

    const retitled = SLOW.replace("'reloads journal'", "'reloads the journal'");
    await step(fx, 'retitle', 'test/hub/tracker.test.ts', source('tracker', retitled), 'tracker > reloads the journal');
    await step(
      fx,
      'describe rename',
      'test/hub/tracker.test.ts',
      source('journal tracker', retitled),
      'journal tracker > reloads the journal',
    );

    await fx.git(['mv', 'test/hub/tracker.test.ts', 'test/tracker.test.ts']);
    await step(
      fx,
      'move',
      'test/tracker.test.ts',
      source('journal tracker', retitled),
      'journal tracker > reloads the journal',
    );

    mkdirSync(path.join(fx.root, 'test/core'));
    await fx.git(['mv', 'test/tracker.test.ts', 'test/core/journal.test.ts']);
    const movedTitle = SLOW.replace("'reloads journal'", "'reloads from disk'");
    await step(
      fx,
      'move and retitle',
      'test/core/journal.test.ts',
      source('journal tracker', movedTitle),
      'journal tracker > reloads from disk',
    );
    // The real Vitest with the reporter: green, the 300 ms test under the allowance it followed
    // through every commit since the one the allowance records.
    const edited = movedTitle.replace('setTimeout(resolve, 300)', 'setTimeout(resolve, 310)');
    fx.write('test/core/journal.test.ts', source('journal tracker', edited));
    await commitAndExpectKept(fx, 'body edit', 'test/core/journal.test.ts', 'journal tracker > reloads from disk');

    // A copy of the test's original body (the fingerprint the allowance stored) under a new name.
    const copy = SLOW.replace("'reloads journal'", "'reloads a copy'");
    fx.write('test/core/journal.test.ts', source('journal tracker', `${edited}\n${copy}`));
    const { tests: withCopy, result } = await commitAndRun(fx, 'copy of the old body', CONFIG, 1);
    expect([...result.applied.keys()]).toEqual([
      allowanceKey({ file: 'test/core/journal.test.ts', fullName: 'journal tracker > reloads from disk' }),
    ]);
    expect(withCopy.find((t) => t.fullName === 'journal tracker > reloads a copy')?.durationMs).toBeGreaterThan(200);
    expect(withCopy.output).toContain('journal tracker > reloads a copy');
    expect(await listed(fx)).toEqual([
      expect.objectContaining({
        match: 'moved-renamed',
        current: { fullName: 'journal tracker > reloads from disk', file: 'test/core/journal.test.ts' },
      }),
    ]);

    // Delete the original: the copy, with the body the allowance stored, still does not get it.
    fx.write('test/core/journal.test.ts', source('journal tracker', copy));
    const afterDelete = await commitAndResolve(fx, 'delete the original');
    expect(afterDelete.applied.size).toBe(0);
    expect(afterDelete.warnings).toEqual([
      expect.stringMatching(
        /^allowances\/test\/hub\/tracker\.test\.ts\.yaml:1:3: allowance [0-9a-f]{8} is an orphan: no test matches "tracker > reloads journal" in test\/hub\/tracker\.test\.ts \(its lineage: the test \(last "journal tracker > reloads from disk"\) left test\/core\/journal\.test\.ts in commit [0-9a-f]{10}: deleted, or renamed and edited in one step\)/,
      ),
    ]);
    const check = await flakeguardInProcess(fx, ['allowances', 'check']);
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toContain('is an orphan');
    const prune = await flakeguardInProcess(fx, ['allowances', 'prune']);
    expect(prune.stdout).toMatch(/^removed orphan [0-9a-f]{8} "tracker > reloads journal"/);
    const after = await flakeguardInProcess(fx, ['allowances', 'check']);
    expect(after.stdout).toBe('0 allowances checked: no problems.');
  });

  it('says so and matches by name and body when the recorded commit is not in the clone', async () => {
    const fx = withAllowance();
    const store = 'allowances/test/hub/tracker.test.ts.yaml';
    const missing = 'f'.repeat(40);
    fx.write(
      store,
      readFileSync(path.join(fx.root, store), 'utf8').replace(/commit: [0-9a-f]{40}/, `commit: ${missing}`),
    );
    fx.write('test/hub/tracker.test.ts', source('tracker', SLOW.replace("'reloads journal'", "'reloads the journal'")));
    const { tests, result } = await commitAndRun(fx, 'allowance and a retitle', CONFIG);
    expect(tests.output).toContain(`no lineage to follow (commit ${missing.slice(0, 10)} is not in this clone`);
    expect(
      result.applied.get(allowanceKey({ file: 'test/hub/tracker.test.ts', fullName: 'tracker > reloads the journal' })),
    ).toMatchObject({
      match: 'renamed',
    });
  });

  it('gate --write-allowances records the new name of a followed allowance in the change that renamed it', async () => {
    const fx = withAllowance();
    await commit(fx, 'allowance');
    await fx.git(['checkout', '-q', '-b', 'feature']);
    fx.write('test/hub/tracker.test.ts', source('tracker', SLOW.replace("'reloads journal'", "'reloads the journal'")));
    await commit(fx, 'retitle');
    const gate = await fx.flakeguard(gateAtNoSlowdown(1, 0, '--write-allowances'));
    expect(gate.exitCode, gate.output).toBe(0);
    expect(gate.stderr).toMatch(
      /flakeguard gate: migrated [0-9a-f]{8}: name "tracker > reloads journal" -> "tracker > reloads the journal", fingerprint, commit [0-9a-f]{10}|flakeguard gate: migrated [0-9a-f]{8}: name "tracker > reloads journal" -> "tracker > reloads the journal", commit [0-9a-f]{10}/,
    );
    expect(readFileSync(path.join(fx.root, 'allowances/test/hub/tracker.test.ts.yaml'), 'utf8')).toContain(
      'test: tracker > reloads the journal\n',
    );
    const check = await flakeguardInProcess(fx, ['allowances', 'check']);
    expect(check.stdout).toBe('1 allowance checked: no problems.');
  });
});
