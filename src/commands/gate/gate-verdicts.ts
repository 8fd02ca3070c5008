/**
 * Each target's verdict from all of its tries (core/gate/gate-verdict.ts): loaded, without load and
 * alone, then where it broke above the reference (core/gate/breaking-point.ts), as the input of
 * the gate report.
 */
import { applyBreakingPoint } from '../../core/gate/breaking-point.js';
import type { GateTestInput } from '../../core/gate/gate-report-test.js';
import { decideGateVerdict, type GateTestResult } from '../../core/gate/gate-verdict.js';
import type { RunsOutcome } from '../../io/vitest/vitest-runs.js';
import type { AloneTries } from './gate-alone-tries.js';
import type { HigherFactors } from './gate-escalate.js';
import type { LoadedTries } from './gate-loaded-tries.js';
import type { GateRunOptions } from './gate-run-options.js';
import { findTries, type GateTarget, type TriesOf, toGateTries } from './gate-targets.js';

/** The outcomes of every phase of the gate's runs. */
export interface GateOutcomes {
  readonly main: LoadedTries;
  readonly triesOf: TriesOf;
  readonly higher: HigherFactors<GateTarget>;
  readonly idle: RunsOutcome | null;
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
  return targets.map((t) => toGateTestInput(options, t, decideTargetVerdict(options, t, outcomes, moduleErrors)));
}

function decideTargetVerdict(
  options: GateRunOptions,
  t: GateTarget,
  outcomes: GateOutcomes,
  moduleErrors: RunsOutcome['moduleErrors'],
): GateTestResult {
  const r = outcomes.triesOf.get(t);
  const aloneTries = [
    ...toGateTries(findTries(t, outcomes.alone.alone)),
    ...toGateTries(findTries(t, outcomes.alone.again)),
  ];
  const idleRun = findTries(t, outcomes.idle);
  const moduleError = moduleErrors.find(
    (m) => m.file === t.selected.test.file && (t.project === null || m.project === t.project),
  )?.message;
  const decided = decideGateVerdict({
    tries: r?.found ? toGateTries(r) : [],
    loaded: outcomes.main.loaded,
    condition: outcomes.main.condition,
    idle: idleRun ? toGateTries(idleRun) : null,
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
    { ...outcomes.reference, tries: r?.found ? toGateTries(r) : [] },
    outcomes.higher.levels.get(t) ?? [],
    outcomes.higher.confirm.get(t) ?? [],
  );
}

function toGateTestInput(options: GateRunOptions, t: GateTarget, result: GateTestResult): GateTestInput {
  const s = t.selected;
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
}
