/**
 * A Vitest process driven by flakeguard: `node vitest-gate-child.js <job.json>`. Loads the project's
 * own Vitest (resolved from the project root) through its Node API, with the project's config
 * (`--config`, `--project` passed through), flakeguard's runner and a collecting reporter, and runs
 * the job's cold tries in waves (core/gate/try-schedule.ts): each wave is one
 * runTestSpecifications call holding one specification per try, so every try is a fresh worker
 * (Vitest isolates each specification) and the tries of different files, and of one file, run side
 * by side as far as the project's worker count allows. The test workers append their tries to the
 * results file; this process reads them between waves, and writes the result JSON at the end.
 * Exit 0 when the result was written; anything else is a crash the parent reports.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import type { TestProject, TestSpecification, Vitest } from 'vitest/node';
import { coldCostMs, formatRunnerLine, type RunnerLine } from '../../core/gate/runner-protocol.js';
import { planWave } from '../../core/gate/try-schedule.js';
import { unfinishedTries } from '../../core/gate/unfinished-tries.js';
import { warmBudgetMs } from '../../core/gate/warm-schedule.js';
import { testKey } from '../../core/test-id.js';
import { tailResultsFile } from './results-file.js';
import type { VitestJob, VitestJobResult, WaveSummary } from './vitest-job.js';
import { loadProjectVitest, runChildMain } from './vitest-load.js';
import { collectErrors } from './vitest-run-errors.js';
import { SESSION_FLAG, serveJobs } from './vitest-session-jobs.js';
import { setupOptions } from './vitest-setup.js';
import { GateOrder, specsOfWave } from './vitest-wave-specs.js';
import { type WaveState, wantedInWave, waveInput, writeWavePlan } from './vitest-wave-state.js';

/** The project's Vitest, made once per child, with the errors its runs report (cleared per job). */
interface GateVitest {
  readonly vitest: Vitest;
  readonly version: string;
  readonly moduleErrors: Map<string, { file: string; project: string; message: string }>;
  readonly unhandled: string[];
  /** A project's own runner (flakeguard's cannot replace it), or undefined. */
  readonly custom: string | undefined;
  /** The config or VITEST_MAX_WORKERS sets a worker count: a job's `workers` does not replace it. */
  readonly ownWorkers: boolean;
}

async function openGateVitest(job: VitestJob): Promise<GateVitest> {
  const { api, version } = await loadProjectVitest(job.root);
  const { reporter, moduleErrors, unhandled } = collectErrors();
  const vitest: Vitest = await api.createVitest('test', {
    ...setupOptions(job.root, job.setup),
    watch: false,
    retry: 0,
    includeTaskLocation: true,
    passWithNoTests: true,
    bail: 0,
    coverage: { enabled: false },
    reporters: [reporter],
    // The waves' order is the gate's (costliest file first, specsOfWave), not Vitest's: its
    // sequencer runs the files that failed in the last plain run first, from its results cache, so
    // a branch's slowest file started last and held every wave (the evidence branch's reference
    // tries: 26 s after a plain `vitest run`, 20 s without one).
    sequence: { sequencer: GateOrder },
  });
  const custom = vitest.projects.map((p) => p.config.runner).find((r) => typeof r === 'string' && r !== '');
  if (custom === undefined) for (const project of vitest.projects) project.config.runner = job.runnerPath;
  const ownWorkers =
    vitest.config.maxWorkers !== undefined || vitest.projects.some((p) => p.config.maxWorkers !== undefined);
  return { vitest, version, moduleErrors, unhandled, custom, ownWorkers };
}

/** The job's worker count on every project, where none has one of its own; else as configured. */
function setWorkers(g: GateVitest, job: VitestJob): void {
  if (g.ownWorkers) return;
  for (const project of g.vitest.projects)
    (project.config as { maxWorkers: number | undefined }).maxWorkers = job.workers;
}

/** One job on the child's Vitest: its waves, then its result file. */
async function runOneJob(g: GateVitest, job: VitestJob): Promise<void> {
  const { vitest, version } = g;
  g.moduleErrors.clear();
  g.unhandled.length = 0;
  const done = (result: VitestJobResult): void => writeFileSync(job.resultFile, JSON.stringify(result));
  if (g.custom !== undefined)
    return done({ ok: false, reason: 'custom-runner', runner: g.custom, vitestVersion: version });
  const projects = findSpecProjects(vitest, job);
  const missing = job.specs.findIndex((_, i) => projects[i] === undefined);
  if (missing !== -1)
    return done({
      ok: false,
      reason: 'no-project',
      project: job.specs[missing]?.project ?? '',
      known: vitest.projects.map((p) => p.name),
      vitestVersion: version,
    });
  const specProjects = projects.map((p) => p?.name ?? '');
  setWorkers(g, job);
  writeFileSync(job.resultsFile, '');
  const waves = await runWaves(vitest, job, projects, specProjects, g.unhandled);
  done({
    ok: true,
    vitestVersion: version,
    specProjects,
    waves,
    moduleErrors: [...g.moduleErrors.values()],
    unhandledErrors: [...g.unhandled],
  });
}

