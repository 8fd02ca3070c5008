/**
 * The gate's runs, in order: cold tries under load (every selected test in each of its Vitest
 * projects, each try a fresh worker running the test's file: `runs` tries, then more up to
 * `maxRuns` while the time budget lasts), cold tries without load for tests that failed every
 * loaded try, and each passing new test once alone (twice more when that failed). The load is
 * started before Vitest (so workers start under it) and always stopped (finally); the Vitest
 * processes are killed on abort.
 */

import { median } from 'simple-statistics';
import type { resolveTestLimit } from '../../core/budget/budget.js';
import type { Config } from '../../core/config.js';
import { interruptedError } from '../../core/errors.js';
import { applyBreakingPoint, type FactorTries } from '../../core/gate/breaking-point.js';
import type { GateLoad, GateTestInput } from '../../core/gate/gate-report.js';
import { decideGateVerdict, type GateTry } from '../../core/gate/gate-verdict.js';
import { describeLoadShortfall } from '../../core/gate/load-check.js';
import type { ProgressLine } from '../../core/gate/runner-protocol.js';
import {
  type Contention,
  decideContention,
  describeAmbientExcess,
  describeShortfall,
} from '../../core/gate/slowdown.js';
import type { SelectedTest } from '../../core/gate/test-selection.js';
import type { SourceTest } from '../../core/source/test-source.js';
import { defaultWorkerCount, type LoadSummary, startLoadWorkers } from '../../io/load/load-workers.js';
import { probeAmbientSlowdown } from '../../io/load/schedstat.js';
import {
  type RepeatTarget,
  type RunsOutcome,
  runTestsAlone,
  runTestsRepeatedly,
  type TestTries,
} from '../../io/vitest/vitest-runs.js';
import type { VitestSetup } from '../../io/vitest/vitest-setup.js';
import { runHigherFactors } from './gate-escalate.js';

export interface GateRunOptions {
  readonly root: string;
  readonly config: Config;
  readonly setup: VitestSetup;
  readonly selected: readonly SelectedTest<SourceTest>[];
  /** The Vitest projects each file runs in. */
  readonly projectsOf: ReadonlyMap<string, readonly string[]>;
  readonly affectedBy: ReadonlyMap<string, readonly string[]>;
  readonly runs: number;
  readonly maxRuns: number;
  readonly timeBudgetMs: number;
  readonly workers: number;
  /** The reference slowdown factor asked for (1: no stops). */
  readonly slowdown: number;
  /** performance.now() by which every try ends (core/gate/try-ceiling.ts gateDeadline). */
  readonly deadline: number;
  readonly signal: AbortSignal;
  /** The limit of a test (budget or its allowance). */
  readonly limitFor: (test: SourceTest) => ReturnType<typeof resolveTestLimit>;
  readonly onProgress: (phase: string, line: ProgressLine, index: number) => void;
  readonly onStep: (text: string) => void;
}

export interface GateRunResult {
  readonly tests: readonly GateTestInput[];
  readonly load: GateLoad;
  readonly contention: Contention & { readonly achieved: number | null };
  readonly vitestVersion: string | null;
  readonly notices: readonly string[];
  /** Sum of the loaded tries' own durations, and the loaded phase's wall time (bench/gate-overhead.mjs). */
  readonly triesMs: number;
  readonly loadedWallMs: number;
}

interface Target extends RepeatTarget {
  readonly project: string | null;
  readonly selected: SelectedTest<SourceTest>;
}

const key = (t: { readonly file: string; readonly fullName: string; readonly project?: string | null }): string =>
  JSON.stringify([t.project ?? '', t.file, t.fullName]);
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function toTries(t: TestTries | undefined): GateTry[] {
  return (t?.tries ?? []).map((r) => ({
    state: r.state,
    durationMs: r.durationMs,
    cold: r.cold,
    slowdown: r.slowdown,
    ...(r.error === undefined ? {} : { error: r.error }),
  }));
}

function byKey(outcome: RunsOutcome | null): Map<string, TestTries> {
  return new Map((outcome?.tests ?? []).map((t) => [key(t), t]));
}

/** Every selected test once per Vitest project its file runs in ('' = the only, unnamed one). */
function expandTargets(options: GateRunOptions): Target[] {
  return options.selected.flatMap((s) => {
    const projects = options.projectsOf.get(s.test.file) ?? [''];
    return projects.map((p) => ({
      file: s.test.file,
      fullName: s.test.fullName,
      line: s.test.line,
      project: p === '' && projects.length === 1 ? null : p,
      selected: s,
    }));
  });
}

