/**
 * Paired seeds: the tries without slowdown of a flaky test replay its reference tries' seeds in
 * their first warm repeats, so a failure that its seeded draws make (`Math.random`, `crypto`,
 * runner/try-seeding.ts) shows as one: it fails again at the same seed without slowdown, where a
 * timing failure passes and a cold-start one passes warm. gate-cause.ts reads it as the
 * `same-seed` rule, before the rules that compare counts: by chance a 1-in-5 flake's 5 reference
 * tries fail more often than its 30 tries without slowdown in about 1 gate of 20 (simulated), which
 * `slowdown-factor` and `cold-vs-warm` would call timing or cold start. Pure.
 */

import type { FailureCount } from '../fisher-exact.js';
import { countFailures, failedTry } from './factor-evidence.js';
import type { GateTry } from './runner-protocol.js';

/**
 * The seeds of a round's first tries in a worker that replay `reference`'s draws: none for the
 * first (cold) try, then each failed try's seed, then each passed one's, once each. Empty when no
 * failed try has a seed.
 */
export function pairedSeeds(reference: readonly GateTry[]): (number | null)[] {
  const seeds = (pick: (t: GateTry) => boolean): number[] =>
    reference.filter((t) => pick(t) && t.seed !== undefined).map((t) => t.seed as number);
  const failed = seeds(failedTry);
  return failed.length === 0 ? [] : [null, ...new Set([...failed, ...seeds((t) => t.state === 'passed')])];
}

/**
 * The warm tries without slowdown that replayed a failed reference try's seed, when there are at
 * least two and every one failed again; else null. A failure the seed does not control (a counter,
 * a race) fails again only at its own rate, so two of two is rare for it, and it is random all the
 * same.
 */
export function sameSeedAgain(reference: readonly GateTry[], unthrottled: readonly GateTry[]): FailureCount | null {
  const again = countFailures(seedReplays(reference, unthrottled));
  return again.trials >= 2 && again.failures === again.trials ? again : null;
}

/** The warm tries without slowdown whose seed is a failed reference try's. */
function seedReplays(reference: readonly GateTry[], unthrottled: readonly GateTry[]): GateTry[] {
  const failedSeeds = new Set(reference.filter((t) => failedTry(t) && t.seed !== undefined).map((t) => t.seed));
  return unthrottled.filter(
    (t) => t.cold === false && t.state !== 'skipped' && t.seed !== undefined && failedSeeds.has(t.seed),
  );
}

/**
 * The warm tries without slowdown that replayed a failed reference try's seed, when at least one
 * of them passed: the same seeded draws both failed and passed the test, so its `Math.random`
 * draws (which the gate seeds in every try) do not decide it; else null.
 */
export function seedDidNotDecide(reference: readonly GateTry[], unthrottled: readonly GateTry[]): FailureCount | null {
  const again = countFailures(seedReplays(reference, unthrottled));
  return again.trials > again.failures ? again : null;
}

/** What a random-or-concurrency finding says when its failed seeds passed on replay, and the fix it gets instead of "seed it". */
export const SEED_DID_NOT_DECIDE = {
  text: (again: FailureCount, factor: string): string =>
    `the seeds of tries that failed at ${factor} failed ${again.failures} of ${again.trials} replays without slowdown: the same draws passed it, so its Math.random draws (seeded in every try) do not decide it`,
  fix: (at: string): string =>
    `seeding Math.random will not fix it: find what differs between tries with the same seed (state outside the test: a file an earlier try wrote, the clock, another process; a random source the gate does not seed: node:crypto without --seed-node-crypto, a generator of its own; a promise not awaited) and reset or inject it, at ${at}`,
};
