/**
 * The CI providers flakeguard reads, one row each: the variable that marks its jobs, the mapping
 * of its documented variables to a run's CI context, where its runners check out, and what
 * history's ingest guesses from its variables for a record written before `ci`. A new provider
 * is one row here, one `CiProvider` name and one row of docs/run-record.md ("ci"). Pure.
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

export type Get = (name: string) => string | null;
type Fields = Omit<CiContext, 'provider' | 'shard'> & { readonly parallel: CiShard | null };

/** One CI provider, one row: the variable its jobs set, how its value says so, and its variables' mapping. */
export interface ProviderMap {
  readonly provider: CiProvider;
  /** As people write it, in the text reports ("GitHub Actions"). */
  readonly name: string;
  /** The documented variable every job of the provider sets (unset, or '' as NO_CI_ENV has it: not this provider). */
  readonly marker: string;
  readonly detect: (marker: string) => boolean;
  readonly map: (get: Get) => Fields;
  /** Where its runners check the repository out: a path written there maps onto the root here (core/triage/path-mapping.ts). */
  readonly checkouts?: readonly RegExp[];
  /** For a record written before `ci`: the variables that name the branch, and the job label (history's guess at ingest). */
  readonly guess?: { readonly branch: readonly string[]; readonly job: (get: Get) => string | null };
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

export const PROVIDERS: readonly ProviderMap[] = [
  {
    provider: 'github-actions',
    name: 'GitHub Actions',
    marker: 'GITHUB_ACTIONS',
    detect: (v) => v === 'true',
    checkouts: [
      /^\/home\/runner\/work\/[^/]+\/[^/]+\//,
      /^\/__w\/[^/]+\/[^/]+\//, // in a container
      /^\/github\/workspace\//,
      /^[A-Za-z]:\/a\/[^/]+\/[^/]+\//, // on Windows
    ],
    guess: {
      branch: ['GITHUB_HEAD_REF', 'GITHUB_REF_NAME'],
      job: (get) => {
        const run = get('GITHUB_RUN_ID');
        return run === null ? null : `${run}-${get('GITHUB_RUN_ATTEMPT') ?? '1'}/${get('GITHUB_JOB') ?? 'job'}`;
      },
    },
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
    name: 'GitLab CI',
    marker: 'GITLAB_CI',
    detect: (v) => v === 'true',
    checkouts: [/^\/builds\/[^/]+\/[^/]+\//],
    guess: { branch: ['CI_COMMIT_REF_NAME'], job: (get) => get('CI_JOB_ID') },
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
    name: 'CircleCI',
    marker: 'CIRCLECI',
    detect: (v) => v === 'true',
    guess: { branch: ['CIRCLE_BRANCH'], job: (get) => get('CIRCLE_WORKFLOW_JOB_ID') },
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
    name: 'Buildkite',
    marker: 'BUILDKITE',
    detect: (v) => v === 'true',
    guess: { branch: ['BUILDKITE_BRANCH'], job: (get) => get('BUILDKITE_JOB_ID') },
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
    name: 'Azure Pipelines',
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
    name: 'Jenkins',
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
