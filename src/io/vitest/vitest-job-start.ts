/**
 * Starts one job of the gate's tries (vitest-tries.ts): on the gate's session when it has one
 * (vitest-session.ts: one Vitest for every check), else on a Vitest child of its own.
 */
import os from 'node:os';
import path from 'node:path';
import { pacedWorkers } from '../../core/gate/paced-workers.js';
import { PLAN_ENV, type TrySeeding } from '../../core/gate/runner-protocol.js';
import { killProcessTree } from '../process/process-tree.js';
import { builtFile, type ChildJob, startChildJob } from './child-job.js';
import type { TryOptions } from './tries-types.js';
import type { JobSpec, JobTest, VitestJob } from './vitest-job.js';
import { jobHints } from './vitest-job-hints.js';
import type { SessionJobEnd } from './vitest-session.js';
import { DEFAULT_SETUP } from './vitest-setup.js';

/** A job on its way: the gate's Vitest child for it alone, or the gate's session (vitest-session.ts). */
export interface StartedJob {
  readonly job: VitestJob;
  readonly result: Promise<SessionJobEnd>;
  /** Stops the job's Vitest (a deadline). */
  stop(): void;
  /** The process (its guard) the job's Vitest runs under, while it runs. */
  pid(): number | undefined;
  /** After the job: kills what is left of a child of its own, removes the job's files. */
  end(): void;
}

/** The gate's Vitest on its job, in a temporary folder beside the files it writes back. */
export function startGateJob(
  options: TryOptions,
  specs: readonly JobSpec[],
  tests: readonly JobTest[],
  maxTries: number,
  budgetMs: number,
): StartedJob {
  const env = jobEnv(options);
  const makeJob = (tmp: string): VitestJob => jobOf(options, { specs, tests, maxTries, budgetMs }, tmp);
  if (options.session) {
    const s = options.session.submit((tmp) => {
      const job = makeJob(tmp);
      return { ...job, env: env(job) };
    });
    return s;
  }
  const own: ChildJob<VitestJob> = startChildJob(
    {
      script: 'io/vitest/vitest-gate-child.js',
      prefix: 'flakeguard-tries-',
      cwd: options.root,
      env,
      ...(options.signal ? { signal: options.signal } : {}),
    },
    makeJob,
  );
  return {
    job: own.job,
    result: own.child.result,
    stop: () => own.child.stop(),
    pid: () => own.child.pid,
    end: () => {
      // Workers still alive (a deadline, an abort) and whatever their tests started, detached too.
      if (own.child.pid !== undefined) killProcessTree(own.child.pid);
      own.end();
    },
  };
}

/** The environment of a job's Vitest: the caller's, the runner's plan, the factor asked. */
function jobEnv(options: TryOptions): (job: VitestJob) => Record<string, string> {
  return (job) => ({
    ...options.env,
    [PLAN_ENV]: job.planFile,
    // The factor this call asks for, for tests that time themselves (bench/gate-contention.mjs).
    FLAKEGUARD_SLOWDOWN: String(options.slowdown ?? 1),
  });
}

/** The job, its files in `tmp`. */
function jobOf(
  options: TryOptions,
  what: {
    readonly specs: readonly JobSpec[];
    readonly tests: readonly JobTest[];
    readonly maxTries: number;
    readonly budgetMs: number;
  },
  tmp: string,
): VitestJob {
  return {
    root: options.root,
    setup: options.setup ?? DEFAULT_SETUP,
    runnerPath: builtFile('runner/index.js'),
    planFile: path.join(tmp, 'plan.json'),
    resultsFile: path.join(tmp, 'tries.jsonl'),
    resultFile: path.join(tmp, 'result.json'),
    specs: what.specs,
    tests: what.tests,
    minTries: options.tries,
    maxTries: Math.max(options.tries, what.maxTries),
    budgetMs: what.budgetMs,
    serial: options.serial ?? false,
    warm: options.warm ?? false,
    ...(options.coldTries === undefined ? {} : { coldTries: options.coldTries }),
    ...(options.repeats === undefined ? {} : { repeats: options.repeats }),
    ...workersOf(options),
    ...(options.reversed === true ? { reversed: true } : {}),
    ...(options.costHints === undefined
      ? {}
      : { hints: jobHints(options, options.costHints, what.tests, what.specs.length) }),
    ...seedingOf(options, tmp),
  };
}

/** A paced call's workers side by side (one at a time when serial). */
function workersOf(options: TryOptions): { workers?: number } {
  if (options.serial === true) return {};
  if (options.workers !== undefined) return { workers: options.workers };
  const workers = pacedWorkers({
    cores: os.availableParallelism(),
    factor: options.slowdown ?? 1,
    busyWorkers: options.busyWorkers ?? 0,
  });
  return workers === null ? {} : { workers };
}

/**
 * The runner's seeding for a job: the call's own seed, else the session's run seed. A derived
 * seed's try numbers are claimed in the session's folder for them (every try of a gate its own
 * number), or the job's own folder without a session.
 */
function seedingOf(options: TryOptions, tmp: string): { seeding?: TrySeeding } {
  const seed = options.seed ?? options.session?.seed;
  if (seed === undefined) return {};
  if (seed.kind === 'fixed') return { seeding: seed };
  const claimDir = options.session?.seedClaims ?? path.join(tmp, 'seed-claims');
  return { seeding: { ...seed, root: options.root, claimDir } };
}
