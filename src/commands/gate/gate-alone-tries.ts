/**
 * The gate's check for order dependence (a must-have check for every new test that passed every
 * reference try): the test once alone (only it from its file, by its line, a fresh worker); a
 * failure there gets two more alone tries (failing every time alone is order dependence; passing
 * some of them is a flake).
 */
import { plural } from '../../core/budget/budget-text.js';
import { ALONE_AGAIN_TRIES, ALONE_TRIES } from '../../core/gate/gate-evidence.js';
import { runTestsAlone, type TriesOutcome } from '../../io/vitest/vitest-tries.js';
import type { GatePhase } from './gate-run-options.js';
import { findTries, type GateTarget } from './gate-targets.js';

export interface AloneTries {
  /** The one alone try of each new test that passed with its file, or null when none ran. */
  readonly alone: TriesOutcome | null;
  /** The two more alone tries of those that failed alone, or null. */
  readonly again: TriesOutcome | null;
}

export async function runAloneTries(phase: GatePhase, aloneTargets: readonly GateTarget[]): Promise<AloneTries> {
  const { options, progress } = phase;
  const run = () => ({
    root: options.root,
    setup: options.setup,
    session: options.session,
    deadline: phase.deadline(),
    signal: options.signal,
  });
  let alone: TriesOutcome | null = null;
  if (aloneTargets.length > 0 && phase.inTime()) {
    options.onStep(`run: ${plural(aloneTargets.length, 'new test')} once alone (order dependence)`);
    alone = await runTestsAlone({ ...run(), tests: aloneTargets, tries: ALONE_TRIES, onProgress: progress('alone') });
  }
  const failedAlone = aloneTargets.filter((t) =>
    findTries(t, alone)?.tries.some((x) => x.state !== 'passed' && x.state !== 'skipped'),
  );
  let again: TriesOutcome | null = null;
  if (failedAlone.length > 0 && phase.inTime()) {
    options.onStep(`run: ${plural(failedAlone.length, 'test')} that failed alone, alone twice more`);
    again = await runTestsAlone({
      ...run(),
      tests: failedAlone,
      tries: ALONE_AGAIN_TRIES,
      onProgress: progress('alone again'),
    });
  }
  return { alone, again };
}
