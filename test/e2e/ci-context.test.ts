/**
 * The run's CI context end to end: the real Vitest with the built reporter, run once under GitHub
 * Actions' variables and once under GitLab CI's (set on the Vitest child), writes records that carry
 * their `ci`; triage over both jobs' records names the check that caught each failure and both jobs
 * for the failure they share; a run outside CI has `ci: null`. Triage reads the records in this
 * process (test/helpers/in-process-cli.ts; test/e2e/cli-smoke.test.ts spawns it once).
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_CI_ENV } from '../../src/core/record/ci-context.js';
import { createFixture, type Fixture, vitestConfigWithReporter } from '../helpers/fixture.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';
import { schemaErrors } from '../helpers/schema-check.js';

let fx: Fixture;

/** The variables each provider is detected by, emptied: the suite's own CI must not leak into the fixture's runs. */
/** Not in any CI the record knows, whatever runs this suite (every provider's marker blanked). */
const NO_CI = NO_CI_ENV;
const GITHUB = {
  ...NO_CI,
  GITHUB_ACTIONS: 'true',
  GITHUB_WORKFLOW: 'CI',
  GITHUB_JOB: 'test-linux',
  GITHUB_RUN_ID: '7001',
  GITHUB_RUN_ATTEMPT: '2',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'acme/shop',
  GITHUB_HEAD_REF: 'feat/cart',
  GITHUB_REF_NAME: '12/merge',
  GITHUB_SHA: '1111111111111111111111111111111111111111',
  RUNNER_OS: 'Linux',
};
const GITLAB = {
  ...NO_CI,
  GITLAB_CI: 'true',
  CI_JOB_NAME: 'unit 2/2',
  CI_PIPELINE_ID: '555',
  CI_JOB_URL: 'https://gitlab.com/acme/shop/-/jobs/77',
  CI_COMMIT_BRANCH: 'main',
  CI_COMMIT_SHA: '2222222222222222222222222222222222222222',
  CI_RUNNER_EXECUTABLE_ARCH: 'linux/amd64',
  CI_NODE_INDEX: '2',
  CI_NODE_TOTAL: '2',
};

interface Record_ {
  runId: string;
  ci: unknown;
}

const runs = () => path.join(fx.root, '.flakeguard/runs');
const newest = (): string =>
  path.join(
    runs(),
    readdirSync(runs())
      .filter((f) => f.endsWith('.json'))
      .sort()
      .at(-1) ?? '',
  );
const read = (file: string): Record_ => JSON.parse(readFileSync(file, 'utf8')) as Record_;

beforeAll(async () => {
  fx = await createFixture({
    files: {
      'vitest.config.ts': vitestConfigWithReporter(),
      'test/cart.test.ts': `import { expect, it } from 'vitest';\nit('totals', () => { expect(3).toBe(4); });\n`,
      'test/linux-only.test.ts': `import { expect, it } from 'vitest';\nit('paths', () => { expect(process.env.GITHUB_ACTIONS).toBeUndefined(); });\n`,
    },
  });
}, 60_000);

afterAll(() => fx.remove());

describe('the run record carries where it ran', () => {
  let github = '';
  let gitlab = '';

  it('under GitHub Actions and GitLab CI variables, each record has its provider, job, run and page', async () => {
    const a = await fx.vitest([], GITHUB);
    expect(a.exitCode, a.output).toBe(1);
    github = newest();
    expect(read(github).ci).toEqual({
      provider: 'github-actions',
      workflow: 'CI',
      job: 'test-linux',
      runId: '7001',
      attempt: 2,
      runUrl: 'https://github.com/acme/shop/actions/runs/7001',
      branch: 'feat/cart',
      commit: GITHUB.GITHUB_SHA,
      runnerOs: 'Linux',
      shard: null,
    });
    const b = await fx.vitest(['test/cart.test.ts'], GITLAB);
    expect(b.exitCode, b.output).toBe(1);
    gitlab = newest();
    // The records real runs wrote, in and outside CI, are what schemas/run-record.schema.json says (issue 47).
    for (const file of [github, gitlab]) expect(schemaErrors('run-record', read(file)), file).toEqual([]);
    expect(read(gitlab).ci).toEqual({
      provider: 'gitlab-ci',
      workflow: null,
      job: 'unit 2/2',
      runId: '555',
      attempt: null,
      runUrl: 'https://gitlab.com/acme/shop/-/jobs/77',
      branch: 'main',
      commit: GITLAB.CI_COMMIT_SHA,
      runnerOs: 'linux',
      shard: { index: 2, count: 2 },
    });
  }, 60_000);

  it("triage over both jobs' records names the check of each failure and both jobs for the shared one", async () => {
    const json = await flakeguardInProcess(fx, ['triage', '--record', github, '--record', gitlab, '--json']);
    expect(json.exitCode, json.output).toBe(1);
    const findings = (
      JSON.parse(json.stdout) as {
        findings: { fullName: string; caughtBy: { job: string }; seenBy: { provider: string; job: string }[] }[];
      }
    ).findings;
    const shared = findings.find((f) => f.fullName === 'totals');
    expect(shared?.seenBy.map((c) => [c.provider, c.job])).toEqual([
      ['github-actions', 'test-linux'],
      ['gitlab-ci', 'unit 2/2'],
    ]);
    expect(shared?.caughtBy.job).toBe('test-linux');
    expect(findings.find((f) => f.fullName === 'paths')?.seenBy.map((c) => c.job)).toEqual(['test-linux']);
    const text = await flakeguardInProcess(fx, ['triage', '--record', github, '--record', gitlab]);
    expect(text.stdout).toContain(
      '   caught by: GitHub Actions CI / test-linux https://github.com/acme/shop/actions/runs/7001',
    );
    expect(text.stdout).toContain(
      '   seen by 2 checks: GitHub Actions CI / test-linux; GitLab CI unit 2/2 (shard 2/2)',
    );
  }, 60_000);

  it('outside CI the record says ci: null, and triage prints no check', async () => {
    rmSync(runs(), { recursive: true, force: true });
    const run = await fx.vitest(['test/cart.test.ts'], NO_CI);
    expect(run.exitCode, run.output).toBe(1);
    expect(read(newest()).ci).toBeNull();
    const text = await flakeguardInProcess(fx, ['triage']);
    expect(text.exitCode, text.output).toBe(1);
    expect(text.stdout).not.toContain('caught by');
  }, 60_000);
});
