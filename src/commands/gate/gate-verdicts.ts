/**
 * Each target's verdict from all of its tries (core/gate/gate-verdict.ts): at the reference, without
 * slowdown and alone, then where it broke above the reference (core/gate/breaking-point.ts), with
 * each check it needed and did not get said with the time budget that would have allowed it, as the
 * input of the gate report.
 */
import type { CauseFinding } from '../../core/cause/cause.js';
import { applyBreakingPoint, type FactorTries } from '../../core/gate/breaking-point.js';
import { withJudgement } from '../../core/gate/check-evidence.js';
import type { TestEvidence, TestJudgement } from '../../core/gate/check-types.js';
import { findGateCause, needsCause } from '../../core/gate/gate-cause.js';
import { countsAtFactorOne, formatMissingCheck, type MissingCheck } from '../../core/gate/gate-evidence.js';
import type { GateTestInput } from '../../core/gate/gate-report-test.js';
import { decideGateVerdict, type GateTestResult } from '../../core/gate/gate-verdict.js';
import { leaveOutRepeatFailures } from '../../core/gate/repeat-only.js';
import { chooseReplay } from '../../core/gate/replay-choice.js';
import type { GateTry } from '../../core/gate/runner-protocol.js';
import { WORKER_ENDED } from '../../core/gate/unfinished-tries.js';
import { computeGateReplay, type GateReplay } from '../../core/replay/gate-replay.js';
import { escapeTerminal } from '../../core/untrusted-text.js';
import type { TriesOutcome } from '../../io/vitest/vitest-tries.js';
import { describeAllowance, missingCostMs } from './gate-budget-fit.js';
import { findStateWriter, readCauseSignals } from './gate-cause-source.js';
import type { LoadedTries } from './gate-loaded-tries.js';
import type { GateRunOptions } from './gate-run-options.js';
import type { GateTarget } from './gate-targets.js';

/** The evidence of every check of the gate's tries (core/gate/check-evidence.ts), and how its calls went. */
export interface GateOutcomes {
  readonly main: LoadedTries;
  /** Each target's tries in every check (its reference tries: the cold ones and the warm repeats). */
  readonly view: (t: GateTarget) => TestEvidence;
  readonly moduleErrors: TriesOutcome['moduleErrors'];
  /** The factor the loaded tries measurably got (else the one asked), and the one asked. */
  readonly reference: { readonly factor: number; readonly asked: number };
  /** True when the gate reached its deadline: a check not made was cut, not unneeded. */
  readonly cut: boolean;
  /** The time budget the gate kept to. */
  readonly budgetMs: number;
}

export function decideTargetVerdicts(
  options: GateRunOptions,
  targets: readonly GateTarget[],
  outcomes: GateOutcomes,
): GateTestInput[] {
  const results = targets.map((t) => decideTargetVerdict(options, t, targets, outcomes));
  const missing = targets.flatMap((target, i) => (results[i]?.missing ?? []).map((check) => ({ target, check })));
  // Every cut check at once: the budget that allows them is the time so far and their cost.
  const neededMs =
    Math.ceil((performance.now() - options.started + missingCostMs(missing, outcomes.main.outcome)) / 10_000) * 10_000;
  const allowance = outcomes.cut ? describeAllowance(outcomes.budgetMs, neededMs) : null;
  return targets.map((t, i) => {
    const result = results[i] as GateTestResult;
    const described = result.missing.map((m: MissingCheck) => formatMissingCheck(m, allowance));
    const before = targets.filter(
      (o) => o.file === t.file && o.project === t.project && o.selected.test.line < t.selected.test.line,
    );
    const cause = causeOf(options.root, t, result, outcomes, before, described);
    return {
      ...toGateTestInput(options, t, result),
      missing: described,
      ...cause,
      replay: replayOf(
        t,
        outcomes.view(t),
        { verdict: result.verdict, cause: cause.cause?.class ?? null },
        options.seed?.nodeCrypto === true,
      ),
    };
  });
}

/**
 * Why a test is not stable, from all of its tries (core/gate/gate-cause.ts), with the signals in
 * its source as supporting evidence and, for an order-dependent test, the earlier test that writes
 * the state it reads.
 */
function causeOf(
  root: string,
  t: GateTarget,
  result: GateTestResult,
  outcomes: GateOutcomes,
  before: readonly GateTarget[],
  missing: readonly string[],
): { cause?: CauseFinding } {
  if (!needsCause(result.verdict)) return {};
  const e = outcomes.view(t);
  const reference = e.tries('reference');
  const idle = unthrottledOf(e);
  const alone = e.tries('alone', 'alone-again');
  const cause = findGateCause({
    file: t.selected.test.file,
    line: t.selected.test.line,
    verdict: result.verdict,
    reference: { ...outcomes.reference, tries: reference },
    higher: levelsOf(e),
    confirm: e.tries('confirm'),
    unthrottled: idle ? countsAtFactorOne(idle) : null,
    referenceUnthrottled: !outcomes.main.loaded,
    alone: alone.length > 0 ? alone : null,
    before: before.map((b) => b.fullName),
    leavesState: result.verdict === 'order-dependent' ? findStateWriter(root, t.selected.test) : null,
    signals: readCauseSignals(root, t.selected.test),
    missing,
    reason: result.reason,
  });
  return { cause };
}

