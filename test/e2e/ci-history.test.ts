/**
 * Which check caught an escape first, end to end: the reporter records real runs of a git checkout
 * under simulated CI jobs (a GitHub Actions job passes, a GitLab CI job then fails, a later GitHub
 * Actions job fails too), whose records are stored in the embedded store (history ingest, as the
 * reporter stores them: test/helpers/history-template.ts's ingestRunRecords); triage of the newest
 * red run names the GitLab job as the check that caught it first on main, and the GitHub job of its
 * last pass. Triage runs in this process (test/e2e/cli-smoke.test.ts spawns it once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_CI_ENV } from '../../src/core/record/ci-context.js';
import { createFixture, type Fixture, vitestConfigWithReporter } from '../helpers/fixture.js';
import { ingestRunRecords, seedHistoryStore } from '../helpers/history-template.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';

/** Not in any CI the record knows, whatever runs this suite (every provider's marker blanked). */
const NO_CI = NO_CI_ENV;
const github = (run: string) => ({
  ...NO_CI,
  GITHUB_ACTIONS: 'true',
  GITHUB_WORKFLOW: 'CI',
  GITHUB_JOB: 'test',
  GITHUB_RUN_ID: run,
  GITHUB_RUN_ATTEMPT: '1',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'acme/shop',
  GITHUB_REF_NAME: 'main',
  GITHUB_REF_TYPE: 'branch',
});
const GITLAB = {
  ...NO_CI,
  GITLAB_CI: 'true',
  CI_JOB_NAME: 'unit',
  CI_PIPELINE_ID: '555',
  CI_JOB_URL: 'https://gitlab.com/acme/shop/-/jobs/77',
  CI_COMMIT_BRANCH: 'main',
};

describe('an escape names the check that caught it first and the job of its last pass', () => {
  let fx: Fixture;
  let green = '';
  let broken = '';
  beforeAll(async () => {
    fx = await createFixture({
      git: true,
      files: {
        'vitest.config.ts': vitestConfigWithReporter(),
        'src/total.js': 'export const total = 4;\n',
        'test/cart.test.ts': `import { expect, it } from 'vitest';\nimport { total } from '../src/total.js';\nit('totals', () => { expect(total).toBe(4); });\n`,
      },
    });
    seedHistoryStore(fx.root);
    green = (await fx.git(['rev-parse', 'HEAD'])).trim();
    const pass = await fx.vitest([], github('7001'));
    expect(pass.exitCode, pass.output).toBe(0);
    fx.write('src/total.js', 'export const total = 3;\n');
    await fx.git(['commit', '-qam', 'total three']);
    broken = (await fx.git(['rev-parse', 'HEAD'])).trim();
    expect((await fx.vitest([], GITLAB)).exitCode).toBe(1);
    const red = await fx.vitest([], github('7002'));
    expect(red.exitCode).toBe(1);
    await ingestRunRecords(fx, 'history: true\n');
  }, 120_000);

  afterAll(() => fx.remove());

  it('triage of the newest red run: first caught by the GitLab job, last passed in the GitHub job', async () => {
    const triage = await flakeguardInProcess(fx, ['triage']);
    expect(triage.exitCode, triage.output).toBe(1);
    expect(triage.stdout).toContain(
      'caught by: GitHub Actions CI / test https://github.com/acme/shop/actions/runs/7002',
    );
    expect(triage.stdout).toContain(`history (measured): first caught on main in the run of ${broken.slice(0, 12)} (`);
    expect(triage.stdout).toMatch(
      /first caught on main in the run of \w{12} \([^)]*\), job GitLab CI unit https:\/\/gitlab\.com\/acme\/shop\/-\/jobs\/77/,
    );
    expect(triage.stdout).toMatch(
      new RegExp(
        `last passed on main in the run of ${green.slice(0, 12)} \\([^)]*\\), job GitHub Actions CI / test https://github\\.com/acme/shop/actions/runs/7001`,
      ),
    );
  }, 60_000);
});
