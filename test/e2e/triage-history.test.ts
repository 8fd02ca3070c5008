/**
 * Triage with history, end to end on the real Vitest: the embedded store holds real runs of a git
 * checkout (the reporter's records, stored with history ingest as the reporter stores them:
 * test/helpers/history-template.ts's ingestRunRecords); triage of a red run then classifies a test that
 * failed and passed on a re-run of the same commit as a known flake without --rerun, and names the
 * last green run (commit, date) of a test that always passed and now fails every re-run. Triage runs
 * in this process (test/helpers/in-process-cli.ts; test/e2e/cli-smoke.test.ts spawns it once), its
 * re-runs in real Vitest processes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, vitestConfigWithReporter } from '../helpers/fixture.js';
import { ingestRunRecords, seedHistoryStore } from '../helpers/history-template.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';

// Fails on every even-numbered run of the fixture (a counter file shared by all runs): fails, passes, fails...
const FLAKY_TEST = `import { expect, test } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
test('polls the queue', () => {
  mkdirSync(new URL('../.flakeguard/', import.meta.url), { recursive: true });
  const file = new URL('../.flakeguard/tries', import.meta.url);
  const tries = existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0;
  writeFileSync(file, String(tries + 1));
  expect(tries % 2, 'the queue was empty').toBe(1);
});
`;

const VALUE_TEST = `import { expect, test } from 'vitest';
import { value } from '../src/value.js';
test('value is one', () => {
  expect(value).toBe(1);
});
`;

const RED = { FLAKEGUARD_BRANCH: 'main' };

interface Json {
  findings: {
    class: string;
    fullName: string | null;
    measured: boolean;
    rule: string;
    cause: string;
    evidence: string[];
    action: string;
  }[];
  history: { branch: string; window: number; tests: number } | null;
}

describe('triage with history from real runs', () => {
  let fx: Fixture;
  let green = '';
  beforeAll(async () => {
    fx = await createFixture({
      git: true,
      files: {
        'flakeguard.yaml': 'budget:\n  test: 5s\n',
        'vitest.config.ts': vitestConfigWithReporter(),
        'src/value.js': 'export const value = 1;\n',
        'test/flaky.test.ts': FLAKY_TEST,
        'test/value.test.ts': VALUE_TEST,
      },
    });
    seedHistoryStore(fx.root);
    green = (await fx.git(['rev-parse', 'HEAD'])).trim();
    // Run 1 on the first commit: the flaky test fails. Run 2, same commit: it passes (a re-run).
    expect((await fx.vitest([], RED)).exitCode).toBe(1);
    const second = await fx.vitest([], RED);
    expect(second.exitCode, second.output).toBe(0);
    // A change breaks value.test.ts; run 3 on it is red with both tests failing.
    fx.write('src/value.js', 'export const value = 2;\n');
    await fx.git(['commit', '-qam', 'value two']);
    const red = await fx.vitest([], RED);
    expect(red.exitCode).toBe(1);
    await ingestRunRecords(fx, 'budget:\n  test: 5s\nhistory: true\n');
  });
  afterAll(() => fx?.remove());

  it('classifies the test that failed then passed on a re-run of the same commit as a known flake without --rerun; the other names its last green run', async () => {
    const triage = await flakeguardInProcess(fx, ['triage', '--json']);
    expect(triage.exitCode, triage.output).toBe(1);
    const json = JSON.parse(triage.stdout) as Json;
    expect(json.history).toEqual({ branch: 'main', window: 200, tests: 2 });
    const flake = json.findings.find((f) => f.fullName === 'polls the queue');
    expect(flake).toMatchObject({ class: 'flake', measured: true, rule: 'history-flake' });
    expect(flake?.evidence).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^history \\(measured\\): failed 1 of the last 2 runs on main, each passed on a re-run of the same commit \\(latest ${green.slice(0, 12)} \\(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\)\\)$`,
        ),
      ),
    );
    const escaped = json.findings.find((f) => f.fullName === 'value is one');
    expect(escaped).toMatchObject({ class: 'escape', measured: false, rule: 'failed-not-rerun' });
    expect(escaped?.evidence).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^history \\(measured\\): never failed in its last 2 recorded runs on main; last passed in the run of ${green.slice(0, 12)} \\(\\d{4}-`,
        ),
      ),
    );

    const plain = await flakeguardInProcess(fx, ['triage', '--no-history', '--json']);
    const without = JSON.parse(plain.stdout) as Json;
    expect(without.history).toBeNull();
    expect(without.findings.find((f) => f.fullName === 'polls the queue')).toMatchObject({
      class: 'escape',
      measured: false,
    });
  });

  it('with --rerun, the test that always passed and fails every re-run is an escape naming its last green run, commit and date', async () => {
    // One re-run per failure (a Vitest process each): how many re-runs and what each decides is
    // test/e2e/triage-rerun.test.ts's subject; here, what history adds to an escape the re-run measured.
    const triage = await flakeguardInProcess(fx, ['triage', '--rerun', '1', '--json']);
    expect(triage.exitCode, triage.output).toBe(1);
    const escaped = (JSON.parse(triage.stdout) as Json).findings.find((f) => f.fullName === 'value is one');
    expect(escaped).toMatchObject({ class: 'escape', measured: true, rule: 'rerun-failed' });
    expect(escaped?.cause).toMatch(
      new RegExp(
        `it never failed in its 2 recorded runs on main and last passed at ${green.slice(0, 12)} \\(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\)$`,
      ),
    );
    expect(escaped?.action).toContain(`the change that broke it is in ${green.slice(0, 12)}..HEAD`);
  });

  it('a store that cannot be reached: one warning line, triage still classifies', async () => {
    const triage = await flakeguardInProcess(fx, ['triage'], {
      FLAKEGUARD_HISTORY_URL: 'postgres://ci:secret@127.0.0.1:1/flakes',
    });
    expect(triage.exitCode, triage.output).toBe(1);
    const warnings = triage.stderr.split('\n').filter((l) => l.includes('history was not used'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^flakeguard: warning: history was not used \(postgres:\/\/ci:\*\*\*@127\.0\.0\.1:1\/flakes\): .+; the findings are from the run's own inputs$/,
    );
    expect(triage.stderr).not.toContain('secret');
    expect(triage.stdout).toContain('escape');
  });
});
