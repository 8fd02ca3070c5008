/**
 * Runs chosen tests of a project as CI runs them, several times each: every try is a fresh Vitest
 * worker running the test's file (its earlier tests before it), in one Vitest process per call
 * (the project's own Vitest and config, flakeguard's runner), see vitest-gate-child.ts.
 *
 * - runTestsRepeatedly: each file `runs` times, then more tries (up to maxRuns) while the time
 *   budget lasts, for tests whose verdict can still change (core/gate/try-schedule.ts).
 * - runTestsAlone: each test alone (only it from its file, by its line), `runs` times.
 * The Vitest process runs under a guard (io/process/spawn-guarded.ts): it and its workers die with
 * flakeguard, and are killed on abort or error. Needs the built package (`npm run build`) when
 * called from the sources.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { vitestStartupCause } from '../../core/vitest-startup-cause.js';
import { FlakeguardError, interruptedError } from '../../core/errors.js';
import { spawnGuarded } from '../process/spawn-guarded.js';
import { startDutyCycle, type DutyCycle } from '../load/duty-cycle.js';
import { stoppedWithin, trySlowdown, type StopInterval } from '../../core/gate/slowdown.js';
import type { ProgressLine, RunnerLine, TryRecord } from '../../core/gate/runner-protocol.js';
import type { JobSpec, JobTest, VitestJob, VitestJobResult, WaveSummary } from './vitest-job.js';
import { DEFAULT_SETUP, type VitestSetup } from './vitest-setup.js';

export type { TryRecord } from '../../core/gate/runner-protocol.js';

export interface RepeatTarget {
  /** Relative to root, with `/`. */
  readonly file: string;
  /** Titles joined with ' > '. */
  readonly fullName: string;
  /** Line the test starts on (needed by runTestsAlone). */
  readonly line: number | null;
  /** Vitest project to run it in; null or absent: the first project that includes the file. */
  readonly project?: string | null;
}

export interface TestTries {
  readonly file: string;
  /** The project it ran in ('' when unnamed). */
  readonly project: string;
  readonly fullName: string;
  /** False when Vitest did not run the test (not found, file failed to load, skipped by a filter). */
  readonly found: boolean;
  readonly tries: readonly MeasuredTry[];
  readonly errors: readonly string[];
}

/** A try with the slowdown it got (measured: core/gate/slowdown.ts trySlowdown). */
export interface MeasuredTry extends TryRecord {
  readonly slowdown: number;
}

export interface RunsOutcome {
  readonly vitestVersion: string;
  readonly tests: readonly TestTries[];
  readonly moduleErrors: readonly { readonly file: string; readonly project: string; readonly message: string }[];
  readonly unhandledErrors: readonly string[];
  readonly waves: readonly WaveSummary[];
  /** Wall time of the whole call (Vitest start included). */
  readonly wallMs: number;
  /** The group's ambient slowdown last measured by the duty cycle, when one ran. */
  readonly ambient: number | null;
}

