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
  const failedSeeds = new Set(reference.filter((t) => failedTry(t) && t.seed !== undefined).map((t) => t.seed));
  const replays = unthrottled.filter(
    (t) => t.cold === false && t.state !== 'skipped' && t.seed !== undefined && failedSeeds.has(t.seed),
  );
  const again = countFailures(replays);
  return again.trials >= 2 && again.failures === again.trials ? again : null;
}
