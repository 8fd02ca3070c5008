/**
 * `flakeguard allowances` on fixture projects: add errors, migrate, bad input, list --json fields.
 * The fixtures have no Vitest installed (no node_modules): the commands take the test files Vitest's
 * default include takes (io/vitest/list-test-files.ts) instead of starting the project's Vitest to
 * ask (about 0.6 CPU-s per command); which files are tests is test/io/vitest/list-test-files.test.ts's
 * subject, not this file's.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from '../helpers/fixture.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';
import { schemaErrors } from '../helpers/schema-check.js';
import { addAllowance, commit } from './allowances-helpers.js';

const TRACKER = `import { describe, it, expect } from 'vitest';
describe('tracker', () => {
  it('reloads journal', () => { expect(1).toBe(1); });
  it('flushes', () => { expect(2).toBe(2); });
  it.each([1, 2])('replays %i', (n) => { expect(n).toBeGreaterThan(0); });
});
`;

let fixture: Fixture | undefined;
afterEach(() => {
  fixture?.remove();
  fixture = undefined;
});

async function make(git = false): Promise<Fixture> {
  fixture = await createFixture({
    git,
    files: { 'flakeguard.yaml': 'budget:\n  test: 200ms\n', 'test/hub/tracker.test.ts': TRACKER },
  });
  rmSync(path.join(fixture.root, 'node_modules'));
  return fixture;
}

const read = (fx: Fixture, rel: string): string => readFileSync(path.join(fx.root, rel), 'utf8');

describe('allowances add', () => {
  it('refuses a test that does not exist, listing close names, exit 2', async () => {
    const fx = await make();
    const r = await addAllowance(fx, { test: 'tracker > reload journal', budget: '1s', reason: 'x' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      'flakeguard: no test "tracker > reload journal" in test/hub/tracker.test.ts (write the full name, titles joined with " > "); tests in that file include: "tracker > reloads journal"',
    );
  });

  it('refuses a bad duration, a missing reason and an unknown option, exit 2', async () => {
    const fx = await make();
    const base = ['allowances', 'add', '--file', 'test/hub/tracker.test.ts', '--test', 'tracker > flushes'];
    expect((await flakeguardInProcess(fx, [...base, '--budget', '5 sec', '--reason', 'x'])).stderr).toContain(
      '--budget "5 sec" is not a duration; write 250ms, 5s, 1.5s or 2m',
    );
    expect((await flakeguardInProcess(fx, [...base, '--budget', '5s'])).stderr).toContain(
      'allowances add needs --reason',
    );
    const unknown = await flakeguardInProcess(fx, [...base, '--budget', '5s', '--reason', 'x', '--colour', 'red']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--colour'");
  });

  it('adds a per-platform budget for a .each row and keeps entries sorted', async () => {
    const fx = await make();
    for (const test of ['tracker > replays 2', 'tracker > flushes', 'tracker > replays 1']) {
      const r = await addAllowance(fx, { test, budget: '1.5s', platform: 'linux', reason: 'slow disk' });
      expect(r.exitCode, r.output).toBe(0);
    }
    const text = read(fx, 'allowances/test/hub/tracker.test.ts.yaml');
    expect([...text.matchAll(/test: (.*)/g)].map((m) => m[1])).toEqual([
      'tracker > flushes',
      'tracker > replays 1',
      'tracker > replays 2',
    ]);
    expect(text).toContain('budget: { linux: 1.5s }');
    const again = await addAllowance(fx, { test: 'tracker > flushes', budget: '2s', reason: 'x' });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toMatch(
      /"tracker > flushes" already has allowance [0-9a-f]{8} at allowances\/test\/hub\/tracker\.test\.ts\.yaml:\d+; edit its budget there, or add --replace to set a new budget and reason in it/,
    );
    const list = JSON.parse((await flakeguardInProcess(fx, ['allowances', 'list', '--json'])).stdout) as {
      version: number;
      allowances: { match: string; current: unknown; budget: string }[];
    };
    expect(list.version).toBe(2);
    expect(schemaErrors('allowance-list', list)).toEqual([]);
    expect(list.allowances.map((a) => [a.match, a.current, a.budget])).toEqual([
      ['exact', { fullName: 'tracker > flushes', file: 'test/hub/tracker.test.ts' }, '{ linux: 1.5s }'],
      ['exact', { fullName: 'tracker > replays 1', file: 'test/hub/tracker.test.ts' }, '{ linux: 1.5s }'],
      ['exact', { fullName: 'tracker > replays 2', file: 'test/hub/tracker.test.ts' }, '{ linux: 1.5s }'],
    ]);
  });
});

describe('allowances add --replace', () => {
  const STORE = 'allowances/test/hub/tracker.test.ts.yaml';
  const replace = (fx: Fixture, test: string, budget: string, reason: string, ...more: string[]) =>
    addAllowance(fx, { test, budget, reason }, ['--replace', ...more]);

  it("sets a platform's limit or the whole budget in the entry the test has; its id, expiry and comments stay", async () => {
    const fx = await make();
    const first = await addAllowance(fx, {
      test: 'tracker > flushes',
      budget: '1.5s',
      platform: 'linux',
      reason: 'slow disk',
    });
    expect(first.exitCode, first.output).toBe(0);
    const id = /allowance ([0-9a-f]{8})/.exec(first.stdout)?.[1];
    // The user's comments, above the entry and inside it, and an expiry of their own.
    const stored = read(fx, STORE);
    writeFileSync(
      path.join(fx.root, STORE),
      `# reviewed with the web team\n${stored.replace('  budget:', '  # CI runner 3 is slow\n  budget:')}  expires: 2099-01-31\n`,
    );

    const darwin = await replace(
      fx,
      'tracker > flushes',
      '9s',
      'slow disk; mac runners slower',
      '--platform',
      'darwin',
    );
    expect(darwin.exitCode, darwin.output).toBe(0);
    expect(darwin.stdout).toContain(
      `replaced the budget of allowance ${id} for "tracker > flushes" (test/hub/tracker.test.ts) in ${STORE}: { linux: 1.5s } -> { linux: 1.5s, darwin: 9s }`,
    );
    const linux = await replace(fx, 'tracker > flushes', '3s', 'bigger journal', '--platform', 'linux');
    expect(linux.stdout).toContain('{ linux: 1.5s, darwin: 9s } -> { linux: 3s, darwin: 9s }');
    let text = read(fx, STORE);
    expect(text).toContain('# reviewed with the web team');
    expect(text).toContain('# CI runner 3 is slow');
    expect(text).toContain('budget: { linux: 3s, darwin: 9s }');
    expect(text).toContain('reason: bigger journal');
    expect(text).toContain('expires: 2099-01-31');
    expect([...text.matchAll(/- id: (\S+)/g)].map((m) => m[1])).toEqual([id]);

    // Without --platform the budget is one value again; --expires given is set.
    const whole = await replace(fx, 'tracker > flushes', '4s', 'one limit', '--expires', '2099-02-28');
    expect(whole.stdout).toContain('{ linux: 3s, darwin: 9s } -> 4s');
    text = read(fx, STORE);
    expect(text).toContain('budget: 4s');
    expect(text).toContain('expires: 2099-02-28');
    expect(text).toContain('# CI runner 3 is slow');

    // A test with no allowance yet: --replace adds one.
    const fresh = await replace(fx, 'tracker > reloads journal', '2s', 'first');
    expect(fresh.exitCode, fresh.output).toBe(0);
    expect(fresh.stdout).toMatch(/^added allowance [0-9a-f]{8} for "tracker > reloads journal"/);

    // Bad input with --replace still changes nothing.
    const before = read(fx, STORE);
    const bad = await replace(fx, 'tracker > flushes', '5 sec', 'x');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--budget "5 sec" is not a duration');
    expect(read(fx, STORE)).toBe(before);
    const check = await flakeguardInProcess(fx, ['allowances', 'check']);
    expect(check.exitCode, check.output).toBe(0);
  });
});

describe('allowances list', () => {
  it('shows the last measured duration from the newest run record', async () => {
    const fx = await make();
    await addAllowance(fx, { test: 'tracker > flushes', budget: '2s', reason: 'x' });
    const test = {
      key: 'test/hub/tracker.test.ts::tracker > flushes',
      file: 'test/hub/tracker.test.ts',
      name: 'tracker > flushes',
      line: 4,
      state: 'passed',
      durationMs: 1234,
      retries: 0,
      flaky: false,
      errors: [],
      limitMs: 2000,
      limitSource: 'allowance',
    };
    const record = {
      version: 1,
      runId: '2026-11-30T10-00-00-000Z-1',
      startedAt: '2026-11-30T10:00:00.000Z',
      endedAt: '2026-11-30T10:00:01.000Z',
      root: fx.root,
      platform: 'linux',
      arch: 'x64',
      cpus: 2,
      loadavgStart: [0, 0, 0],
      loadavgEnd: [0, 0, 0],
      nodeVersion: 'v20.20.2',
      vitestVersion: '4.1.12',
      git: { commit: null, dirty: null },
      shard: null,
      merged: false,
      exitReason: 'passed',
      exitCode: null,
      unhandledErrors: [],
      budget: { testMs: 200, fileMs: null, warnAt: 0.8 },
      violations: [],
      tests: [test],
      files: [],
    };
    mkdirSync(path.join(fx.root, '.flakeguard/runs'), { recursive: true });
    writeFileSync(path.join(fx.root, '.flakeguard/runs/2026-11-30T10-00-00-000Z-1.json'), JSON.stringify(record));
    const r = await flakeguardInProcess(fx, ['allowances', 'list']);
    expect(r.exitCode, r.output).toBe(0);
    expect(r.stdout).toMatch(
      /^[0-9a-f]{8} {2}tracker > flushes {2}\(test\/hub\/tracker\.test\.ts\)\n {4}exact · limit 2\.00s · last 1\.23s\n {4}allowances\/test\/hub\/tracker\.test\.ts\.yaml:1:3 · x$/,
    );
  });
});

describe('allowances check on bad input', () => {
  it('names file:line:column of each bad entry, still checks the good one, exit 1', async () => {
    const fx = await make();
    fx.write(
      'allowances/test/hub/tracker.test.ts.yaml',
      `# hand-written
- id: a1b2c3d4
  test: tracker > flushes
  file: test/hub/tracker.test.ts
  budget: 2s
  reason: fsync
  added: 2026-11-30
- id: a1b2c3d4
  test: tracker > reloads journal
  file: test/hub/tracker.test.ts
  budget: 5 sec
  reason: ""
  added: 2026-11-30
`,
    );
    fx.write('allowances/test/other.test.ts.yaml', '- id: b1\n  test: [oops\n');
    const r = await flakeguardInProcess(fx, ['allowances', 'check']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain(
      'allowances/test/hub/tracker.test.ts.yaml:11:11: budget "5 sec" is not a duration; write 250ms, 5s, 1.5s or 2m',
    );
    expect(r.stdout).toContain(
      'allowances/test/hub/tracker.test.ts.yaml:12:11: reason is missing or empty; say why this test may take longer than the budget',
    );
    expect(r.stdout).toMatch(/allowances\/test\/other\.test\.ts\.yaml:\d+:\d+: YAML syntax error: /);
    expect(r.stdout).toContain('3 problems in 1 allowance.');
    const list = JSON.parse((await flakeguardInProcess(fx, ['allowances', 'list', '--json'])).stdout) as {
      allowances: { id: string; match: string }[];
    };
    expect(list.allowances).toEqual([expect.objectContaining({ id: 'a1b2c3d4', match: 'exact' })]);
  });
});

describe('allowances migrate', () => {
  it('records the new name and file and moves the entry, keeping its comments', async () => {
    const fx = await make(true);
    await addAllowance(fx, { test: 'tracker > reloads journal', budget: '2s', reason: 'journal' });
    const store = 'allowances/test/hub/tracker.test.ts.yaml';
    fx.write(store, read(fx, store).replace('budget: 2s', 'budget: 2s # measured 1.6s on CI'));
    await commit(fx, 'allowance');
    mkdirSync(path.join(fx.root, 'test/core'));
    await fx.git(['mv', 'test/hub/tracker.test.ts', 'test/core/journal.test.ts']);
    fx.write('test/core/journal.test.ts', TRACKER.replace("'reloads journal'", "'reloads the journal'"));
    const dry = await flakeguardInProcess(fx, ['allowances', 'migrate', '--dry-run']);
    expect(dry.stdout).toMatch(
      /^would migrate [0-9a-f]{8}: name "tracker > reloads journal" -> "tracker > reloads the journal", file test\/hub\/tracker\.test\.ts -> test\/core\/journal\.test\.ts, commit [0-9a-f]{10}, entry allowances\/test\/hub\/tracker\.test\.ts\.yaml -> allowances\/test\/core\/journal\.test\.ts\.yaml$/,
    );
    const r = await flakeguardInProcess(fx, ['allowances', 'migrate']);
    expect(r.exitCode, r.output).toBe(0);
    const moved = read(fx, 'allowances/test/core/journal.test.ts.yaml');
    expect(moved).toContain('test: tracker > reloads the journal\n  file: test/core/journal.test.ts\n');
    expect(moved).toContain('budget: 2s # measured 1.6s on CI');
    expect(() => read(fx, store)).toThrow();
    const list = JSON.parse((await flakeguardInProcess(fx, ['allowances', 'list', '--json'])).stdout) as {
      allowances: { match: string }[];
    };
    expect(list.allowances.map((a) => a.match)).toEqual(['exact']);
    expect((await flakeguardInProcess(fx, ['allowances', 'migrate'])).stdout).toBe(
      'Every allowance already names its test as it is now.',
    );
  });
});
