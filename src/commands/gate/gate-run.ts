/**
 * The gate's steps, in order: selection, the loaded run (every selected test `runs` times with its
 * file), a run without load for tests that failed every loaded try, and each passing new test once
 * alone (twice more when that failed). The load is always stopped (finally); the Vitest processes are killed on abort.
 */
import { interruptedError } from '../../core/errors.js';
import { resolveTestLimit } from '../../core/budget/budget.js';
import type { Config } from '../../core/config.js';
import type { GateLoad, GateTestInput } from '../../core/gate/gate-report.js';
import { decideGateVerdict, type GateTry } from '../../core/gate/gate-verdict.js';
import type { SelectedTest } from '../../core/gate/test-selection.js';
import type { SourceTest } from '../../core/source/test-source.js';
import type { ProgressLine } from '../../core/gate/runner-protocol.js';
import { defaultWorkerCount, startLoadWorkers, type LoadSummary } from '../../io/load/load-workers.js';
import { runTestsAlone, runTestsRepeatedly, type RepeatTarget, type RunsOutcome, type TestTries } from '../../io/vitest/vitest-runs.js';
import { testKey } from '../../core/test-id.js';

export interface GateRunOptions {
  readonly root: string;
  readonly config: Config;
  readonly platform: string;
  readonly selected: readonly SelectedTest<SourceTest>[];
  readonly runs: number;
  readonly workers: number;
  readonly signal: AbortSignal;
  /** The limit of a test (budget or its allowance). */
  readonly limitFor: (test: SourceTest) => ReturnType<typeof resolveTestLimit>;
  readonly onProgress: (phase: string, line: ProgressLine, index: number) => void;
  readonly onStep: (text: string) => void;
}

export interface GateRunResult {
  readonly tests: readonly GateTestInput[];
  readonly load: GateLoad;
  readonly vitestVersion: string | null;
  readonly notices: readonly string[];
}

const key = testKey;

function toTries(t: TestTries | undefined): GateTry[] {
  return (t?.tries ?? []).map((r) => ({ state: r.state, durationMs: r.durationMs, ...(r.error === undefined ? {} : { error: r.error }) }));
}

function byKey(outcome: RunsOutcome | null): Map<string, TestTries> {
  return new Map((outcome?.tests ?? []).map((t) => [key(t.file, t.fullName), t]));
}

