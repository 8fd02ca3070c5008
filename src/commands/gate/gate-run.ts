/**
 * The gate's checks, evidence first (docs/gate.md "Evidence first", "The checks as rows"): the rows
 * of core/gate/gate-checks.ts run by one loop (gate-checks-run.ts) on the gate's one Vitest: the
 * reference tries, then, planned from what those cost with the default time budget grown to cover
 * them, the must-have rows (tries without slowdown, alone, alone again), then the nice-to-have ones
 * with the time left (the cause's tries without slowdown, where it breaks, confirm). Then each
 * test's verdict (gate-verdicts.ts) from its evidence, naming every check it needed and did not get.
 * The Vitest processes are killed on abort.
 */

import { plural } from '../../core/budget/budget-text.js';
import { TIME_BUDGET_CAP_MS } from '../../core/gate/check-plan.js';
import type { GateLoad } from '../../core/gate/gate-report.js';
import type { GateTestInput } from '../../core/gate/gate-report-test.js';
import type { ProgressLine } from '../../core/gate/runner-protocol.js';
import { type Contention, decideContention, describeShortfall, formatContention } from '../../core/gate/slowdown.js';
import { gateDeadline } from '../../core/gate/try-ceiling.js';
import { testKey } from '../../core/test-id.js';
import { openVitestSession } from '../../io/vitest/vitest-session.js';
import { targetKey } from '../../io/vitest/vitest-tries.js';
import { type ChecksRun, runGateChecks } from './gate-checks-run.js';
import type { GatePhase, GateRunOptions } from './gate-run-options.js';
import { gatherRunNotices, summarizeGateLoad, sumTryTimes } from './gate-run-summary.js';
import { expandTargets, type GateTarget } from './gate-targets.js';
import { decideTargetVerdicts, judgementsOf } from './gate-verdicts.js';

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
  // The replay row reads the verdicts of the checks before it: the same ones the report gets.
  const run = await runGateChecks(phase, targets, clock, (soFar) =>
    judgementsOf(targets, decideVerdicts(options, targets, soFar)),
  );
  const tests = decideVerdicts(options, targets, run);
  return summarizeRun(options, { tests, run, targets });
}

/** Every target's verdict from the checks' evidence (gate-verdicts.ts). */
function decideVerdicts(options: GateRunOptions, targets: readonly GateTarget[], run: ChecksRun): GateTestInput[] {
  const { main } = run;
  const unthrottled = run.calls.filter((c) => c.row.id === 'unthrottled').map((c) => c.outcome);
  return decideTargetVerdicts(options, targets, {
    main,
    view: run.view,
    moduleErrors: [...main.outcome.moduleErrors, ...unthrottled.flatMap((o) => o.moduleErrors)],
    reference: { asked: options.slowdown, factor: main.outcome.pace.factor ?? options.slowdown },
    cut: run.cut !== null,
    budgetMs: run.fit.budgetMs,
  });
}

/**
 * A given --time-budget holds from the start; the default grows to cover the must-have checks, so
 * until they are planned the reference tries may run up to its cap.
 */
function startingDeadline(options: GateRunOptions): number {
  return options.timeBudgetGiven
    ? options.deadline
    : gateDeadline(options.started, TIME_BUDGET_CAP_MS, options.slowdown);
}

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

/** The verdicts with the load, the slowdown each phase got and the notices. */
function summarizeRun(
  options: GateRunOptions,
  {
    tests,
    run,
    targets,
  }: { readonly tests: readonly GateTestInput[]; readonly run: ChecksRun; readonly targets: readonly GateTarget[] },
): GateRunResult {
  const { main } = run;
  const times = sumTryTimes(targets.map((t) => run.view(t).tries('reference')));
  const load = summarizeGateLoad(options.workers, main.loadSummary, times);
  const pace = main.outcome.pace;
  const phased = run.calls.filter((c) => c.round.phase !== undefined);
  // The factor each phase got: the reference, the nice-to-have ones (x4, x8, confirm), the first without slowdown.
  const idle = phased.find((c) => c.row.id === 'unthrottled');
  const contention = decideContention({
    target: options.slowdown,
    method: pace.method.kind,
    methodWhy: pace.method.why,
    weight: pace.method.weight,
    busyWorkers: options.workers,
    phases: [
      { phase: 'reference', asked: pace.asked, got: pace.factor },
      ...phased
        .filter((c) => c.row.kind === 'nice-to-have')
        .map((c) => ({ phase: c.round.phase ?? '', asked: c.round.call.factor, got: c.outcome.pace.factor })),
      ...(idle ? [{ phase: 'unthrottled', asked: 1, got: idle.outcome.pace.factor }] : []),
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
    loadedWallMs: main.outcome.wallMs,
  };
}