export async function runGate(options: GateRunOptions): Promise<GateRunResult> {
  const { root, runs, signal, setup } = options;
  const targets = expandTargets(options);
  const index = new Map(targets.map((t, i) => [key(t), i + 1]));
  const progress = (phase: string) => (line: ProgressLine) =>
    options.onProgress(phase, line, index.get(key(line)) ?? 0);
  const resolved = (t: Target, outcome: RunsOutcome | null): TestTries | undefined => byKey(outcome).get(key(t));

  // 0. The machine's own slowdown, measured before anything of ours runs: the stops add only the rest.
  const contention = decideContention(options.slowdown, probeAmbientSlowdown(), options.workers);
  const excess = describeAmbientExcess(contention);
  if (excess) options.onStep(`warning: ${excess}`);
  options.onStep(
    `contention: target x${contention.target}, measured ambient ${contention.ambient === null ? 'unknown (no /proc schedstat)' : `x${contention.ambient}`}, method ${contention.method}`,
  );

  // 1. Cold tries at the reference slowdown (and under load: the load runs before Vitest starts).
  let loadSummary: LoadSummary | null = null;
  let main: RunsOutcome;
  const load = options.workers > 0 ? startLoadWorkers(options.workers) : null;
  if (load) options.onStep(`load: started ${plural(options.workers, 'busy worker')} (pids ${load.pids.join(', ')})`);
  const loaded = load !== null || options.slowdown > 1;
  const condition = `${options.slowdown > 1 ? ` at x${contention.reference}` : ''}${load ? ' under load' : ''}`;
  try {
    options.onStep(
      `run: ${plural(targets.length, 'test')}, ${runs} to ${Math.max(runs, options.maxRuns)} cold tries each (each a fresh worker running its file)${condition}`,
    );
    const slowdown = { target: contention.target, ambient: contention.ambient };
    main = await runTestsRepeatedly({
      root,
      setup,
      tests: targets,
      runs,
      maxRuns: options.maxRuns,
      budgetMs: options.slowdown > 1 ? options.timeBudgetMs * 0.6 : options.timeBudgetMs,
      slowdown,
      deadline: options.deadline,
      signal,
      onProgress: progress(loaded ? `at x${contention.reference}${load ? ' under load' : ''}` : 'runs'),
    });
  } finally {
    if (load) {
      loadSummary = await load.stop();
      options.onStep(`load: stopped ${plural(loadSummary.workers, 'worker')}`);
    }
  }
  if (signal.aborted) throw interruptedError('the test runs and the load were');
  const triesOf = new Map(targets.map((t) => [t, resolved(t, main)]));

  // 2. Without load: tests that failed every loaded try (load-sensitive or really failing).
  const allFailed = loaded
    ? targets.filter((t) => {
        const r = triesOf.get(t);
        return r?.found === true && r.tries.every((x) => x.state === 'failed');
      })
    : [];
  let idle: RunsOutcome | null = null;
  const inTime = (): boolean => performance.now() < options.deadline;
  // 1b. Where it breaks: tests that passed every try at the reference, at 2x and 4x it.
  const held = targets.filter((t) => {
    const r = triesOf.get(t);
    return r?.found === true && r.tries.length > 0 && r.tries.every((x) => x.state === 'passed');
  });
  const higher =
    options.slowdown > 1 && held.length > 0 && inTime()
      ? await runHigherFactors({
          root,
          setup,
          targets: held,
          reference: contention.reference,
          ambient: contention.ambient,
          deadline: options.deadline,
          signal,
          toTries,
          keyOf: key,
          onStep: options.onStep,
          onProgress: progress,
        })
      : { levels: new Map<Target, FactorTries[]>(), confirm: new Map<Target, GateTry[]>() };
  if (allFailed.length > 0 && inTime()) {
    options.onStep(
      `run: ${plural(allFailed.length, 'test')} that failed every try, again without slowdown or load, one try at a time`,
    );
    idle = await runTestsRepeatedly({
      root,
      setup,
      tests: allFailed,
      runs,
      serial: true,
      deadline: options.deadline,
      signal,
      onProgress: progress('without load'),
    });
  }

  // 3. New tests that passed with their file: once alone; a failure there gets two more alone tries
  // (failing every time alone is order dependence; passing some of them is plain flakiness).
  const aloneTargets = targets.filter((t) => {
    const r = triesOf.get(t);
    return t.selected.kind === 'new' && r !== undefined && r.found && r.tries.every((x) => x.state === 'passed');
  });
  let alone: RunsOutcome | null = null;
  if (aloneTargets.length > 0 && inTime()) {
    options.onStep(`run: ${plural(aloneTargets.length, 'new test')} once alone (order dependence)`);
    alone = await runTestsAlone({
      root,
      setup,
      tests: aloneTargets,
      runs: 1,
      deadline: options.deadline,
      signal,
      onProgress: progress('alone'),
    });
  }
  const failedAlone = aloneTargets.filter((t) => resolved(t, alone)?.tries.some((x) => x.state === 'failed'));
  let aloneAgain: RunsOutcome | null = null;
  if (failedAlone.length > 0 && inTime()) {
    options.onStep(`run: ${plural(failedAlone.length, 'test')} that failed alone, alone twice more`);
    aloneAgain = await runTestsAlone({
      root,
      setup,
      tests: failedAlone,
      runs: 2,
      deadline: options.deadline,
      signal,
      onProgress: progress('alone again'),
    });
  }

  const notices: string[] = [];
  const cut = [main, idle, alone, aloneAgain].some((o) => o?.cutShort === 'deadline') || !inTime();
  if (cut) {
    notices.push(
      "the gate reached its deadline (--time-budget plus one try's ceiling): the tries still running were stopped and later checks skipped; the verdicts stand on the tries that finished",
    );
  }
  const moduleErrors = [...main.moduleErrors, ...(idle?.moduleErrors ?? [])];
  for (const e of main.unhandledErrors) notices.push(`Vitest reported an unhandled error during the runs: ${e}`);
  let cpuMs = 0;
  let triesMs = 0;
  const tests = targets.map((t): GateTestInput => {
    const s = t.selected;
    const r = triesOf.get(t);
    for (const x of r?.tries ?? []) {
      cpuMs += x.cpuMs;
      triesMs += x.durationMs;
    }
    const aloneTries = [...toTries(resolved(t, alone)), ...toTries(resolved(t, aloneAgain))];
    const idleRun = resolved(t, idle);
    const moduleError = moduleErrors.find(
      (m) => m.file === s.test.file && (t.project === null || m.project === t.project),
    )?.message;
    const decided = decideGateVerdict({
      tries: r?.found ? toTries(r) : [],
      loaded,
      condition,
      idle: idleRun ? toTries(idleRun) : null,
      alone: aloneTries.length > 0 ? aloneTries : null,
      limit: options.limitFor(s.test),
      warnAt: options.config.budget.warnAt,
      notRunReason:
        moduleError ??
        (cut
          ? 'the gate reached its deadline before it ran (raise --time-budget)'
          : 'Vitest did not run it (is its file in the Vitest include, or is it filtered out?)'),
    });
    const result = applyBreakingPoint(
      decided,
      { factor: contention.reference, tries: r?.found ? toTries(r) : [] },
      higher.levels.get(t) ?? [],
      higher.confirm.get(t) ?? [],
    );
    return {
      file: s.test.file,
      name: s.test.fullName,
      line: s.test.line,
      project: t.project,
      selection: s.kind,
      previous: s.previous ? { file: s.previous.file, name: s.previous.fullName } : null,
      ...(s.kind === 'affected' ? { affectedBy: options.affectedBy.get(s.test.file) ?? [] } : {}),
      result,
    };
  });
  const loadFigures: GateLoad = {
    workers: options.workers,
    pids: loadSummary?.pids ?? [],
    cpus: loadSummary?.cpus ?? defaultWorkerCount(),
    loadavgBefore: loadSummary?.loadavgBefore ?? null,
    loadavgAfter: loadSummary?.loadavgAfter ?? null,
    workersMachineShare: loadSummary?.machineShare ?? null,
    testsCpuShare: triesMs > 0 ? Math.round((cpuMs / triesMs) * 1000) / 1000 : null,
  };
  const shortfall = describeLoadShortfall(loadFigures);
  if (shortfall) notices.push(shortfall);
  const got = [...triesOf.values()].flatMap((r) => r?.tries.map((x) => x.slowdown) ?? []);
  const achieved = got.length > 0 ? Math.round(median(got) * 100) / 100 : null;
  const off = loaded ? describeShortfall(contention.reference, achieved) : null;
  if (off) notices.push(off);
  return {
    tests,
    vitestVersion: main.vitestVersion,
    notices,
    load: loadFigures,
    contention: { ...contention, achieved },
    triesMs,
    loadedWallMs: main.wallMs,
  };
}