export async function runGate(options: GateRunOptions): Promise<GateRunResult> {
  const { root, runs, signal } = options;
  const targets: RepeatTarget[] = options.selected.map((s) => ({ file: s.test.file, fullName: s.test.fullName, line: s.test.line }));
  const index = new Map(targets.map((t, i) => [key(t.file, t.fullName), i + 1]));
  const progress = (phase: string) => (line: ProgressLine) => options.onProgress(phase, line, index.get(key(line.file, line.fullName)) ?? 0);

  // 1. Every selected test `runs` times, with its file, under load.
  let loadSummary: LoadSummary | null = null;
  let main: RunsOutcome;
  const load = options.workers > 0 ? startLoadWorkers(options.workers) : null;
  if (load) options.onStep(`load: started ${options.workers} busy worker${options.workers === 1 ? '' : 's'} (pids ${load.pids.join(', ')})`);
  try {
    options.onStep(`run: ${targets.length} test${targets.length === 1 ? '' : 's'} x ${runs} tries${load ? ' under load' : ''}`);
    main = await runTestsRepeatedly({ root, tests: targets, runs, signal, onProgress: progress(load ? 'under load' : 'runs') });
  } finally {
    if (load) {
      loadSummary = await load.stop();
      options.onStep(`load: stopped ${loadSummary.workers} workers`);
    }
  }
  if (signal.aborted) throw interruptedError('the test runs and the load were');
  const mainBy = byKey(main);

  // 2. Without load: tests that failed every loaded try (load-sensitive or really failing).
  const allFailed = load ? targets.filter((t) => {
    const r = mainBy.get(key(t.file, t.fullName));
    return r !== undefined && r.found && r.tries.every((x) => x.state === 'failed');
  }) : [];
  let idle: RunsOutcome | null = null;
  if (allFailed.length > 0) {
    options.onStep(`run: ${allFailed.length} test${allFailed.length === 1 ? '' : 's'} that failed every try, again without load`);
    idle = await runTestsRepeatedly({ root, tests: allFailed, runs, signal, onProgress: progress('without load') });
  }

  // 3. New tests that passed with their file: once alone.
  const aloneTargets = options.selected
    .filter((s) => s.kind === 'new')
    .map((s) => mainBy.get(key(s.test.file, s.test.fullName)))
    .filter((r): r is TestTries => r !== undefined && r.found && r.tries.every((x) => x.state === 'passed'))
    .map((r) => targets.find((t) => t.file === r.file && t.fullName === r.fullName))
    .filter((t): t is RepeatTarget => t !== undefined);
  let alone: RunsOutcome | null = null;
  if (aloneTargets.length > 0) {
    options.onStep(`run: ${aloneTargets.length} new test${aloneTargets.length === 1 ? '' : 's'} once alone (order dependence)`);
    alone = await runTestsAlone({ root, tests: aloneTargets, runs: 1, signal, onProgress: progress('alone') });
  }
  const idleBy = byKey(idle);
  // A test that failed its one alone try gets two more alone tries: failing every time alone is
  // order dependence; passing some of them is plain flakiness.
  const failedAlone = aloneTargets.filter((t) => (alone?.tests ?? []).some((r) => r.file === t.file && r.fullName === t.fullName && r.tries.some((x) => x.state === 'failed')));
  let aloneAgain: RunsOutcome | null = null;
  if (failedAlone.length > 0) {
    options.onStep(`run: ${failedAlone.length} test${failedAlone.length === 1 ? '' : 's'} that failed alone, alone twice more`);
    aloneAgain = await runTestsAlone({ root, tests: failedAlone, runs: 2, signal, onProgress: progress('alone again') });
  }
  const aloneBy = byKey(alone);
  for (const again of aloneAgain?.tests ?? []) {
    const first = aloneBy.get(key(again.file, again.fullName));
    if (first) aloneBy.set(key(again.file, again.fullName), { ...first, tries: [...first.tries, ...again.tries] });
  }

  const notices: string[] = [];
  const moduleErrors = [...main.moduleErrors, ...(idle?.moduleErrors ?? [])];
  for (const e of main.unhandledErrors) notices.push(`Vitest reported an unhandled error during the runs: ${e}`);
  let cpuMs = 0;
  let wallMs = 0;
  const tests = options.selected.map((s): GateTestInput => {
    const k = key(s.test.file, s.test.fullName);
    const r = mainBy.get(k);
    for (const t of r?.tries ?? []) {
      cpuMs += t.cpuMs;
      wallMs += t.durationMs;
    }
    const aloneRun = aloneBy.get(k);
    const moduleError = moduleErrors.find((m) => m.file === s.test.file)?.message;
    const result = decideGateVerdict({
      tries: r?.found ? toTries(r) : [],
      loaded: load !== null,
      idle: idleBy.has(k) ? toTries(idleBy.get(k)) : null,
      alone: aloneRun?.found ? toTries(aloneRun) : null,
      limit: options.limitFor(s.test),
      warnAt: options.config.budget.warnAt,
      notRunReason: moduleError ?? 'Vitest did not run it (is its file in the Vitest include, or is it filtered out?)',
    });
    return {
      file: s.test.file,
      name: s.test.fullName,
      line: s.test.line,
      selection: s.kind,
      previous: s.previous ? { file: s.previous.file, name: s.previous.fullName } : null,
      result,
    };
  });
  return {
    tests,
    vitestVersion: main.vitestVersion,
    notices,
    load: {
      workers: options.workers,
      pids: loadSummary?.pids ?? [],
      cpus: loadSummary?.cpus ?? defaultWorkerCount(),
      loadavgBefore: loadSummary?.loadavgBefore ?? null,
      loadavgAfter: loadSummary?.loadavgAfter ?? null,
      workersMachineShare: loadSummary?.machineShare ?? null,
      testsCpuShare: wallMs > 0 ? Math.round((cpuMs / wallMs) * 1000) / 1000 : null,
    },
  };
}
