/**
 * Where a run ran: the CI provider, workflow, job, run id and attempt, the run's page, branch,
 * commit, runner OS and shard, mapped from each provider's documented environment variables.
 * Nothing is invented: a value the provider does not set is null. Pure; the reporter reads the
 * environment once and passes it in. Variables, per provider, in docs/run-record.md ("ci").
 */

export type CiProvider = 'github-actions' | 'gitlab-ci' | 'circleci' | 'buildkite' | 'jenkins' | 'azure-pipelines';

export interface CiShard {
  /** 1-based, as Vitest's --shard=<index>/<count>. */
  readonly index: number;
  readonly count: number;
}

export interface CiContext {
  readonly provider: CiProvider;
  readonly workflow: string | null;
  readonly job: string | null;
  readonly runId: string | null;
  readonly attempt: number | null;
  /** The job's page where the provider gives one (GitLab, CircleCI, Jenkins), else the run's page. */
  readonly runUrl: string | null;
  readonly branch: string | null;
  readonly commit: string | null;
  readonly runnerOs: string | null;
  readonly shard: CiShard | null;
}

/** The CI check a result came from (triage findings' `caughtBy`): null fields where unknown. */
export interface CaughtBy {
  readonly provider: CiProvider | null;
  readonly workflow: string | null;
  readonly job: string | null;
  readonly shard: CiShard | null;
  readonly runUrl: string | null;
}

export type Env = Readonly<Record<string, string | undefined>>;
type Get = (name: string) => string | null;
type Fields = Omit<CiContext, 'provider' | 'shard'> & { readonly parallel: CiShard | null };

/** One CI provider, one row: the variable its jobs set, how its value says so, and its variables' mapping. */
interface ProviderMap {
  readonly provider: CiProvider;
  /** The documented variable every job of the provider sets (unset, or '' as NO_CI_ENV has it: not this provider). */
  readonly marker: string;
  readonly detect: (marker: string) => boolean;
  readonly map: (get: Get) => Fields;
}

function count(text: string | null): number | null {
  return text !== null && /^\d+$/.test(text) ? Number(text) : null;
}

/** A provider's parallel job index and total as a 1-based shard; null unless there are several. */
function parallel(index: string | null, total: string | null, base: 0 | 1): CiShard | null {
  const i = count(index);
  const n = count(total);
  if (i === null || n === null || n < 2) return null;
  const oneBased = i + (1 - base);
  return oneBased >= 1 && oneBased <= n ? { index: oneBased, count: n } : null;
}

