/**
 * The gate's checks, evidence first (docs/gate.md "Evidence first"), each phase in its own file:
 * (a) `--tries` cold tries of every target at the reference slowdown (gate-loaded-tries.ts); then,
 * planned from what those cost, with the default time budget grown to cover them
 * (gate-budget-fit.ts), the must-have checks: (b) tries without slowdown for every test that failed
 * a reference try (gate-idle-tries.ts), (c) each new test that passed with its file alone
 * (gate-alone-tries.ts). Only then the nice-to-haves, with the time left: extra reference tries up
 * to `--max-tries`, (d) the tries without slowdown a cause still needs, (e) where the tests that held
 * break (gate-escalate.ts). Then each test's verdict (gate-verdicts.ts), which names every check it
 * needed and did not get. The Vitest processes are killed on abort.
 */

import { plural } from '../../core/budget/budget-text.js';
import { TIME_BUDGET_CAP_MS } from '../../core/gate/check-plan.js';
import type { GateLoad } from '../../core/gate/gate-report.js';
import type { GateTestInput } from '../../core/gate/gate-report-test.js';
import { repeatOnlyFailures } from '../../core/gate/repeat-only.js';
import type { ProgressLine } from '../../core/gate/runner-protocol.js';
import { type Contention, decideContention, describeShortfall, formatContention } from '../../core/gate/slowdown.js';
import { gateDeadline } from '../../core/gate/try-ceiling.js';
import { REFERENCE_COLD_TRIES } from '../../core/gate/warm-schedule.js';
import { testKey } from '../../core/test-id.js';
import { openVitestSession } from '../../io/vitest/vitest-session.js';
import { type TriesOutcome, targetKey } from '../../io/vitest/vitest-tries.js';
import { runAloneTries } from './gate-alone-tries.js';
import { fitGateBudget } from './gate-budget-fit.js';
import { escalateHeldTests, type HigherFactors } from './gate-escalate.js';
import { runIdleTries } from './gate-idle-tries.js';
import { type LoadedTries, runLoadedTries } from './gate-loaded-tries.js';
import { runNiceToHaves } from './gate-nice-to-have.js';
import type { GatePhase, GateRunOptions } from './gate-run-options.js';
import { gatherRunNotices, summarizeGateLoad, sumTryTimes } from './gate-run-summary.js';
import {
  addTries,
  expandTargets,
  failedSome,
  findTries,
  type GateTarget,
  passedAll,
  type TriesOf,
  type TryMap,
  triesIn,
} from './gate-targets.js';
import { decideTargetVerdicts } from './gate-verdicts.js';

export interface GateRunResult {
  readonly tests: readonly GateTestInput[];
  readonly load: GateLoad;
  readonly contention: Contention;
  readonly vitestVersion: string | null;
  readonly notices: readonly string[];
  /** Sum of the loaded tries' own durations, and the loaded phases' wall time (bench/gate-overhead.mjs). */
  readonly triesMs: number;
  readonly loadedWallMs: number;
}

/** The gate's checks on one Vitest (io/vitest/vitest-session.ts), closed whatever happens. */
export async function runGate(options: GateRunOptions): Promise<GateRunResult> {
  const session = options.session ?? openVitestSession(options.root, options.setup, options.signal, options.seed);
  try {
    const result = await runChecks({ ...options, session });
    options.onStep(`vitest: ${plural(session.starts(), 'start')} for the checks (and one to list the test files)`);
    return result;
  } finally {
    if (options.session === undefined) session.close();
  }
}

async function runChecks(options: GateRunOptions): Promise<GateRunResult> {
  const targets = expandTargets(options.selected, options.projectsOf);
  const clock = { deadline: startingDeadline(options) };
  const phase = makePhase(options, targets, clock);
  // (a) the reference tries: --tries each.
  // With --max-tries at --tries no warm repeat is asked for: every try is cold, as in CI.
  const coldTries = options.maxTries > options.tries ? Math.min(options.tries, REFERENCE_COLD_TRIES) : options.tries;
  const main = await runLoadedTries(phase, targets, {
    tries: options.tries,
    coldTries,
    maxTries: options.maxTries,
    budgetMs: warmCapMs(phase),
    warm: true,
    what: `${plural(coldTries, 'cold try', 'cold tries')} each (each a fresh worker running its file), then warm repeats up to ${options.maxTries} tries for the tests that cost little next to their file and have not failed (cold tries up to ${options.tries} for the others)`,
  });
  const triesOf = new Map(targets.map((t) => [t, findTries(t, main.outcome)]));
  const failed = main.loaded ? targets.filter((t) => failedSome(triesOf.get(t))) : [];
  // A new test that failed only as a repeat inside one worker may yet be stable: it needs its alone try too.
  const aloneTargets = targets.filter(
    (t) => t.selected.kind === 'new' && (passedAll(triesOf.get(t)) || failedOnlyAsRepeat(triesOf.get(t))),
  );
  const fit = fitGateBudget(options, main.outcome, failed, aloneTargets);
  clock.deadline = gateDeadline(options.started, fit.budgetMs, options.slowdown);
  options.onStep(`plan: ${fit.text}`);
  const must = await runMustHaves(phase, failed, aloneTargets, { main, triesOf });
  // Nice-to-haves, with the time left: extra reference tries, (d) what a cause needs, (e) where it breaks.
  const nice = await runNiceToHaves(phase, targets, { main, triesOf, idleOf: must.idleOf, fit });
  const higher = await escalateHeldTests(phase, targets, triesOf);
  const cut = must.cut || nice.cut || !phase.inTime();
  const tests = decideTargetVerdicts(options, targets, {
    main,
    triesOf,
    idleOf: must.idleOf,
    aloneOf: must.aloneOf,
    higher,
    moduleErrors: [...main.outcome.moduleErrors, ...must.idleErrors],
    reference: { asked: options.slowdown, factor: main.outcome.pace.factor ?? options.slowdown },
    cut,
    budgetMs: fit.budgetMs,
  });
  return summarizeRun(options, {
    tests,
    main,
    triesOf,
    higher,
    idle: must.idle,
    cut: must.cut ? 'must-have' : cut ? 'nice-to-have' : null,
    niceWallMs: nice.loadedWallMs,
  });
}

