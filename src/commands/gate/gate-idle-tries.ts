/**
 * The gate's check for load sensitivity: a test that failed every loaded try gets cold tries again
 * without slowdown or load, one try at a time (passing there: load-sensitive; failing: really failing).
 */
import { plural } from '../../core/budget/budget-text.js';
import { type RunsOutcome, runTestsRepeatedly } from '../../io/vitest/vitest-runs.js';
import type { GatePhase } from './gate-run-options.js';
import type { GateTarget, TriesOf } from './gate-targets.js';

export async function runIdleTries(
  phase: GatePhase,
  targets: readonly GateTarget[],
  triesOf: TriesOf,
  loaded: boolean,
): Promise<RunsOutcome | null> {
  const { options } = phase;
  const allFailed = loaded
    ? targets.filter((t) => {
        const r = triesOf.get(t);
        return r?.found === true && r.tries.every((x) => x.state === 'failed');
      })
    : [];
  if (allFailed.length === 0 || !phase.inTime()) return null;
  options.onStep(
    `run: ${plural(allFailed.length, 'test')} that failed every try, again without slowdown or load, one try at a time`,
  );
  return runTestsRepeatedly({
    root: options.root,
    setup: options.setup,
    tests: allFailed,
    runs: options.runs,
    serial: true,
    deadline: options.deadline,
    signal: options.signal,
    onProgress: phase.progress('without load'),
  });
}
