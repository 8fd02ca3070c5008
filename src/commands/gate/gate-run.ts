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

import { TIME_BUDGET_CAP_MS } from '../../core/gate/check-plan.js';
import type { GateLoad } from '../../core/gate/gate-report.js';
import type { GateTestInput } from '../../core/gate/gate-report-test.js';
import type { ProgressLine } from '../../core/gate/runner-protocol.js';
import { type Contention, decideContention, describeShortfall, formatContention } from '../../core/gate/slowdown.js';
import { gateDeadline } from '../../core/gate/try-ceiling.js';
import { testKey } from '../../core/test-id.js';
import { runAloneTries } from './gate-alone-tries.js';
import { fitGateBudget } from './gate-budget-fit.js';
import { escalateHeldTests } from './gate-escalate.js';
import { runIdleTries } from './gate-idle-tries.js';
import { runLoadedTries } from './gate-loaded-tries.js';
import { runNiceToHaves } from './gate-nice-to-have.js';
import type { GatePhase, GateRunOptions } from './gate-run-options.js';
import { gatherRunNotices, summarizeGateLoad, sumTryTimes } from './gate-run-summary.js';
import { addTries, expandTargets, failedSome, findTries, passedAll, type TryMap } from './gate-targets.js';
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

export async function runGate(options: GateRunOptions): Promise<GateRunResult> {
  const targets = expandTargets(options.selected, options.projectsOf);
  const index = new Map(targets.map((t, i) => [testKey(t), i + 1]));
  // A given --time-budget holds from the start; the default grows to cover the must-have checks,
  // so until they are planned the reference tries may run up to its cap.
  let deadline = options.timeBudgetGiven
    ? options.deadline
    : gateDeadline(options.started, TIME_BUDGET_CAP_MS, options.slowdown);
  const phase: GatePhase = {
    options,
    progress: (name: string) => (line: ProgressLine) => options.onProgress(name, line, index.get(testKey(line)) ?? 0),
    inTime: () => performance.now() < deadline,
    deadline: () => deadline,
  };
  // (a) the reference tries: --tries each.
  const main = await runLoadedTries(phase, targets, {
    tries: options.tries,
    maxTries: options.tries,
    budgetMs: 0,
    what: `${options.tries} cold tries each (each a fresh worker running its file)`,
  });
  const triesOf = new Map(targets.map((t) => [t, findTries(t, main.outcome)]));
  const failed = main.loaded ? targets.filter((t) => failedSome(triesOf.get(t))) : [];
  const aloneTargets = targets.filter((t) => t.selected.kind === 'new' && passedAll(triesOf.get(t)));
  const fit = fitGateBudget(options, main.outcome, failed, aloneTargets);
  deadline = gateDeadline(options.started, fit.budgetMs, options.slowdown);
  options.onStep(`plan: ${fit.text}`);
  // (b) without slowdown, (c) alone: the must-have checks.
  const idleOf: TryMap = new Map();
  const idle = await runIdleTries(phase, failed, options.tries, 'that failed a reference try');
  addTries(idleOf, failed, idle);
  const alone = await runAloneTries(phase, aloneTargets);
  const aloneOf: TryMap = new Map();
  addTries(aloneOf, aloneTargets, alone.alone);
  addTries(aloneOf, aloneTargets, alone.again);
  const mustHaveCut =
    [main.outcome, idle, alone.alone, alone.again].some((o) => o?.cutShort === 'deadline') || !phase.inTime();
  // Nice-to-haves, with the time left: extra reference tries, (d) what a cause needs, (e) where it breaks.
  const nice = await runNiceToHaves(phase, targets, { main, triesOf, idleOf, fit });
  const higher = await escalateHeldTests(phase, targets, triesOf);
  const cut = mustHaveCut || nice.cut || !phase.inTime();
  const tests = decideTargetVerdicts(options, targets, {
    main,
    triesOf,
    idleOf,
    aloneOf,
    higher,
    moduleErrors: [...main.outcome.moduleErrors, ...(idle?.moduleErrors ?? [])],
    reference: { asked: options.slowdown, factor: main.outcome.pace.factor ?? options.slowdown },
    cut,
    budgetMs: fit.budgetMs,
  });
  const times = sumTryTimes(triesOf);
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
      ...higher.phases,
      ...(idle ? [{ phase: 'unthrottled', asked: 1, got: idle.pace.factor }] : []),
    ],
  });
  options.onStep(`contention: ${formatContention(contention)}`);
  const slowdownShortfall = main.loaded ? describeShortfall(contention) : null;
  return {
    tests,
    vitestVersion: main.outcome.vitestVersion,
    notices: gatherRunNotices({
      cut: mustHaveCut ? 'must-have' : cut ? 'nice-to-have' : null,
      unhandledErrors: main.outcome.unhandledErrors,
      load,
      slowdownShortfall,
      tests,
    }),
    load,
    contention,
    triesMs: times.triesMs,
    loadedWallMs: main.outcome.wallMs + nice.loadedWallMs,
  };
}