/** `<job.json>`: one job, then exit; `--session <folder>`: every job the gate writes there, on one Vitest (io/vitest/vitest-session.ts). */
async function main(arg: string): Promise<void> {
  let g: GateVitest | null = null;
  const run = async (job: VitestJob): Promise<void> => {
    g ??= await openGateVitest(job);
    await runOneJob(g, job);
  };
  try {
    if (arg === SESSION_FLAG) await serveJobs(process.argv[3] ?? '', run);
    else await run(JSON.parse(readFileSync(arg, 'utf8')) as VitestJob);
  } finally {
    await (g as GateVitest | null)?.vitest.close();
  }
}

/** A named project, or the one that includes the file (workspaces); the root project when none claims it. */
function findSpecProjects(vitest: Vitest, job: VitestJob): (TestProject | undefined)[] {
  return job.specs.map((s) =>
    s.project === null
      ? (vitest.projects.find((p) => p.matchesTestGlob(s.file)) ?? vitest.getRootProject())
      : vitest.projects.find((p) => p.name === s.project),
  );
}

/**
 * The tries in waves (core/gate/try-schedule.ts planWave), until no test needs more or the budget
 * is spent; how parallel the last wave ran shapes the next.
 */
async function runWaves(
  vitest: Vitest,
  job: VitestJob,
  projects: readonly (TestProject | undefined)[],
  specProjects: readonly string[],
  unhandled: readonly string[],
): Promise<WaveSummary[]> {
  const tests = job.tests.map((t) => ({
    key: testKey({ project: specProjects[t.spec] ?? '', file: t.file, fullName: t.fullName }),
    fileKey: String(t.spec),
  }));
  const state: WaveState = { tally: new Map(), costMs: new Map(), spentMs: new Map() };
  const read = tailResultsFile(job.resultsFile);
  const waves: WaveSummary[] = [];
  const started = performance.now();
  let parallel = 1;
  let budgetMs = job.budgetMs;
  for (let wave = 0; ; wave += 1) {
    if (wave === 1 && job.warm)
      budgetMs = warmBudgetMs(job.budgetMs, performance.now() - started, job.coldTries ?? job.minTries, job.minTries);
    const plannedWave = planWave(
      waveInput(job, tests, state, { budgetMs, elapsedMs: performance.now() - started, parallel, wave }),
    );
    const specs = specsOfWave(plannedWave, job, projects, state);
    if (specs.length === 0) break;
    const repeats = new Map(plannedWave.flatMap((f) => [...(f.repeats ?? [])]));
    writeWavePlan({ job, tests, state, specProjects }, repeats, wantedInWave(wave, plannedWave));
    const { wallMs, lines } = await runWave(vitest, job, specs, read, unhandled);
    const busyMs = tallyLines(lines, state, job, specProjects);
    if (wallMs > 0 && busyMs > 0) parallel = Math.max(1, busyMs / wallMs);
    waves.push({ specs: specs.length, wallMs });
  }
  return waves;
}

/**
 * Runs one wave and returns its wall time and the lines its workers wrote, with a failed try for
 * every try whose worker ended during it (a start and no try), the wave's unhandled errors its error.
 */
async function runWave(
  vitest: Vitest,
  job: VitestJob,
  specs: TestSpecification[],
  read: () => RunnerLine[],
  unhandled: readonly string[],
): Promise<{ wallMs: number; lines: RunnerLine[] }> {
  const waveStart = performance.now();
  const errorsBefore = unhandled.length;
  if (job.serial) for (const spec of specs) await vitest.runTestSpecifications([spec]);
  else await vitest.runTestSpecifications(specs);
  const wallMs = performance.now() - waveStart;
  const lines = read();
  const ended = unfinishedTries(lines, unhandled.slice(errorsBefore), performance.timeOrigin + performance.now());
  for (const line of ended) appendFileSync(job.resultsFile, formatRunnerLine(line));
  return { wallMs, lines: [...lines, ...read()] };
}

/** Counts the wave's tries into the tally and its files' costs; returns the wave's summed worker time. */
function tallyLines(
  lines: readonly RunnerLine[],
  { tally, costMs, spentMs }: WaveState,
  job: VitestJob,
  specProjects: readonly string[],
): number {
  let busyMs = 0;
  for (const line of lines) {
    if (line.kind === 'try') {
      if (line.try.state === 'skipped') continue;
      const k = line.key;
      spentMs.set(k, (spentMs.get(k) ?? 0) + line.try.durationMs);
      const t = tally.get(k) ?? { passed: 0, failed: 0 };
      tally.set(k, line.try.state === 'passed' ? { ...t, passed: t.passed + 1 } : { ...t, failed: t.failed + 1 });
    } else if (line.kind === 'file') {
      busyMs += line.costMs;
      job.specs.forEach((s, i) => {
        if (s.file === line.file && specProjects[i] === line.project)
          costMs.set(String(i), Math.max(costMs.get(String(i)) ?? 0, coldCostMs(line)));
      });
    }
  }
  return busyMs;
}

runChildMain(main, 'vitest-gate-child.js <job.json> | --session <folder>');
