/**
 * The gate's nice-to-have checks, made only after every must-have one and only with the time left
 * (gate-run.ts; the extra reference tries are the reference call's warm repeats): (d) the tries without slowdown a verdict or cause still needs: again for a test whose tries
 * there the busy machine slowed (they did not count), for a test whose first failure came in the
 * extra tries, and more for a flaky test whose tries so far do not tell timing from randomness.
 * Where the break is (gate-escalate.ts) comes after these.
 */

import { CAUSE_ALPHA } from '../../core/cause/cause.js';
import { fisherOneSidedP } from '../../core/fisher-exact.js';
import { countFailures } from '../../core/gate/factor-evidence.js';
import { countsAtFactorOne } from '../../core/gate/gate-evidence.js';
import type { GateTry } from '../../core/gate/runner-protocol.js';
import type { FittedBudget } from './gate-budget-fit.js';
import { runIdleTries } from './gate-idle-tries.js';
import type { LoadedTries } from './gate-loaded-tries.js';
import type { GatePhase } from './gate-run-options.js';
import { addTries, type findTries, type GateTarget, type TryMap, triesIn } from './gate-targets.js';

/** More tries without slowdown a flaky test's cause gets at most: one cold, the rest warm where it is cheap. */
const CAUSE_MAX_TRIES = 30;

export interface NiceToHaveState {
  readonly main: LoadedTries;
  /** Each target's reference tries: the extra ones are added here. */
  readonly triesOf: Map<GateTarget, ReturnType<typeof findTries>>;
  /** Each target's tries without slowdown: the cause's are added here. */
  readonly idleOf: TryMap;
  readonly fit: FittedBudget;
}

export async function runNiceToHaves(
  phase: GatePhase,
  targets: readonly GateTarget[],
  state: NiceToHaveState,
): Promise<{ cut: boolean; loadedWallMs: number }> {
  if (!state.main.loaded) return { cut: false, loadedWallMs: 0 };
  const cut = await runCauseTries(phase, targets, state);
  return { cut, loadedWallMs: 0 };
}

/** (d) The tries without slowdown a verdict or its cause still needs; true when the deadline cut them. */
async function runCauseTries(
  phase: GatePhase,
  targets: readonly GateTarget[],
  state: NiceToHaveState,
): Promise<boolean> {
  const { options } = phase;
  // Tries without slowdown that failed while the busy machine slowed them above OFF_FACTOR do not
  // count (core/gate/gate-evidence.ts): a test that failed every reference try gets them again.
  const slowed = targets.filter((t) => {
    const ref = triesIn(state.triesOf.get(t));
    const idle = state.idleOf.get(t) ?? [];
    return (
      ref.length > 0 &&
      countFailures(ref).failures === ref.length &&
      idle.length > 0 &&
      countsAtFactorOne(idle).length < options.tries
    );
  });
  const why = 'whose tries without slowdown the busy machine slowed (they did not count)';
  const again = await runIdleTries(phase, slowed, options.tries, why);
  addTries(state.idleOf, slowed, again);
  const fresh = targets.filter(
    (t) => failedIn(triesIn(state.triesOf.get(t))) && (state.idleOf.get(t)?.length ?? 0) === 0,
  );
  const first = await runIdleTries(phase, fresh, options.tries, 'whose first failure came in the extra tries');
  addTries(state.idleOf, fresh, first);
  const extra = Math.min(options.maxTries, CAUSE_MAX_TRIES);
  const undecided = targets.filter((t) =>
    causeUndecided(triesIn(state.triesOf.get(t)), countsAtFactorOne(state.idleOf.get(t) ?? []), extra),
  );
  const more = await runIdleTries(
    phase,
    undecided,
    options.tries,
    'whose tries so far do not tell timing from randomness',
    {
      maxTries: extra,
      budgetMs: Math.max(0, (phase.deadline() - performance.now()) / 2),
    },
  );
  addTries(state.idleOf, undecided, more);
  return [again, first, more].some((o) => o?.cutShort === 'deadline');
}

const failedIn = (tries: readonly GateTry[]): boolean => countFailures(tries).failures > 0;

/**
 * Flaky at the reference, passed every try without slowdown, and the two rates not significantly
 * apart: neither timing (needs fewer failures without) nor randomness (needs failures without)
 * shows yet. Only while `more` passes could still make the gap significant: a test that failed 1
 * of 60 reference tries needs over a thousand passes without slowdown to show timing, so its tries
 * here would be spent for nothing (its cause stays undecided, said as such).
 */
export function causeUndecided(reference: readonly GateTry[], idle: readonly GateTry[], more: number): boolean {
  const ref = countFailures(reference);
  const without = countFailures(idle);
  if (without.trials === 0 || without.failures > 0 || ref.failures === 0 || ref.failures === ref.trials) return false;
  if (fisherOneSidedP(without, ref) < CAUSE_ALPHA) return false;
  return fisherOneSidedP({ trials: without.trials + more, failures: 0 }, ref) < CAUSE_ALPHA;
}
