/**
 * The gate's tries without slowdown or load, one at a time, for tests that failed a reference try
 * (a must-have check): failed every reference try and passes here: load-sensitive (flaky, cause
 * timing); fails here too: failing; failed some: the rate here tells timing from randomness
 * (core/gate/gate-cause.ts).
 */
import { plural } from '../../core/budget/budget-text.js';
import { runTestsRepeatedly, type TriesOutcome } from '../../io/vitest/vitest-tries.js';
import type { GatePhase } from './gate-run-options.js';
import type { GateTarget } from './gate-targets.js';

export async function runIdleTries(
  phase: GatePhase,
  tests: readonly GateTarget[],
  tries: number,
  why: string,
): Promise<TriesOutcome | null> {
  const { options } = phase;
  if (tests.length === 0 || tries < 1 || !phase.inTime()) return null;
  options.onStep(
    `run: ${plural(tests.length, 'test')} ${why}, ${plural(tries, 'try', 'tries')} each without slowdown or load, one at a time`,
  );
  return runTestsRepeatedly({
    root: options.root,
    setup: options.setup,
    tests,
    tries,
    serial: true,
    // The machine's own load must not slow the tries that check x1: the highest CPU weight it allows.
    unslowed: true,
    deadline: phase.deadline(),
    signal: options.signal,
    onProgress: phase.progress('without load'),
  });
}
