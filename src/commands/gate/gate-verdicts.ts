/**
 * Each target's verdict from all of its tries (core/gate/gate-verdict.ts): loaded, without load and
 * alone, then where it broke above the reference (core/gate/breaking-point.ts), as the input of
 * the gate report.
 */
import type { CauseFinding } from '../../core/cause/cause.js';
import { applyBreakingPoint } from '../../core/gate/breaking-point.js';
import { findGateCause, needsCause } from '../../core/gate/gate-cause.js';
import type { GateTestInput } from '../../core/gate/gate-report-test.js';
import { decideGateVerdict, type GateTestResult } from '../../core/gate/gate-verdict.js';
import { readSourceSignals } from '../../io/source/source-files.js';
import type { TriesOutcome } from '../../io/vitest/vitest-tries.js';
import type { AloneTries } from './gate-alone-tries.js';
import type { HigherFactors } from './gate-escalate.js';
import type { LoadedTries } from './gate-loaded-tries.js';
import type { GateRunOptions } from './gate-run-options.js';
import { findTries, type GateTarget, type TriesOf, triesIn } from './gate-targets.js';

/** The outcomes of every phase of the gate's tries. */
export interface GateOutcomes {
  readonly main: LoadedTries;
  readonly triesOf: TriesOf;
  readonly higher: HigherFactors<GateTarget>;
  readonly idle: TriesOutcome | null;
  readonly alone: AloneTries;
  /** The factor the loaded tries measurably got (else the one asked), and the one asked. */
  readonly reference: { readonly factor: number; readonly asked: number };
  /** True when the gate reached its deadline: a test not run was cut, not missing. */
  readonly cut: boolean;
}

export function decideTargetVerdicts(
  options: GateRunOptions,
  targets: readonly GateTarget[],
  outcomes: GateOutcomes,
): GateTestInput[] {
  const moduleErrors = [...outcomes.main.outcome.moduleErrors, ...(outcomes.idle?.moduleErrors ?? [])];
  return targets.map((t) => {
    const result = decideTargetVerdict(options, t, outcomes, moduleErrors);
    const before = targets.filter(
      (o) => o.file === t.file && o.project === t.project && o.selected.test.line < t.selected.test.line,
    );
    return { ...toGateTestInput(options, t, result), ...causeOf(options.root, t, result, outcomes, before) };
  });
}

/**
 * Why a flaky, fragile or order-dependent test fails, from all of its tries (core/gate/gate-cause.ts),
 * with the signals in its source as supporting evidence (io/source/source-files.ts).
 */
function causeOf(
  root: string,
  t: GateTarget,
  result: GateTestResult,
  outcomes: GateOutcomes,
  before: readonly GateTarget[],
): { cause?: CauseFinding } {
  if (!needsCause(result.verdict)) return {};
  const r = outcomes.triesOf.get(t);
  const reference = r?.found ? triesIn(r) : [];
  const idle = findTries(t, outcomes.idle);
  const alone = [...triesIn(findTries(t, outcomes.alone.alone)), ...triesIn(findTries(t, outcomes.alone.again))];
  const cause = findGateCause({
    file: t.selected.test.file,
    line: t.selected.test.line,
    verdict: result.verdict,
    reference: { ...outcomes.reference, tries: reference },
    higher: outcomes.higher.levels.get(t) ?? [],
    confirm: outcomes.higher.confirm.get(t) ?? [],
    unthrottled: idle ? triesIn(idle) : null,
    referenceUnthrottled: !outcomes.main.loaded,
    alone: alone.length > 0 ? alone : null,
    before: before.map((b) => b.fullName),
    signals: readSourceSignals(root, t.selected.test),
  });
  return { cause };
}

function decideTargetVerdict(
  options: GateRunOptions,
  t: GateTarget,
  outcomes: GateOutcomes,
  moduleErrors: TriesOutcome['moduleErrors'],
): GateTestResult {
  const r = outcomes.triesOf.get(t);
  const aloneTries = [...triesIn(findTries(t, outcomes.alone.alone)), ...triesIn(findTries(t, outcomes.alone.again))];
  const idleRun = findTries(t, outcomes.idle);
  const moduleError = moduleErrors.find(
    (m) => m.file === t.selected.test.file && (t.project === null || m.project === t.project),
  )?.message;
  const decided = decideGateVerdict({
    tries: r?.found ? triesIn(r) : [],
    loaded: outcomes.main.loaded,
    condition: outcomes.main.condition,
    asked: outcomes.reference.asked,
    idle: idleRun ? triesIn(idleRun) : null,
    alone: aloneTries.length > 0 ? aloneTries : null,
    limit: options.limitFor(t.selected.test),
    warnAt: options.config.budget.warnAt,
    notRunReason:
      moduleError ??
      (outcomes.cut
        ? 'the gate reached its deadline before it ran (raise --time-budget)'
        : 'Vitest did not run it (is its file in the Vitest include, or is it filtered out?)'),
  });
  return applyBreakingPoint(
    decided,
    { ...outcomes.reference, tries: r?.found ? triesIn(r) : [] },
    outcomes.higher.levels.get(t) ?? [],
    outcomes.higher.confirm.get(t) ?? [],
  );
}

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
