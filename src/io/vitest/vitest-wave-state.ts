/**
 * What the gate's Vitest child (vitest-gate-child.ts) knows between its waves, and what it makes
 * of it: the next wave's input for core/gate/try-schedule.ts, and the runner's plan file.
 */
import { writeFileSync } from 'node:fs';
import type { RunnerPlan } from '../../core/gate/runner-protocol.js';
import { type TryTally, type WaveInput, wantsMoreTries } from '../../core/gate/try-schedule.js';
import type { VitestJob } from './vitest-job.js';

/** What the waves learn: each test's passes and failures, and each spec's cost in one worker. */
export interface WaveState {
  readonly tally: Map<string, TryTally>;
  readonly costMs: Map<string, number>;
  /** Each test's summed try durations (its mean plans its warm repeats). */
  readonly spentMs: Map<string, number>;
}

/**
 * The runner's plan for the next wave. It times only tests whose verdict can still change: a test
 * that has passed and failed stops getting tries (it still runs when a later test of its file needs
 * it first). A warm wave's repeats are by test key, for the tests of the files it runs.
 */
export function writeWavePlan(
  run: {
    readonly job: VitestJob;
    readonly tests: WaveInput['tests'];
    readonly state: WaveState;
    readonly specProjects: readonly string[];
  },
  repeats: ReadonlyMap<string, number>,
): void {
  const { job, tests, state, specProjects } = run;
  const open = job.tests
    .map((t, i) => ({ t, key: tests[i]?.key ?? '' }))
    .filter(({ key }) => wantsMoreTries(state.tally.get(key), job.maxTries));
  const plan: RunnerPlan = {
    tests: open.map(({ t, key }) => ({
      project: specProjects[t.spec] ?? '',
      file: t.file,
      fullName: t.fullName,
      ...(repeats.has(key) ? { repeats: repeats.get(key) ?? 0 } : job.repeats ? { repeats: job.repeats } : {}),
    })),
    resultsFile: job.resultsFile,
    ...(job.seeding ? { seeding: job.seeding } : {}),
  };
  writeFileSync(job.planFile, JSON.stringify(plan));
}

/** What planWave needs of the job and the waves so far. */
export function waveInput(
  job: VitestJob,
  tests: WaveInput['tests'],
  state: WaveState,
  now: Pick<WaveInput, 'budgetMs' | 'elapsedMs' | 'parallel' | 'wave'>,
): WaveInput {
  return {
    tests,
    tally: state.tally,
    costMs: state.costMs,
    minTries: job.minTries,
    maxTries: job.maxTries,
    ...now,
    warm: job.warm ?? false,
    ...(job.coldTries === undefined ? {} : { coldTries: job.coldTries }),
    meanMs: new Map([...state.spentMs].map(([k, ms]) => [k, ms / Math.max(1, triesSoFar(state, k))])),
  };
}

const triesSoFar = (state: WaveState, key: string): number => {
  const t = state.tally.get(key);
  return t ? t.passed + t.failed : 0;
};
