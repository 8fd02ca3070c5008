/**
 * The gate's tries without slowdown or load, one at a time, for tests that failed a reference try
 * (a must-have check): failed every reference try and passes here: load-sensitive (flaky, cause
 * timing); fails here too: failing; failed some: the rate here tells timing from randomness
 * (core/gate/gate-cause.ts). A test that failed every reference try gets cold tries only (what CI
 * sees decides between failing and load-sensitive); a flaky one gets one cold try, then, where it
 * costs little next to its file, warm repeats up to `maxTries` (a random flake fails there too).
 */
import { plural } from '../../core/budget/budget-text.js';
import { runTestsRepeatedly, type TriesOutcome } from '../../io/vitest/vitest-tries.js';
import type { GatePhase } from './gate-run-options.js';
import type { GateTarget } from './gate-targets.js';

/** Warm tries beyond the cold one: how many, and the wall time they may take. */
export interface IdleWarm {
  readonly maxTries: number;
  readonly budgetMs: number;
}

export async function runIdleTries(
  phase: GatePhase,
  tests: readonly GateTarget[],
  tries: number,
  why: string,
  warm: IdleWarm | null = null,
): Promise<TriesOutcome | null> {
  const { options } = phase;
  if (tests.length === 0 || tries < 1 || !phase.inTime()) return null;
  const how = warm
    ? `1 cold try each, then warm repeats up to ${warm.maxTries} where cheap (at least ${tries} in all)`
    : `${plural(tries, 'try', 'tries')} each`;
  options.onStep(`run: ${plural(tests.length, 'test')} ${why}, ${how} without slowdown or load, one at a time`);
  return runTestsRepeatedly({
    root: options.root,
    setup: options.setup,
    session: options.session,
    tests,
    tries,
    ...(warm ? { warm: true, coldTries: 1, maxTries: Math.max(tries, warm.maxTries), budgetMs: warm.budgetMs } : {}),
    serial: true,
    // The machine's own load must not slow the tries that check x1: the highest CPU weight it allows.
    unslowed: true,
    deadline: phase.deadline(),
    signal: options.signal,
    onProgress: phase.progress('without load'),
  });
}