export interface RunOptions {
  readonly root: string;
  readonly tests: readonly RepeatTarget[];
  /** Tries each test gets at least. */
  readonly runs: number;
  /** Tries a test may get when the budget allows (default: runs). */
  readonly maxRuns?: number;
  /** Wall time the tries beyond `runs` may take up to (default 0: none). */
  readonly budgetMs?: number;
  readonly setup?: VitestSetup;
  /** Duty-cycle the Vitest process group to this slowdown (ambient included); absent or <= 1: no stops. */
  readonly slowdown?: { readonly target: number; readonly ambient: number | null };
  /** One try at a time (default false). */
  readonly serial?: boolean;
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  readonly onProgress?: (line: ProgressLine) => void;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The built file next to this module, or the one in dist/ when running from the sources. */
export function builtFile(relFromSrc: string): string {
  const next = path.resolve(HERE, '../..', relFromSrc);
  if (existsSync(next)) return next;
  const dist = path.resolve(HERE, '../../../dist', relFromSrc);
  if (existsSync(dist)) return dist;
  throw new FlakeguardError('VITEST', `flakeguard's ${relFromSrc} is missing; run npm run build`);
}

const toPosix = (p: string): string => p.split(path.sep).join('/');
const specKey = (file: string, project: string | null | undefined): string => JSON.stringify([file, project ?? null]);

export async function runTestsRepeatedly(options: RunOptions): Promise<RunsOutcome> {
  const specs: JobSpec[] = [];
  const index = new Map<string, number>();
  const tests = options.tests.map((t): JobTest => {
    const file = path.resolve(options.root, t.file);
    const k = specKey(file, t.project);
    if (!index.has(k)) index.set(k, specs.push({ file, project: t.project ?? null, lines: null }) - 1);
    return { file, fullName: t.fullName, spec: index.get(k) ?? 0 };
  });
  return runJob(options, specs, tests, options.maxRuns ?? options.runs, options.budgetMs ?? 0);
}

export async function runTestsAlone(options: RunOptions): Promise<RunsOutcome> {
  const specs: JobSpec[] = [];
  const tests = options.tests.map((t): JobTest => {
    if (t.line === null) throw new FlakeguardError('VITEST', `${t.file}: "${t.fullName}" has no line; it cannot run alone`);
    const file = path.resolve(options.root, t.file);
    return { file, fullName: t.fullName, spec: specs.push({ file, project: t.project ?? null, lines: [t.line] }) - 1 };
  });
  return runJob(options, specs, tests, options.runs, 0);
}

async function runJob(options: RunOptions, specs: readonly JobSpec[], tests: readonly JobTest[], maxRuns: number, budgetMs: number): Promise<RunsOutcome> {
  if (options.signal?.aborted) throw interrupted();
  const started = performance.now();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-runs-'));
  const job: VitestJob = {
    root: options.root,
    setup: options.setup ?? DEFAULT_SETUP,
    runnerPath: builtFile('runner/index.js'),
    planFile: path.join(tmp, 'plan.json'),
    resultsFile: path.join(tmp, 'tries.jsonl'),
    resultFile: path.join(tmp, 'result.json'),
    specs,
    tests,
    minRuns: options.runs,
    maxRuns: Math.max(options.runs, maxRuns),
    budgetMs,
    serial: options.serial ?? false,
  };
  const jobFile = path.join(tmp, 'job.json');
  writeFileSync(jobFile, JSON.stringify(job));
  const lines: RunnerLine[] = [];
  const attempts = new Map<string, number>();
  let offset = 0;
  const poll = (): void => {
    if (!existsSync(job.resultsFile)) return;
    const text = readFileSync(job.resultsFile, 'utf8');
    if (text.length < offset) offset = 0;
    const complete = text.lastIndexOf('\n') + 1;
    for (const raw of text.slice(offset, complete).split('\n')) {
      if (raw.trim() === '') continue;
      const line = JSON.parse(raw) as RunnerLine;
      lines.push(line);
      if (line.kind !== 'try' || !options.onProgress) continue;
      const k = JSON.stringify([line.project, line.file, line.fullName]);
      const attempt = (attempts.get(k) ?? 0) + 1;
      attempts.set(k, attempt);
      const file = toPosix(path.relative(options.root, line.file));
      options.onProgress({ file, project: line.project, fullName: line.fullName, attempt, runs: job.maxRuns, state: line.try.state, durationMs: line.try.durationMs });
    }
    offset = complete;
  };
  const timer = setInterval(poll, 200);
  const child = spawnGuarded(process.execPath, [builtFile('io/vitest/vitest-gate-child.js'), jobFile], {
    cwd: options.root,
    env: { ...options.env, FLAKEGUARD_RUNNER_PLAN: job.planFile },
    tempFolder: tmp,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const slowdown = options.slowdown;
  const duty: DutyCycle | null = slowdown && slowdown.target > 1 && child.pid !== undefined ? startDutyCycle({ pgid: child.pid, target: slowdown.target, ambient: slowdown.ambient }) : null;
  try {
    const result = await child.result;
    const dutySummary = duty?.stop() ?? null;
    clearInterval(timer);
    poll();
    if (options.signal?.aborted) throw interrupted();
    if (result.exitCode !== 0 || !existsSync(job.resultFile)) {
      const cause = vitestStartupCause(`${String(result.stdout)}\n${String(result.stderr)}`);
      throw new FlakeguardError('VITEST', `Vitest stopped before finishing the runs (exit ${result.exitCode ?? result.signal}):\n${cause}\nRun npx vitest run to see the problem.`);
    }
    const parsed = JSON.parse(readFileSync(job.resultFile, 'utf8')) as VitestJobResult;
    return toOutcome(parsed, options, tests, lines, { wallMs: performance.now() - started, stops: dutySummary?.stops ?? [], ambient: dutySummary?.ambient ?? null });
  } finally {
    duty?.stop();
    clearInterval(timer);
    child.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

const interrupted = (): FlakeguardError => interruptedError('the test runs and the load were');

function measure(t: TryRecord, stops: readonly StopInterval[]): MeasuredTry {
  const start = t.startedAt ?? 0;
  const stoppedMs = stoppedWithin(stops, start, start + t.durationMs);
  return { ...t, slowdown: trySlowdown({ wallMs: t.durationMs, stoppedMs, cpuNs: t.schedCpuNs ?? null, waitNs: t.schedWaitNs ?? null }) };
}

interface CallFigures {
  readonly wallMs: number;
  readonly stops: readonly StopInterval[];
  readonly ambient: number | null;
}

function toOutcome(result: VitestJobResult, options: RunOptions, tests: readonly JobTest[], lines: readonly RunnerLine[], call: CallFigures): RunsOutcome {
  if (!result.ok && result.reason === 'custom-runner') {
    throw new FlakeguardError(
      'VITEST',
      `the Vitest config sets test.runner (${result.runner}); flakeguard times each try through its own runner and cannot combine the two. Run the gate with a config without a custom runner (--config <file>) or see docs/gate.md "Limitations".`,
    );
  }
  if (!result.ok) {
    throw new FlakeguardError('USAGE', `--project "${result.project}" is not a project of this Vitest config; its projects: ${result.known.map((k) => `"${k}"`).join(', ') || 'none'}`);
  }
  const rel = (f: string): string => toPosix(path.relative(options.root, f));
  const out = tests.map((t, i): TestTries => {
    const project = result.specProjects[t.spec] ?? '';
    const tries = lines.flatMap((l) => (l.kind === 'try' && l.file === t.file && l.fullName === t.fullName && l.project === project ? [measure(l.try, call.stops)] : []));
    const target = options.tests[i];
    return {
      file: target?.file ?? rel(t.file),
      project,
      fullName: t.fullName,
      found: tries.length > 0,
      tries,
      errors: tries.flatMap((x) => (x.error === undefined ? [] : [x.error])),
    };
  });
  return {
    vitestVersion: result.vitestVersion,
    tests: out,
    moduleErrors: result.moduleErrors.map((m) => ({ file: rel(m.file), project: m.project, message: m.message })),
    unhandledErrors: result.unhandledErrors,
    waves: result.waves,
    wallMs: call.wallMs,
    ambient: call.ambient,
  };
}
