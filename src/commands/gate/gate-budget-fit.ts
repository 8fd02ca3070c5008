/**
 * The must-have checks planned from the reference tries' costs (core/gate/check-plan.ts), the time
 * budget fitted to them, and, for a check the budget cut, the --time-budget that would have allowed it.
 */

import {
  type BudgetFit,
  type CheckPlan,
  ESTIMATE_MARGIN,
  fitTimeBudget,
  formatBudget,
  planMustHaveChecks,
} from '../../core/gate/check-plan.js';
import type { MissingCheck } from '../../core/gate/gate-evidence.js';
import { specKey } from '../../core/tuple-key.js';
import type { TriesOutcome } from '../../io/vitest/vitest-tries.js';
import type { GateRunOptions } from './gate-run-options.js';
import type { GateTarget } from './gate-targets.js';

/** The cost of one try of each target's file, from the reference call (its slowest try; else the slowest of any file). */
function costsOf(outcome: TriesOutcome): (t: GateTarget) => number {
  const byFile = new Map(outcome.fileCosts.map((c) => [specKey(c.file, c.project), c.costMs]));
  const fallback = Math.max(1000, ...outcome.fileCosts.map((c) => c.costMs));
  return (t) => byFile.get(specKey(t.file, t.project ?? '')) ?? fallback;
}

/** Tries Vitest ran at once in a call: its tries' worker time over its waves' wall time (at least 1). */
function parallelOf(outcome: TriesOutcome): number {
  const wall = outcome.waves.reduce((s, w) => s + w.wallMs, 0);
  return wall > 0 && outcome.busyMs > 0 ? Math.max(1, outcome.busyMs / wall) : 1;
}

/** What one Vitest call costs beside its tries: the call's wall time less its waves'. */
function startCostOf(outcome: TriesOutcome): number {
  return Math.max(0, outcome.wallMs - outcome.waves.reduce((s, w) => s + w.wallMs, 0));
}

export interface FittedBudget extends BudgetFit {
  readonly plan: CheckPlan;
}

/** The plan of the must-have checks after the reference tries, and the budget that covers them. */
export function fitGateBudget(
  options: GateRunOptions,
  outcome: TriesOutcome,
  unthrottled: readonly GateTarget[],
  alone: readonly GateTarget[],
): FittedBudget {
  const cost = costsOf(outcome);
  const files = new Map<string, { costMs: number; unthrottled: number; alone: number }>();
  const fileOf = (t: GateTarget) => {
    const key = specKey(t.file, t.project ?? null);
    const f = files.get(key) ?? { costMs: cost(t), unthrottled: 0, alone: 0 };
    files.set(key, f);
    return f;
  };
  for (const t of unthrottled) fileOf(t).unthrottled += 1;
  for (const t of alone) fileOf(t).alone += 1;
  const plan = planMustHaveChecks({
    files: [...files.values()],
    minTries: options.tries,
    parallel: parallelOf(outcome),
    startMs: startCostOf(outcome),
  });
  const fit = fitTimeBudget({
    budgetMs: options.timeBudgetMs,
    given: options.timeBudgetGiven,
    elapsedMs: performance.now() - options.started,
    plan,
  });
  return { ...fit, plan };
}

/** The time the checks not made would take: each a try of its file per missing try, with a Vitest start per kind. */
export function missingCostMs(
  missing: readonly { target: GateTarget; check: MissingCheck }[],
  outcome: TriesOutcome,
): number {
  const cost = costsOf(outcome);
  const kinds = new Set(missing.map((m) => m.check.check));
  const tries = missing.reduce((s, m) => s + cost(m.target) * (m.check.needed - m.check.made), 0);
  return Math.ceil((tries + kinds.size * startCostOf(outcome)) * ESTIMATE_MARGIN);
}

/** "cut by the time budget 30s; --time-budget 1m 40s allows it" */
export function describeAllowance(budgetMs: number, neededMs: number): string {
  return `cut by the time budget ${formatBudget(budgetMs)}; --time-budget ${formatBudget(neededMs)} allows it`;
}
