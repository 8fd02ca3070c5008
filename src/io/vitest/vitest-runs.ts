/**
 * Runs chosen tests of a project several times each, with their hooks, as Vitest runs them: one
 * Vitest process (the project's own Vitest and config, flakeguard's runner) per call, which runs
 * every batch in turn. Reused by `gate` and `triage --rerun`.
 *
 * - runTestsRepeatedly: the tests' whole files run (so state set by earlier tests is there); the
 *   chosen tests run `runs` times each, the others once.
 * - runTestsAlone: each test alone (only it from its file, by its line), `runs` times.
 * The Vitest process is its own process group and is killed with everything it started on abort
 * or error. Needs the built package (`npm run build`) when called from the sources.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FlakeguardError, interruptedError } from '../../core/errors.js';
import { spawnGuarded } from '../process/spawn-guarded.js';
import type { ProgressLine, RunnerPlan, TryRecord } from '../../core/gate/runner-protocol.js';
import type { JobBatch, VitestJob, VitestJobResult } from './vitest-job.js';

export type { TryRecord } from '../../core/gate/runner-protocol.js';

export interface RepeatTarget {
  /** Relative to root, with `/`. */
  readonly file: string;
  /** Titles joined with ' > '. */
  readonly fullName: string;
  /** Line the test starts on (needed by runTestsAlone). */
  readonly line: number | null;
}

export interface TestTries {
  readonly file: string;
  readonly fullName: string;
  /** False when Vitest did not run the test (not found, file failed to load, skipped by a filter). */
  readonly found: boolean;
  readonly tries: readonly TryRecord[];
  readonly errors: readonly string[];
}

export interface RunsOutcome {
  readonly vitestVersion: string;
  readonly tests: readonly TestTries[];
  readonly moduleErrors: readonly { readonly file: string; readonly message: string }[];
  readonly unhandledErrors: readonly string[];
}

export interface RunOptions {
  readonly root: string;
  readonly tests: readonly RepeatTarget[];
  readonly runs: number;
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  readonly onProgress?: (line: ProgressLine) => void;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The built file next to this module, or the one in dist/ when running from the sources. */
function builtFile(relFromSrc: string): string {
  const next = path.resolve(HERE, '../..', relFromSrc);
  if (existsSync(next)) return next;
  const dist = path.resolve(HERE, '../../../dist', relFromSrc);
  if (existsSync(dist)) return dist;
  throw new FlakeguardError('VITEST', `flakeguard's ${relFromSrc} is missing; run npm run build`);
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

export async function runTestsRepeatedly(options: RunOptions): Promise<RunsOutcome> {
  const files = [...new Set(options.tests.map((t) => t.file))];
  return runBatches(options, [{ specs: files.map((f) => ({ file: path.resolve(options.root, f), lines: null })), tests: options.tests }]);
}

export async function runTestsAlone(options: RunOptions): Promise<RunsOutcome> {
  // Batch k holds the k-th chosen test of every file: one line filter per file per batch.
  const batches: { specs: { file: string; lines: number[] }[]; tests: RepeatTarget[] }[] = [];
  const seen = new Map<string, number>();
  for (const t of options.tests) {
    if (t.line === null) throw new FlakeguardError('VITEST', `${t.file}: "${t.fullName}" has no line; it cannot run alone`);
    const k = seen.get(t.file) ?? 0;
    seen.set(t.file, k + 1);
    const batch = (batches[k] ??= { specs: [], tests: [] });
    batch.specs.push({ file: path.resolve(options.root, t.file), lines: [t.line] });
    batch.tests.push(t);
  }
  return runBatches(options, batches);
}

async function runBatches(
  options: RunOptions,
  batches: readonly { specs: readonly { file: string; lines: readonly number[] | null }[]; tests: readonly RepeatTarget[] }[],
): Promise<RunsOutcome> {
  if (options.signal?.aborted) throw interrupted();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-runs-'));
  const progressFile = options.onProgress ? path.join(tmp, 'progress.jsonl') : null;
  if (progressFile) writeFileSync(progressFile, '');
  const jobBatches: JobBatch[] = batches.map((b) => {
    const plan: RunnerPlan = { runs: options.runs, tests: b.tests.map((t) => ({ file: path.resolve(options.root, t.file), fullName: t.fullName })), progressFile };
    return { specs: b.specs, plan };
  });
  const job: VitestJob = {
    root: options.root,
    runnerPath: builtFile('runner/index.js'),
    planFile: path.join(tmp, 'plan.json'),
    resultFile: path.join(tmp, 'result.json'),
    batches: jobBatches,
  };
  const jobFile = path.join(tmp, 'job.json');
  writeFileSync(jobFile, JSON.stringify(job));
  let offset = 0;
  const poll = (): void => {
    if (!progressFile || !options.onProgress) return;
    const text = readFileSync(progressFile, 'utf8');
    const complete = text.lastIndexOf('\n') + 1;
    for (const raw of text.slice(offset, complete).split('\n')) {
      if (raw.trim() === '') continue;
      const line = JSON.parse(raw) as ProgressLine;
      options.onProgress({ ...line, file: toPosix(path.relative(options.root, line.file)) });
    }
    offset = complete;
  };
  const timer = progressFile ? setInterval(poll, 200) : null;
  const child = spawnGuarded(process.execPath, [builtFile('io/vitest/vitest-gate-child.js'), jobFile], {
    cwd: options.root,
    env: { ...options.env, FLAKEGUARD_RUNNER_PLAN: job.planFile },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  try {
    const result = await child.result;
    if (timer) clearInterval(timer);
    poll();
    if (options.signal?.aborted) throw interrupted();
    if (result.exitCode !== 0 || !existsSync(job.resultFile)) {
      const tail = String(result.stderr).trim().split('\n').slice(-12).join('\n');
      throw new FlakeguardError('VITEST', `Vitest stopped before finishing the runs (exit ${result.exitCode ?? result.signal}):\n${tail}\nRun npx vitest run to see the problem.`);
    }
    return toOutcome(JSON.parse(readFileSync(job.resultFile, 'utf8')) as VitestJobResult, batches, options.root);
  } finally {
    if (timer) clearInterval(timer);
    child.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

const interrupted = (): FlakeguardError => interruptedError('the test runs and the load were');

function toOutcome(result: VitestJobResult, batches: readonly { tests: readonly RepeatTarget[] }[], root: string): RunsOutcome {
  if (!result.ok) {
    throw new FlakeguardError(
      'VITEST',
      `the Vitest config sets test.runner (${result.runner}); flakeguard runs repeated tries through its own runner and cannot combine the two. Run the gate with a config without a custom runner (vitest --config <file>) or see docs/gate.md "Limitations".`,
    );
  }
  const tests: TestTries[] = [];
  batches.forEach((batch, index) => {
    const collected = result.batches[index]?.tests ?? [];
    for (const t of batch.tests) {
      const abs = path.resolve(root, t.file);
      const found = collected.find((c) => c.file === abs && c.fullName === t.fullName);
      tests.push({
        file: t.file,
        fullName: t.fullName,
        found: found !== undefined && found.tries.length > 0,
        tries: found?.tries ?? [],
        errors: found?.errors ?? [],
      });
    }
  });
  const rel = (f: string): string => toPosix(path.relative(root, f));
  return {
    vitestVersion: result.vitestVersion,
    tests,
    moduleErrors: result.batches.flatMap((b) => b.moduleErrors.map((m) => ({ file: rel(m.file), message: m.message }))),
    unhandledErrors: result.batches.flatMap((b) => b.unhandledErrors),
  };
}
