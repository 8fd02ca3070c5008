/**
 * Runs chosen tests of a project as CI runs them, several times each: every try is a fresh Vitest
 * worker running the test's file (its earlier tests before it), in one Vitest process per call
 * (the project's own Vitest and config, flakeguard's runner), see vitest-gate-child.ts.
 *
 * - runTestsRepeatedly: each file `tries` times, then more tries (up to maxTries) while the time
 *   budget lasts, for tests whose verdict can still change (core/gate/try-schedule.ts).
 * - runTestsAlone: each test alone (only it from its file, by its line), `tries` times.
 * The Vitest process runs under a guard (io/process/spawn-guarded.ts): it and its workers die with
 * flakeguard, and are killed on abort or error. Needs the built package (`npm run build`) when
 * called from the sources.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FlakeguardError, interruptedError } from '../../core/errors.js';
import { PACED_CGROUP_ENV, type RunnerLine } from '../../core/gate/runner-protocol.js';
import { vitestStartupCause } from '../../core/vitest-startup-cause.js';
import { now, type Pacer, startPacer } from '../load/pacer.js';
import { tailResultsFile } from './results-file.js';
import { createStopWatch } from './stop-watch.js';
import { partialResult, toOutcome } from './tries-outcome.js';
import { createTryWatchdog } from './try-watchdog.js';
import type { JobSpec, JobTest, VitestJob, VitestJobResult } from './vitest-job.js';
import { startGateJob } from './vitest-job-start.js';

export type { RepeatTarget, TestTries, TriesOutcome, TryOptions } from './tries-types.js';
export { targetKey } from './tries-types.js';

import { specKey } from '../../core/tuple-key.js';
import type { TriesOutcome, TryOptions } from './tries-types.js';

const toPosix = (p: string): string => p.split(path.sep).join('/');

/** A target's own seeding, over the call's: its fixed seed (a replay's), its first tries' seeds (a paired replay). */
const ownSeeds = (t: TryOptions['tests'][number]): Pick<JobTest, 'seed' | 'seeds'> => ({
  ...(t.seed == null ? {} : { seed: t.seed }),
  ...(t.seeds == null || t.seeds.length === 0 ? {} : { seeds: t.seeds }),
});

export async function runTestsRepeatedly(options: TryOptions): Promise<TriesOutcome> {
  const specs: JobSpec[] = [];
  const index = new Map<string, number>();
  const tests = options.tests.map((t): JobTest => {
    const file = path.resolve(options.root, t.file);
    const k = specKey(file, t.project ?? null);
    if (!index.has(k)) index.set(k, specs.push({ file, project: t.project ?? null, lines: null }) - 1);
    return { file, fullName: t.fullName, spec: index.get(k) ?? 0, ...ownSeeds(t) };
  });
  return runJob(options, specs, tests, options.maxTries ?? options.tries, options.budgetMs ?? 0);
}

export async function runTestsAlone(options: TryOptions): Promise<TriesOutcome> {
  const specs: JobSpec[] = [];
  const tests = options.tests.map((t): JobTest => {
    if (t.line === null)
      throw new FlakeguardError('VITEST', `${t.file}: "${t.fullName}" has no line; it cannot run alone`);
    const file = path.resolve(options.root, t.file);
    const lines = t.afterLine == null ? [t.line] : [t.afterLine, t.line];
    const spec = specs.push({ file, project: t.project ?? null, lines }) - 1;
    return { file, fullName: t.fullName, spec, ...ownSeeds(t) };
  });
  return runJob(options, specs, tests, options.tries, 0);
}

/** Hands each try to options.onProgress with its attempt number (file relative to the root). */
function makeProgress(job: VitestJob, options: TryOptions): (line: RunnerLine) => void {
  const attempts = new Map<string, number>();
  return (line) => {
    if (line.kind !== 'try' || !options.onProgress) return;
    const k = line.key;
    const attempt = (attempts.get(k) ?? 0) + 1;
    attempts.set(k, attempt);
    options.onProgress({
      file: toPosix(path.relative(options.root, line.file)),
      project: line.project,
      fullName: line.fullName,
      try: line.try,
      attempt,
      maxTries: job.maxTries,
    });
  };
}