const failedOnlyAsRepeat = (r: ReturnType<typeof findTries>): boolean =>
  r?.found === true && (repeatOnlyFailures(r.tries) ?? 0) > 0;

/**
 * A given --time-budget holds from the start; the default grows to cover the must-have checks, so
 * until they are planned the reference tries may run up to its cap.
 */
function startingDeadline(options: GateRunOptions): number {
  return options.timeBudgetGiven
    ? options.deadline
    : gateDeadline(options.started, TIME_BUDGET_CAP_MS, options.slowdown);
}

/** The reference call's warm repeats may take at most half the time to the deadline (the other checks need the rest). */
function warmCapMs(phase: GatePhase): number {
  return Math.max(0, (phase.deadline() - performance.now()) * WARM_DEADLINE_SHARE);
}

const WARM_DEADLINE_SHARE = 0.5;

/** What every phase reads: the options, its progress sink, and the deadline as it is now. */
function makePhase(options: GateRunOptions, targets: readonly GateTarget[], clock: { deadline: number }): GatePhase {
  const index = new Map(targets.map((t, i) => [targetKey(t), i + 1]));
  return {
    options,
    progress: (name: string) => (line: ProgressLine) => options.onProgress(name, line, index.get(testKey(line)) ?? 0),
    inTime: () => performance.now() < clock.deadline,
    deadline: () => clock.deadline,
  };
}

/** Tries without slowdown a flaky test gets at most (one cold, the rest warm where it is cheap), and their share of the time left. */
const IDLE_MAX_TRIES = 30;
const IDLE_WARM_SHARE = 0.25;

/** (b) without slowdown for the tests that failed a reference try, (c) alone for the new tests that passed: the must-have checks. */
async function runMustHaves(
  phase: GatePhase,
  failed: readonly GateTarget[],
  aloneTargets: readonly GateTarget[],
  { main, triesOf }: { readonly main: LoadedTries; readonly triesOf: TriesOf },
): Promise<{
  idleOf: TryMap;
  aloneOf: TryMap;
  idle: TriesOutcome | null;
  idleErrors: TriesOutcome['moduleErrors'];
  cut: boolean;
}> {
  const idleOf: TryMap = new Map();
  const { tries } = phase.options;
  const allFailed = failed.filter((t) => !triesIn(triesOf.get(t)).some((x) => x.state === 'passed'));
  const someFailed = failed.filter((t) => !allFailed.includes(t));
  const cold = await runIdleTries(phase, allFailed, tries, 'that failed every reference try');
  addTries(idleOf, allFailed, cold);
  const warmBudgetMs = Math.max(0, (phase.deadline() - performance.now()) * IDLE_WARM_SHARE);
  const warm = await runIdleTries(phase, someFailed, tries, 'that failed some reference tries', {
    maxTries: IDLE_MAX_TRIES,
    budgetMs: warmBudgetMs,
  });
  addTries(idleOf, someFailed, warm);
  const idle = cold ?? warm;
  const alone = await runAloneTries(phase, aloneTargets);
  const aloneOf: TryMap = new Map();
  addTries(aloneOf, aloneTargets, alone.alone);
  addTries(aloneOf, aloneTargets, alone.again);
  const outcomes = [main.outcome, cold, warm, alone.alone, alone.again];
  const cut = outcomes.some((o) => o?.cutShort === 'deadline') || !phase.inTime();
  return { idleOf, aloneOf, idle, idleErrors: [...(cold?.moduleErrors ?? []), ...(warm?.moduleErrors ?? [])], cut };
}

/** The verdicts with the load, the slowdown each phase got and the notices. */
function summarizeRun(
  options: GateRunOptions,
  run: {
    readonly tests: readonly GateTestInput[];
    readonly main: LoadedTries;
    readonly triesOf: TriesOf;
    readonly higher: HigherFactors<GateTarget>;
    readonly idle: TriesOutcome | null;
    readonly cut: 'must-have' | 'nice-to-have' | null;
    readonly niceWallMs: number;
  },
): GateRunResult {
  const { main, idle, tests } = run;
  const times = sumTryTimes(run.triesOf);
  const load = summarizeGateLoad(options.workers, main.loadSummary, times);
  const pace = main.outcome.pace;
  const contention = decideContention({
    target: options.slowdown,
    method: pace.method.kind,
    methodWhy: pace.method.why,
    weight: pace.method.weight,
    busyWorkers: options.workers,
    phases: [
      { phase: 'reference', asked: pace.asked, got: pace.factor },
      ...run.higher.phases,
      ...(idle ? [{ phase: 'unthrottled', asked: 1, got: idle.pace.factor }] : []),
    ],
  });
  options.onStep(`contention: ${formatContention(contention)}`);
  const slowdownShortfall = main.loaded ? describeShortfall(contention) : null;
  return {
    tests,
    vitestVersion: main.outcome.vitestVersion,
    notices: gatherRunNotices({
      cut: run.cut,
      unhandledErrors: main.outcome.unhandledErrors,
      load,
      slowdownShortfall,
      tests,
    }),
    load,
    contention,
    triesMs: times.triesMs,
    loadedWallMs: main.outcome.wallMs + run.niceWallMs,
  };
}
