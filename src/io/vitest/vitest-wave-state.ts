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
 * it first). A warm wave's repeats are by test key, for the tests of the files it runs. After the
 * first wave, a file the wave runs for its repeats times only the tests with repeats: the others
 * of the file (a 600 ms test next to a cheap one) are skipped when they come after them, not tried
 * once more for nothing at the cost of their whole time (`wanted`, wantedInWave).
 */
/**
 * The tests a wave tries: all of a file's open tests in the first wave and where the wave runs cold
 * copies of the file (no repeats), only those with repeats where it runs the file for them.
 */
export function wantedInWave(
  wave: number,
  files: readonly { readonly fileKey: string; readonly repeats?: ReadonlyMap<string, number> }[],
): (key: string, fileKey: string) => boolean {
  const byFile = new Map(files.map((f) => [f.fileKey, f.repeats]));
  return (key, fileKey) => {
    if (wave === 0) return true;
    const repeats = byFile.get(fileKey);
    return repeats === undefined || repeats.has(key);
  };
}

export function writeWavePlan(
  run: {
    readonly job: VitestJob;
    readonly tests: WaveInput['tests'];
    readonly state: WaveState;
    readonly specProjects: readonly string[];
  },
  repeats: ReadonlyMap<string, number>,
  wanted: (key: string, fileKey: string) => boolean = () => true,
): void {
  const { job, tests, state, specProjects } = run;
  const open = job.tests
    .map((t, i) => ({ t, key: tests[i]?.key ?? '' }))
    .filter(({ t, key }) => wantsMoreTries(state.tally.get(key), job.maxTries) && wanted(key, String(t.spec)));
  const plan: RunnerPlan = {
    tests: open.map(({ t, key }) => ({
      project: specProjects[t.spec] ?? '',
      file: t.file,
      fullName: t.fullName,
      ...(t.seed === undefined ? {} : { seed: t.seed }),
      ...(t.seeds === undefined ? {} : { seeds: t.seeds }),
      ...(repeats.has(key) ? { repeats: repeats.get(key) ?? 0 } : job.repeats ? { repeats: job.repeats } : {}),
    })),
    resultsFile: job.resultsFile,
    ...(job.seeding ? { seeding: job.seeding } : {}),
    ...(job.reversed === true ? { order: 'reversed' as const } : {}),
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
    ...hintsOf(job, tests),
  };
}

/** The job's cost hints by test key and file key (the spec's index), where it has them. */
function hintsOf(job: VitestJob, tests: WaveInput['tests']): Pick<WaveInput, 'hints'> {
  const { hints } = job;
  if (hints === undefined) return {};
  const meanMs = new Map<string, number>();
  const costMs = new Map<string, number>();
  tests.forEach((t, i) => {
    const ms = hints.testMs[i];
    if (ms !== null && ms !== undefined) meanMs.set(t.key, ms);
  });
  hints.specMs.forEach((ms, i) => {
    if (ms !== null) costMs.set(String(i), ms);
  });
  return { hints: { meanMs, costMs } };
}

const triesSoFar = (state: WaveState, key: string): number => {
  const t = state.tally.get(key);
  return t ? t.passed + t.failed : 0;
};
