/**
 * The one loop over the gate's checks (core/gate/gate-checks.ts): each row's rounds in order, each
 * round's tests the ones its rule wants given the evidence so far (core/gate/check-evidence.ts),
 * all on the gate's one Vitest, under one deadline. After the reference row the must-have rows'
 * wanted tests plan the time budget (gate-budget-fit.ts); every must-have row runs before any
 * nice-to-have, and a round starts only while the deadline allows. The reference row runs under
 * the busy workers (gate-loaded-tries.ts), which always stop. A row that reads verdicts (the
 * replay) gets each test's verdict and cause from `judge` over the evidence so far, and a round
 * with a call per test runs its tests one call each (gate-replay-calls.ts).
 */
import { availableParallelism } from 'node:os';
import { plural } from '../../core/budget/budget-text.js';
import { addRound, type Evidence, emptyEvidence, viewOf } from '../../core/gate/check-evidence.js';
import type { CheckContext, CheckRound, CheckRow, TestEvidence, TestJudgement } from '../../core/gate/check-types.js';
import { GATE_CHECKS } from '../../core/gate/gate-checks.js';
import { pairedSeeds } from '../../core/gate/paired-seeds.js';
import { gateDeadline } from '../../core/gate/try-ceiling.js';
import { specKey } from '../../core/tuple-key.js';
import { runTestsAlone, runTestsRepeatedly, type TriesOutcome, targetKey } from '../../io/vitest/vitest-tries.js';
import { type FittedBudget, fitGateBudget } from './gate-budget-fit.js';
import { type LoadedTries, runLoadedTries } from './gate-loaded-tries.js';
import { runVerdictRow } from './gate-replay-calls.js';
import type { GatePhase } from './gate-run-options.js';
import { findTries, type GateTarget } from './gate-targets.js';

/** One round as it ran: its row, its tests and what came back. */
interface CheckCall {
  readonly row: CheckRow;
  readonly round: CheckRound;
  readonly tests: readonly GateTarget[];
  readonly outcome: TriesOutcome;
}

export interface ChecksRun {
  readonly evidence: Evidence;
  /** Each target's evidence as the rules and the verdicts read it. */
  readonly view: (t: GateTarget) => TestEvidence;
  /** The reference row's call, with the load's figures. */
  readonly main: LoadedTries;
  /** Every other round that ran, in order. */
  readonly calls: readonly CheckCall[];
  readonly fit: FittedBudget;
  /** Where the deadline cut the checks: in the must-have rows, in the nice-to-have ones, or not at all. */
  readonly cut: 'must-have' | 'nice-to-have' | null;
}

/** Each target's verdict and cause from the checks so far (gate-run.ts: the verdicts the report gets). */
export type JudgeChecks = (run: ChecksRun) => ReadonlyMap<GateTarget, TestJudgement>;

export async function runGateChecks(
  phase: GatePhase,
  targets: readonly GateTarget[],
  clock: { deadline: number },
  judge?: JudgeChecks,
): Promise<ChecksRun> {
  const { options } = phase;
  const ctx = contextOf(phase);
  const evidence = emptyEvidence();
  const view = viewsOf(evidence, targets);
  const calls: CheckCall[] = [];
  let main: LoadedTries | null = null;
  let fit: FittedBudget | null = null;
  let hints: ReturnType<typeof costHintsOf> | null = null;
  let mustCut = false;
  let niceCut = false;
  const runSoFar = (): ChecksRun =>
    assembleRun({ evidence, view, main, calls, fit }, mustCut, niceCut || !phase.inTime());
  for (const row of GATE_CHECKS) {
    if (row.kind === 'nice-to-have' && row.readsVerdicts !== true && !mustCut && !phase.inTime()) mustCut = true;
    if (main !== null && fit === null) {
      fit = planBudget(phase, targets, view, ctx, main);
      clock.deadline = gateDeadline(options.started, fit.budgetMs, options.slowdown);
      options.onStep(`plan: ${fit.text}`);
    }
    // The rows that read verdicts come last (the replay): the verdicts and the cut are settled here.
    if (row.readsVerdicts === true) return runVerdictRow(phase, { row, ctx, targets, judge }, runSoFar(), record);
    for (const round of row.rounds(ctx)) {
      const tests = targets.filter((t) => round.wants(view(t)));
      if (row.id === 'reference') {
        main = await runReference(phase, tests, round);
        record(evidence, row, round, tests, main.outcome);
        hints = costHintsOf(targets, view, main.outcome);
        mustCut ||= main.outcome.cutShort === 'deadline';
        continue;
      }
      if (tests.length === 0 || !phase.inTime() || options.signal.aborted) continue;
      const seeded = round.call.pairsSeeds === true ? withPairedSeeds(tests, view) : tests;
      const outcome = await runRound(phase, round, seeded, hints ?? new Map());
      record(evidence, row, round, tests, outcome);
      calls.push({ row, round, tests, outcome });
      if (outcome.cutShort !== 'deadline') continue;
      if (row.kind === 'must-have') mustCut = true;
      else niceCut = true;
    }
  }
  return runSoFar();
}

/**
 * The checks' run as the verdicts read it; `cut`: where the deadline cut the checks (past the
 * deadline after the last round that ran: the nice-to-have rows').
 */
function assembleRun(
  run: Omit<ChecksRun, 'main' | 'fit' | 'cut'> & { main: LoadedTries | null; fit: FittedBudget | null },
  mustCut: boolean,
  niceCut: boolean,
): ChecksRun {
  const { main, fit } = run;
  if (main === null || fit === null) throw new Error('the gate checks ran without their reference row');
  return { ...run, main, fit, cut: mustCut ? 'must-have' : niceCut ? 'nice-to-have' : null };
}