const join = (...parts: (string | null)[]): string | null => (parts.every((p) => p !== null) ? parts.join('') : null);
const stripRef = (ref: string | null): string | null => (ref === null ? null : ref.replace(/^refs\/heads\//, ''));
const sha = (text: string | null): string | null => (text !== null && /^[0-9a-f]{7,64}$/i.test(text) ? text : null);

const PROVIDERS: readonly ProviderMap[] = [
  {
    provider: 'github-actions',
    marker: 'GITHUB_ACTIONS',
    detect: (v) => v === 'true',
    map: (get) => ({
      workflow: get('GITHUB_WORKFLOW'),
      job: get('GITHUB_JOB'),
      runId: get('GITHUB_RUN_ID'),
      attempt: count(get('GITHUB_RUN_ATTEMPT')),
      runUrl: join(get('GITHUB_SERVER_URL'), '/', get('GITHUB_REPOSITORY'), '/actions/runs/', get('GITHUB_RUN_ID')),
      branch: get('GITHUB_HEAD_REF') ?? (get('GITHUB_REF_TYPE') === 'tag' ? null : get('GITHUB_REF_NAME')),
      commit: get('GITHUB_SHA'),
      runnerOs: get('RUNNER_OS'),
      parallel: null,
    }),
  },
  {
    provider: 'gitlab-ci',
    marker: 'GITLAB_CI',
    detect: (v) => v === 'true',
    map: (get) => ({
      workflow: get('CI_PIPELINE_NAME'),
      job: get('CI_JOB_NAME'),
      runId: get('CI_PIPELINE_ID'),
      attempt: null,
      runUrl: get('CI_JOB_URL') ?? get('CI_PIPELINE_URL'),
      branch:
        get('CI_MERGE_REQUEST_SOURCE_BRANCH_NAME') ??
        get('CI_COMMIT_BRANCH') ??
        (get('CI_COMMIT_TAG') === null ? get('CI_COMMIT_REF_NAME') : null),
      commit: get('CI_COMMIT_SHA'),
      // `linux/amd64`: the OS of the runner.
      runnerOs: get('CI_RUNNER_EXECUTABLE_ARCH')?.split('/')[0] || null,
      parallel: parallel(get('CI_NODE_INDEX'), get('CI_NODE_TOTAL'), 1),
    }),
  },
  {
    provider: 'circleci',
    marker: 'CIRCLECI',
    detect: (v) => v === 'true',
    map: (get) => ({
      workflow: null,
      job: get('CIRCLE_JOB'),
      runId: get('CIRCLE_WORKFLOW_ID'),
      attempt: null,
      runUrl: get('CIRCLE_BUILD_URL'),
      branch: get('CIRCLE_BRANCH'),
      commit: get('CIRCLE_SHA1'),
      runnerOs: null,
      parallel: parallel(get('CIRCLE_NODE_INDEX'), get('CIRCLE_NODE_TOTAL'), 0),
    }),
  },
  {
    provider: 'buildkite',
    marker: 'BUILDKITE',
    detect: (v) => v === 'true',
    map: (get) => {
      const retries = count(get('BUILDKITE_RETRY_COUNT'));
      return {
        workflow: get('BUILDKITE_PIPELINE_SLUG'),
        job: get('BUILDKITE_LABEL') ?? get('BUILDKITE_STEP_KEY'),
        runId: get('BUILDKITE_BUILD_NUMBER'),
        attempt: retries === null ? null : retries + 1,
        runUrl: get('BUILDKITE_BUILD_URL'),
        branch: get('BUILDKITE_BRANCH'),
        // May be `HEAD` until the agent checks out: only a sha is a commit.
        commit: sha(get('BUILDKITE_COMMIT')),
        runnerOs: null,
        parallel: parallel(get('BUILDKITE_PARALLEL_JOB'), get('BUILDKITE_PARALLEL_JOB_COUNT'), 0),
      };
    },
  },
  {
    provider: 'azure-pipelines',
    marker: 'TF_BUILD',
    detect: (v) => v.toLowerCase() === 'true',
    map: (get) => {
      const project = get('SYSTEM_TEAMPROJECT');
      return {
        workflow: get('BUILD_DEFINITIONNAME'),
        job: get('SYSTEM_JOBDISPLAYNAME') ?? get('AGENT_JOBNAME'),
        runId: get('BUILD_BUILDID'),
        attempt: count(get('SYSTEM_JOBATTEMPT')),
        runUrl: join(
          get('SYSTEM_COLLECTIONURI'),
          project === null ? null : encodeURIComponent(project),
          '/_build/results?buildId=',
          get('BUILD_BUILDID'),
        ),
        branch: stripRef(get('SYSTEM_PULLREQUEST_SOURCEBRANCH') ?? get('BUILD_SOURCEBRANCH')),
        commit: get('BUILD_SOURCEVERSION'),
        runnerOs: get('AGENT_OS'),
        parallel: parallel(get('SYSTEM_JOBPOSITIONINPHASE'), get('SYSTEM_TOTALJOBSINPHASE'), 1),
      };
    },
  },
  {
    provider: 'jenkins',
    marker: 'JENKINS_URL',
    detect: () => true,
    map: (get) => ({
      workflow: get('JOB_NAME'),
      job: get('STAGE_NAME'),
      runId: get('BUILD_NUMBER'),
      attempt: null,
      runUrl: get('BUILD_URL'),
      // BRANCH_NAME in multibranch pipelines; the Git plugin's GIT_BRANCH names the remote (`origin/main`).
      branch: get('BRANCH_NAME') ?? get('GIT_BRANCH')?.replace(/^origin\//, '') ?? null,
      commit: get('GIT_COMMIT'),
      runnerOs: null,
      parallel: null,
    }),
  },
];

/** The providers flakeguard reads, in the order it tries them (docs/run-record.md "ci" has one row each). */
export const CI_PROVIDERS: readonly CiProvider[] = PROVIDERS.map((p) => p.provider);

/** An environment in which no provider is detected: each provider's marker set to '' (for tests, and a child that must not look like CI). */
export const NO_CI_ENV: Readonly<Record<string, string>> = Object.fromEntries(PROVIDERS.map((p) => [p.marker, '']));

/** The run's CI context, or null outside a known CI. Vitest's --shard, when given, is the shard. */
export function readCiContext(env: Env, vitestShard: CiShard | null): CiContext | null {
  const get: Get = (name) => {
    const value = env[name]?.trim();
    return value ? value : null;
  };
  const found = PROVIDERS.find((p) => {
    const marker = get(p.marker);
    return marker !== null && p.detect(marker);
  });
  if (found === undefined) return null;
  const { parallel: providerShard, ...fields } = found.map(get);
  return { provider: found.provider, ...fields, shard: vitestShard ?? providerShard };
}

const PROVIDER_NAMES: Readonly<Record<CiProvider, string>> = {
  'github-actions': 'GitHub Actions',
  'gitlab-ci': 'GitLab CI',
  circleci: 'CircleCI',
  buildkite: 'Buildkite',
  jenkins: 'Jenkins',
  'azure-pipelines': 'Azure Pipelines',
};

export function providerName(provider: CiProvider): string {
  return PROVIDER_NAMES[provider];
}

/** The history store's job label: `<run id>-<attempt>/<job>` (the ingest-time guess's format), or null. */
export function ciJobLabel(ci: CiContext): string | null {
  if (ci.runId === null && ci.job === null) return null;
  const run = ci.runId === null ? '' : `${ci.runId}${ci.attempt === null ? '' : `-${ci.attempt}`}`;
  return ci.job === null ? run : `${run}/${ci.job}`;
}
