import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CI_PROVIDERS, ciJobLabel, type Env, NO_CI_ENV, readCiContext } from '../../../src/core/record/ci-context.js';

describe('readCiContext', () => {
  it('detects each provider by its marker alone, and none under NO_CI_ENV, whatever CI runs this suite', () => {
    const markers = Object.keys(NO_CI_ENV);
    expect(markers).toHaveLength(CI_PROVIDERS.length);
    const value = (marker: string): string => (marker === 'JENKINS_URL' ? 'https://ci.example/' : 'true');
    expect(markers.map((m) => readCiContext({ [m]: value(m) }, null)?.provider)).toEqual([...CI_PROVIDERS]);
    const everyMarker = Object.fromEntries(markers.map((m) => [m, value(m)]));
    expect(readCiContext({ ...everyMarker, ...NO_CI_ENV }, null)).toBeNull();
  });

  it('is null outside a known CI, whatever else is set', () => {
    expect(readCiContext({ CI: 'true', GITHUB_RUN_ID: '1', CI_JOB_NAME: 'test' }, null)).toBeNull();
    expect(readCiContext({}, { index: 1, count: 2 })).toBeNull();
  });

  it('GitHub Actions: workflow, job, run and attempt, the run page, the PR branch, runner OS', () => {
    const env = {
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKFLOW: 'CI',
      GITHUB_JOB: 'test',
      GITHUB_RUN_ID: '9876',
      GITHUB_RUN_ATTEMPT: '2',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'acme/shop',
      GITHUB_HEAD_REF: 'feat/cart',
      GITHUB_REF_NAME: '12/merge',
      GITHUB_SHA: 'abc1234',
      RUNNER_OS: 'Linux',
    };
    expect(readCiContext(env, null)).toEqual({
      provider: 'github-actions',
      workflow: 'CI',
      job: 'test',
      runId: '9876',
      attempt: 2,
      runUrl: 'https://github.com/acme/shop/actions/runs/9876',
      branch: 'feat/cart',
      commit: 'abc1234',
      runnerOs: 'Linux',
      shard: null,
    });
    expect(
      readCiContext(
        { GITHUB_ACTIONS: 'true', GITHUB_HEAD_REF: '', GITHUB_REF_NAME: 'main', GITHUB_REF_TYPE: 'branch' },
        null,
      )?.branch,
    ).toBe('main');
    expect(
      readCiContext({ GITHUB_ACTIONS: 'true', GITHUB_REF_NAME: 'v1.0', GITHUB_REF_TYPE: 'tag' }, null)?.branch,
    ).toBeNull();
    // No server or repository: no URL is made up.
    expect(readCiContext({ GITHUB_ACTIONS: 'true', GITHUB_RUN_ID: '1' }, null)?.runUrl).toBeNull();
  });

  it('GitLab CI: pipeline, job page, merge request branch, runner OS and parallel index (1-based)', () => {
    const env = {
      GITLAB_CI: 'true',
      CI_PIPELINE_NAME: 'MR pipeline',
      CI_JOB_NAME: 'test 2/3',
      CI_PIPELINE_ID: '555',
      CI_JOB_URL: 'https://gitlab.com/acme/shop/-/jobs/77',
      CI_PIPELINE_URL: 'https://gitlab.com/acme/shop/-/pipelines/555',
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feat/cart',
      CI_COMMIT_REF_NAME: 'feat/cart',
      CI_COMMIT_SHA: 'def5678',
      CI_RUNNER_EXECUTABLE_ARCH: 'linux/amd64',
      CI_NODE_INDEX: '2',
      CI_NODE_TOTAL: '3',
    };
    expect(readCiContext(env, null)).toEqual({
      provider: 'gitlab-ci',
      workflow: 'MR pipeline',
      job: 'test 2/3',
      runId: '555',
      attempt: null,
      runUrl: 'https://gitlab.com/acme/shop/-/jobs/77',
      branch: 'feat/cart',
      commit: 'def5678',
      runnerOs: 'linux',
      shard: { index: 2, count: 3 },
    });
    expect(
      readCiContext({ GITLAB_CI: 'true', CI_COMMIT_TAG: 'v1', CI_COMMIT_REF_NAME: 'v1' }, null)?.branch,
    ).toBeNull();
    expect(readCiContext({ GITLAB_CI: 'true', CI_NODE_INDEX: '1', CI_NODE_TOTAL: '1' }, null)?.shard).toBeNull();
  });

  it("Vitest's --shard wins over the provider's parallel index", () => {
    expect(
      readCiContext({ GITLAB_CI: 'true', CI_NODE_INDEX: '2', CI_NODE_TOTAL: '3' }, { index: 1, count: 4 })?.shard,
    ).toEqual({ index: 1, count: 4 });
  });

  it('CircleCI: job, workflow run id, build page, 0-based node index as a 1-based shard', () => {
    const env = {
      CIRCLECI: 'true',
      CIRCLE_JOB: 'unit',
      CIRCLE_WORKFLOW_ID: 'wf-1',
      CIRCLE_BUILD_URL: 'https://circleci.com/gh/acme/shop/42',
      CIRCLE_BRANCH: 'main',
      CIRCLE_SHA1: 'aaa1111',
      CIRCLE_NODE_INDEX: '0',
      CIRCLE_NODE_TOTAL: '4',
    };
    expect(readCiContext(env, null)).toEqual({
      provider: 'circleci',
      workflow: null,
      job: 'unit',
      runId: 'wf-1',
      attempt: null,
      runUrl: 'https://circleci.com/gh/acme/shop/42',
      branch: 'main',
      commit: 'aaa1111',
      runnerOs: null,
      shard: { index: 1, count: 4 },
    });
  });

  it('Buildkite: pipeline, step label, build number, retry count as the attempt, a commit only when it is a sha', () => {
    const env = {
      BUILDKITE: 'true',
      BUILDKITE_PIPELINE_SLUG: 'shop',
      BUILDKITE_LABEL: ':vitest: unit',
      BUILDKITE_BUILD_NUMBER: '314',
      BUILDKITE_RETRY_COUNT: '1',
      BUILDKITE_BUILD_URL: 'https://buildkite.com/acme/shop/builds/314',
      BUILDKITE_BRANCH: 'main',
      BUILDKITE_COMMIT: 'HEAD',
      BUILDKITE_PARALLEL_JOB: '2',
      BUILDKITE_PARALLEL_JOB_COUNT: '3',
    };
    expect(readCiContext(env, null)).toEqual({
      provider: 'buildkite',
      workflow: 'shop',
      job: ':vitest: unit',
      runId: '314',
      attempt: 2,
      runUrl: 'https://buildkite.com/acme/shop/builds/314',
      branch: 'main',
      commit: null,
      runnerOs: null,
      shard: { index: 3, count: 3 },
    });
  });

  it('Jenkins: job name, stage, build number and page, the Git plugin branch without its remote', () => {
    const env = {
      JENKINS_URL: 'https://ci.acme.dev/',
      JOB_NAME: 'shop/main',
      STAGE_NAME: 'Test',
      BUILD_NUMBER: '88',
      BUILD_URL: 'https://ci.acme.dev/job/shop/88/',
      GIT_BRANCH: 'origin/main',
      GIT_COMMIT: 'bbb2222',
    };
    expect(readCiContext(env, null)).toEqual({
      provider: 'jenkins',
      workflow: 'shop/main',
      job: 'Test',
      runId: '88',
      attempt: null,
      runUrl: 'https://ci.acme.dev/job/shop/88/',
      branch: 'main',
      commit: 'bbb2222',
      runnerOs: null,
      shard: null,
    });
    expect(readCiContext({ JENKINS_URL: 'x', BRANCH_NAME: 'PR-4', GIT_BRANCH: 'origin/feat' }, null)?.branch).toBe(
      'PR-4',
    );
  });

  it('Azure Pipelines: definition, job, build id and attempt, the results page, the PR source branch, agent OS, job position', () => {
    const env = {
      TF_BUILD: 'True',
      BUILD_DEFINITIONNAME: 'shop-ci',
      SYSTEM_JOBDISPLAYNAME: 'Unit tests',
      BUILD_BUILDID: '1201',
      SYSTEM_JOBATTEMPT: '1',
      SYSTEM_COLLECTIONURI: 'https://dev.azure.com/acme/',
      SYSTEM_TEAMPROJECT: 'Web Shop',
      SYSTEM_PULLREQUEST_SOURCEBRANCH: 'refs/heads/feat/cart',
      BUILD_SOURCEBRANCH: 'refs/pull/7/merge',
      BUILD_SOURCEVERSION: 'ccc3333',
      AGENT_OS: 'Linux',
      SYSTEM_JOBPOSITIONINPHASE: '1',
      SYSTEM_TOTALJOBSINPHASE: '2',
    };
    expect(readCiContext(env, null)).toEqual({
      provider: 'azure-pipelines',
      workflow: 'shop-ci',
      job: 'Unit tests',
      runId: '1201',
      attempt: 1,
      runUrl: 'https://dev.azure.com/acme/Web%20Shop/_build/results?buildId=1201',
      branch: 'feat/cart',
      commit: 'ccc3333',
      runnerOs: 'Linux',
      shard: { index: 1, count: 2 },
    });
  });

  it('invents nothing: every text field but the run page is a variable the provider set', () => {
    const names = [
      'GITHUB_ACTIONS',
      'GITLAB_CI',
      'CIRCLECI',
      'BUILDKITE',
      'TF_BUILD',
      'JENKINS_URL',
      'GITHUB_WORKFLOW',
      'GITHUB_JOB',
      'CI_JOB_NAME',
      'CIRCLE_JOB',
      'BUILDKITE_LABEL',
      'JOB_NAME',
      'STAGE_NAME',
      'BUILD_NUMBER',
      'CI_PIPELINE_ID',
      'GITHUB_SHA',
      'CI_COMMIT_SHA',
      'RUNNER_OS',
      'AGENT_OS',
      'CIRCLE_BRANCH',
      'BUILDKITE_BRANCH',
    ];
    const envArb = fc.dictionary(fc.constantFrom(...names), fc.oneof(fc.constant('true'), fc.string({ maxLength: 8 })));
    fc.assert(
      fc.property(envArb, (env: Env) => {
        const ci = readCiContext(env, null);
        if (ci === null) return;
        const values = Object.values(env).map((v) => v?.trim());
        for (const field of ['workflow', 'job', 'runId', 'commit', 'runnerOs', 'branch'] as const) {
          const value = ci[field];
          if (value !== null) expect(values).toContain(value);
        }
        expect(ci.shard).toBeNull();
      }),
    );
  });
});

describe('ciJobLabel', () => {
  it("keeps the ingest-time guess's format: <run id>-<attempt>/<job>", () => {
    const ci = readCiContext(
      { GITHUB_ACTIONS: 'true', GITHUB_RUN_ID: '99', GITHUB_RUN_ATTEMPT: '2', GITHUB_JOB: 'test' },
      null,
    );
    expect(ci && ciJobLabel(ci)).toBe('99-2/test');
    expect(ciJobLabel({ ...ci!, runId: null, job: null })).toBeNull();
  });
});