/** Each target's evidence as the rules and the verdicts read it. */
function viewsOf(evidence: Evidence, targets: readonly GateTarget[]): (t: GateTarget) => TestEvidence {
  const views = new Map(targets.map((t) => [t, viewOf(evidence, targetKey(t), t.selected.kind === 'new')]));
  return (t) => views.get(t) ?? viewOf(evidence, targetKey(t), false);
}

/** What the rows' rules read beside the evidence: the gate's options. */
const contextOf = ({ options }: GatePhase): CheckContext => ({
  tries: options.tries,
  maxTries: options.maxTries,
  slowdown: options.slowdown,
  loaded: options.workers > 0 || options.slowdown > 1,
});

/** The must-have rows' wanted tests after the reference tries, planned against their cost. */
function planBudget(
  phase: GatePhase,
  targets: readonly GateTarget[],
  view: (t: GateTarget) => TestEvidence,
  ctx: CheckContext,
  main: LoadedTries,
): FittedBudget {
  const wanted = (id: CheckRow['id']) => {
    const rounds = GATE_CHECKS.find((r) => r.id === id)?.rounds(ctx) ?? [];
    return targets.filter((t) => rounds.some((r) => r.wants(view(t))));
  };
  return fitGateBudget(phase.options, main.outcome, wanted('unthrottled'), wanted('alone'));
}

/** Each test's tries in a round's outcome, as one round of its row (a test it did not report: none, unless the row keeps empty rounds). */
function record(
  evidence: Evidence,
  row: CheckRow,
  round: CheckRound,
  tests: readonly GateTarget[],
  outcome: TriesOutcome,
  asked = round.call.factor,
): void {
  for (const t of tests) {
    const found = findTries(t, outcome);
    const tries = found?.found === false ? [] : (found?.tries ?? []);
    if (tries.length === 0 && row.keepsEmptyRounds !== true) continue;
    addRound(evidence, targetKey(t), row.id, { asked, got: outcome.pace.factor, tries });
  }
}

/** Each test with the seeds of its reference tries for a round's first warm tries (paired-seeds.ts). */
const withPairedSeeds = (tests: readonly GateTarget[], view: (t: GateTarget) => TestEvidence): GateTarget[] =>
  tests.map((t) => {
    const seeds = pairedSeeds(view(t).tries('reference'));
    return seeds.length === 0 ? t : { ...t, seeds };
  });

/** The reference row: under the busy workers, its warm repeats in their share of the time to the deadline. */
function runReference(phase: GatePhase, tests: readonly GateTarget[], round: CheckRound): Promise<LoadedTries> {
  const { call } = round;
  return runLoadedTries(phase, tests, {
    tries: call.tries,
    coldTries: call.warm?.coldTries ?? call.tries,
    maxTries: call.warm?.maxTries ?? call.tries,
    budgetMs: call.warm ? budgetOf(phase, call.warm.budgetShare) : 0,
    warm: call.warm !== undefined,
    what: call.how,
  });
}

const budgetOf = (phase: GatePhase, share: number): number =>
  Math.max(0, (phase.deadline() - performance.now()) * share);

/** One round of a row other than the reference: alone, or repeated at its factor. */
function runRound(
  phase: GatePhase,
  round: CheckRound,
  tests: readonly GateTarget[],
  hints: ReadonlyMap<string, { readonly testMs: number; readonly fileMs: number }>,
): Promise<TriesOutcome> {
  const { options } = phase;
  const { call } = round;
  options.onStep(`run: ${plural(tests.length, 'test')} ${round.why}${call.how === '' ? '' : `, ${call.how}`}`);
  const common = {
    root: options.root,
    setup: options.setup,
    session: options.session,
    tests,
    tries: call.tries,
    deadline: phase.deadline(),
    signal: options.signal,
    onProgress: phase.progress(round.label),
    ...(call.perCore === true ? { workers: availableParallelism() } : {}),
  };
  if (call.alone) return runTestsAlone(common);
  return runTestsRepeatedly({
    ...common,
    ...(call.factor > 1 ? { slowdown: call.factor } : {}),
    ...(call.serial ? { serial: true } : {}),
    ...(call.unslowed ? { unslowed: true } : {}),
    ...(call.reversed === true ? { reversed: true } : {}),
    ...(call.warm
      ? {
          warm: true,
          coldTries: call.warm.coldTries,
          maxTries: call.warm.maxTries,
          budgetMs: budgetOf(phase, call.warm.budgetShare),
          costHints: hints,
        }
      : {}),
  });
}

/** What the reference call measured of each test: its mean try and its file's cold cost (a warm round plans its first wave by them). */
function costHintsOf(
  targets: readonly GateTarget[],
  view: (t: GateTarget) => TestEvidence,
  outcome: TriesOutcome,
): ReadonlyMap<string, { readonly testMs: number; readonly fileMs: number }> {
  const files = new Map(outcome.fileCosts.map((c) => [specKey(c.file, c.project), c.costMs]));
  const hints = new Map<string, { testMs: number; fileMs: number }>();
  for (const t of targets) {
    const tries = view(t).tries('reference');
    const fileMs = files.get(specKey(t.file, t.project ?? ''));
    if (tries.length === 0 || fileMs === undefined) continue;
    hints.set(targetKey(t), { testMs: tries.reduce((s, x) => s + x.durationMs, 0) / tries.length, fileMs });
  }
  return hints;
}