/** Vitest ended before the tries finished, with no deadline or hung try to explain it. */
function stoppedError(result: {
  readonly exitCode?: number | undefined;
  readonly signal?: string | undefined;
  readonly stdout?: unknown;
  readonly stderr?: unknown;
}): FlakeguardError {
  const cause = vitestStartupCause(`${String(result.stdout)}\n${String(result.stderr)}`);
  return new FlakeguardError(
    'VITEST',
    `Vitest stopped before finishing the tries (exit ${result.exitCode ?? result.signal}):\n${cause}\nRun npx vitest run to see the problem.`,
  );
}

/**
 * The outcome once the child has ended: its result file, or, when the deadline or a hung try cut
 * it short, what the results file holds; a child that stopped for no such cause is an error.
 */
function readJobOutcome(
  run: {
    readonly options: TryOptions;
    readonly job: VitestJob;
    readonly specs: readonly JobSpec[];
    readonly tests: readonly JobTest[];
    readonly lines: readonly RunnerLine[];
    readonly started: number;
  },
  result: Parameters<typeof stoppedError>[0],
  cutShort: TriesOutcome['cutShort'],
  pacer: Pacer,
): TriesOutcome {
  const { job, lines } = run;
  const finished = result.exitCode === 0 && existsSync(job.resultFile);
  if (!finished && cutShort === null) throw stoppedError(result);
  const parsed = finished
    ? (JSON.parse(readFileSync(job.resultFile, 'utf8')) as VitestJobResult)
    : partialResult(run.specs, lines);
  const ended = cutShort === 'hung' && finished ? null : cutShort;
  return toOutcome(parsed, run.options, run.tests, lines, {
    wallMs: performance.now() - run.started,
    pacer,
    asked: run.options.slowdown ?? 1,
    cutShort: ended,
  });
}

/** The lines the workers append, as they come: new workers to the pacer, starts and tries to the watchdog and the progress. */
function followResults(
  job: VitestJob,
  options: TryOptions,
  pacer: Pacer,
  watchdog: ReturnType<typeof createTryWatchdog>,
): { lines: RunnerLine[]; read: () => void } {
  const lines: RunnerLine[] = [];
  const progress = makeProgress(job, options);
  const tail = tailResultsFile(job.resultsFile);
  const read = (): void => {
    for (const line of tail()) {
      if (line.kind === 'worker') pacer.addWorker(line.pid, line.tid);
      else lines.push(line);
      watchdog.observe(line);
      progress(line);
    }
  };
  return { lines, read };
}

async function runJob(
  options: TryOptions,
  specs: readonly JobSpec[],
  tests: readonly JobTest[],
  maxTries: number,
  budgetMs: number,
): Promise<TriesOutcome> {
  if (options.signal?.aborted) throw interrupted();
  const started = performance.now();
  const factor = Math.max(1, options.slowdown ?? 1);
  const pacer = startPacer(factor, { unslowed: options.unslowed ?? false });
  // The workers announce themselves in the results file: the tail reads it from its start.
  // With a cgroup, each worker waits until it is in it before its first test (PACED_CGROUP_ENV).
  const paced =
    pacer.cgroup === null ? options : { ...options, env: { ...options.env, [PACED_CGROUP_ENV]: pacer.cgroup } };
  const gate = startGateJob(paced, specs, tests, maxTries, budgetMs);
  const { job } = gate;
  const watchdog = createTryWatchdog(job.resultsFile, factor);
  const { lines, read } = followResults(job, options, pacer, watchdog);
  let cutShort: TriesOutcome['cutShort'] = null;
  let ticks = 0;
  const stops = createStopWatch({ root: () => gate.pid(), projectRoot: options.root, watchdog, lines, pacer });
  // Every 5 ms: a new worker is paced before it has collected its file; every 200 ms: the ceilings and the deadline.
  const watch = (): void => {
    read();
    ticks += 1;
    if (ticks % 200 === 0) stops.check(); // every second: a process a signal stopped
    if (ticks % 40 !== 0) return;
    if (watchdog.check(now()) > 0) cutShort ??= 'hung';
    if (options.deadline !== undefined && performance.now() > options.deadline && cutShort !== 'deadline') {
      cutShort = 'deadline';
      gate.stop();
    }
  };
  const timer = setInterval(watch, 5);
  try {
    const result = await gate.result;
    clearInterval(timer);
    watch();
    if (options.signal?.aborted) throw interrupted();
    if (stops.stopped !== null) throw new FlakeguardError('VITEST', stops.stopped);
    return readJobOutcome({ options, job, specs, tests, lines, started }, result, cutShort, pacer);
  } finally {
    pacer.stop();
    clearInterval(timer);
    gate.end();
  }
}

const interrupted = (): FlakeguardError => interruptedError('the tries and the load were');
