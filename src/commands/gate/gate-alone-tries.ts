/**
 * The gate's check for order dependence: a new test that passed every try with its file runs once
 * alone; a failure there gets two more alone tries (failing every time alone is order dependence;
 * passing some of them is plain flakiness).
 */
import { plural } from '../../core/budget/budget-text.js';
import { runTestsAlone, type TriesOutcome } from '../../io/vitest/vitest-tries.js';
import type { GatePhase } from './gate-run-options.js';
import { findTries, type GateTarget, type TriesOf } from './gate-targets.js';

export interface AloneTries {
  /** The one alone try of each new test that passed with its file, or null when none ran. */
  readonly alone: TriesOutcome | null;
  /** The two more alone tries of those that failed alone, or null. */
  readonly again: TriesOutcome | null;
}

export async function runAloneTries(
  phase: GatePhase,
  targets: readonly GateTarget[],
  triesOf: TriesOf,
): Promise<AloneTries> {
  const { options, progress } = phase;
  const run = { root: options.root, setup: options.setup, deadline: options.deadline, signal: options.signal };
  const aloneTargets = targets.filter((t) => {
    const r = triesOf.get(t);
    return t.selected.kind === 'new' && r !== undefined && r.found && r.tries.every((x) => x.state === 'passed');
  });
  let alone: TriesOutcome | null = null;
  if (aloneTargets.length > 0 && phase.inTime()) {
    options.onStep(`run: ${plural(aloneTargets.length, 'new test')} once alone (order dependence)`);
    alone = await runTestsAlone({ ...run, tests: aloneTargets, tries: 1, onProgress: progress('alone') });
  }
  const failedAlone = aloneTargets.filter((t) => findTries(t, alone)?.tries.some((x) => x.state === 'failed'));
  let again: TriesOutcome | null = null;
  if (failedAlone.length > 0 && phase.inTime()) {
    options.onStep(`run: ${plural(failedAlone.length, 'test')} that failed alone, alone twice more`);
    again = await runTestsAlone({ ...run, tests: failedAlone, tries: 2, onProgress: progress('alone again') });
  }
  return { alone, again };
}