/** The replay its verdict wants (core/gate/replay-choice.ts) with the replay row's tries of it, or null. */
function replayOf(t: GateTarget, e: TestEvidence, judged: TestJudgement, nodeCrypto: boolean): GateReplay | null {
  const choice = chooseReplay(withJudgement(e, judged));
  if (choice === null) return null;
  const { call } = choice;
  const place = { file: t.selected.test.file, fullName: t.selected.test.fullName, project: t.project ?? '' };
  return computeGateReplay(
    { ...place, ...call, nodeCrypto, alone: choice.cause === 'order', uncontrolled: choice.uncontrolled },
    e.tries('replay'),
  );
}

/** Each target's verdict and cause, as the replay row reads them (gate-checks-run.ts JudgeChecks). */
export function judgementsOf(
  targets: readonly GateTarget[],
  tests: readonly GateTestInput[],
): ReadonlyMap<GateTarget, TestJudgement> {
  return new Map(
    targets.flatMap((t, i) => {
      const g = tests[i];
      return g === undefined ? [] : [[t, { verdict: g.result.verdict, cause: g.cause?.class ?? null }] as const];
    }),
  );
}

/** Why a test never ran when an earlier test of its file ended its worker every time: that test, named. */
function workerEndedBefore(t: GateTarget, targets: readonly GateTarget[], outcomes: GateOutcomes): string | undefined {
  for (const other of targets) {
    if (other === t || other.file !== t.file || other.project !== t.project) continue;
    if (other.selected.test.line >= t.selected.test.line) continue;
    if (
      outcomes
        .view(other)
        .tries('reference')
        .some((x) => x.error?.startsWith(WORKER_ENDED))
    )
      return `its file's worker ended before it, during "${escapeTerminal(other.selected.test.fullName)}" (line ${other.selected.test.line}), so it never ran`;
  }
  return undefined;
}

function decideTargetVerdict(
  options: GateRunOptions,
  t: GateTarget,
  targets: readonly GateTarget[],
  outcomes: GateOutcomes,
): GateTestResult {
  const e = outcomes.view(t);
  const tries = e.tries('reference');
  const aloneTries = e.tries('alone', 'alone-again');
  const idle = unthrottledOf(e);
  const moduleError = outcomes.moduleErrors.find(
    (m) => m.file === t.selected.test.file && (t.project === null || m.project === t.project),
  )?.message;
  const notRunReason =
    moduleError ??
    workerEndedBefore(t, targets, outcomes) ??
    (outcomes.cut ? undefined : 'Vitest did not run it (is its file in the Vitest include, or is it filtered out?)');
  const decided = decideGateVerdict({
    tries,
    loaded: outcomes.main.loaded,
    condition: outcomes.main.condition,
    asked: outcomes.reference.asked,
    idle,
    alone: aloneTries.length > 0 ? aloneTries : null,
    reversed: e.tries('reversed').length > 0 ? e.tries('reversed') : null,
    limit: options.limitFor(t.selected.test),
    warnAt: options.config.budget.warnAt,
    ...(notRunReason === undefined ? {} : { notRunReason }),
    rules: { minTries: options.tries, isNew: t.selected.kind === 'new', cut: outcomes.cut },
  });
  // A test that failed only as a repeat inside one worker is judged on its cold tries here too.
  const counted = leaveOutRepeatFailures(tries, idle)?.reference ?? tries;
  return applyBreakingPoint(decided, { ...outcomes.reference, tries: counted }, levelsOf(e), e.tries('confirm'));
}

/** Its tries without slowdown (the must-have row's and the cause's), or null when it had none. */
function unthrottledOf(e: TestEvidence): readonly GateTry[] | null {
  const tries = e.tries('unthrottled', 'cause');
  return tries.length > 0 ? tries : null;
}

/** Its tries at each factor above the reference, with the factor each round got. */
const levelsOf = (e: TestEvidence): FactorTries[] =>
  e.rounds('higher').map((r) => ({ factor: r.got ?? r.asked, asked: r.asked, tries: r.tries }));

function toGateTestInput(options: GateRunOptions, t: GateTarget, result: GateTestResult): GateTestInput {
  const s = t.selected;
  return {
    file: s.test.file,
    fullName: s.test.fullName,
    line: s.test.line,
    project: t.project,
    selection: s.kind,
    previous: s.previous ? { file: s.previous.file, fullName: s.previous.fullName } : null,
    ...(s.kind === 'affected' ? { affectedBy: options.affectedBy.get(s.test.file) ?? [] } : {}),
    result,
  };
}
