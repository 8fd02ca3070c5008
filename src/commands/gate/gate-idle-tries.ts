/**
 * The gate's check for load sensitivity: a test that failed a loaded try gets cold tries again
 * without slowdown or load, one try at a time (failed every loaded try and passes there:
 * load-sensitive; fails either way: really failing; flaky: the unthrottled rate tells timing from
 * randomness, core/gate/gate-cause.ts).
 */
import { plural } from '../../core/budget/budget-text.js';
import { runTestsRepeatedly, type TriesOutcome } from '../../io/vitest/vitest-tries.js';
import type { GatePhase } from './gate-run-options.js';
import type { GateTarget, TriesOf } from './gate-targets.js';

export async function runIdleTries(
  phase: GatePhase,
  targets: readonly GateTarget[],
  triesOf: TriesOf,
  loaded: boolean,
): Promise<TriesOutcome | null> {
  const { options } = phase;
  const allFailed = loaded
    ? targets.filter((t) => {
        const r = triesOf.get(t);
        // Every try failed: load-sensitive or failing? Some failed: is the slowdown what fails it (core/cause)?
        return r?.found === true && r.tries.some((x) => x.state === 'failed');
      })
    : [];
  if (allFailed.length === 0 || !phase.inTime()) return null;
  options.onStep(
    `run: ${plural(allFailed.length, 'test')} that failed a try, again without slowdown or load, one try at a time`,
  );
  return runTestsRepeatedly({
    root: options.root,
    setup: options.setup,
    tests: allFailed,
    tries: options.tries,
    serial: true,
    deadline: options.deadline,
    signal: options.signal,
    onProgress: phase.progress('without load'),
  });
}
