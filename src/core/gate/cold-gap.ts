/**
 * The cold/warm gap of a test's tries (the cause rule `cold-vs-warm`, core/gate/gate-cause.ts):
 * its cold tries (first in a fresh worker) against its warm ones, within each check and pooled
 * over all (core/fisher-exact.ts). Pure.
 */
import type { CauseClass, CauseEvidence } from '../cause/cause.js';
import { type FailureCount, fisherOneSidedP, formatPValue, stratifiedFisherOneSidedP } from '../fisher-exact.js';
import { addCounts, countFailures } from './factor-evidence.js';
import type { GateTry } from './runner-protocol.js';

/**
 * Below this a cold/warm gap is cold start, not chance. Stricter than CAUSE_ALPHA: a random flake's
 * failures split between its few cold tries (5-7) and its many warm ones by chance, and at 0.05 one
 * random flake in 50 came out `cold-start` (simulated: 5-7 cold, 28-143 warm tries, rates 1 in 10
 * to 4 in 10; test/core/gate/gate-cause.test.ts), at 0.01 one in 300. A cold-start race fails
 * (nearly) every cold try and no warm one: 3 of 6 cold against 0 of 29 warm is p = 0.003.
 */
const COLD_ALPHA = 0.01;

interface ColdGap {
  /** Cold and warm tries of the checks that had both. */
  readonly cold: FailureCount;
  readonly warm: FailureCount;
  /** Cold against warm within each check (coldRule decides on it), and pooled over every try. */
  readonly within: number;
  readonly pooled: number;
  readonly checks: number;
}

/** A test's tries by the check they ran in, as the cold/warm comparison reads them. */
export interface CheckTries {
  /** The reference tries with its confirm tries (the same factor). */
  readonly reference: readonly GateTry[];
  /** Each factor above the reference. */
  readonly higher: readonly (readonly GateTry[])[];
  readonly unthrottled: readonly GateTry[];
  readonly alone: readonly GateTry[];
}

/** The cold/warm gap of a test's tries, each check's tries one stratum. */
function coldGap(c: CheckTries): ColdGap {
  const tables = [c.reference, ...c.higher, c.unthrottled, c.alone].map((tries) => ({
    a: countFailures(tries.filter((t) => t.cold !== true)),
    b: countFailures(tries.filter((t) => t.cold === true)),
  }));
  const paired = tables.filter((s) => s.a.trials > 0 && s.b.trials > 0);
  const sum = (counts: readonly FailureCount[]): FailureCount => counts.reduce(addCounts, { failures: 0, trials: 0 });
  return {
    cold: sum(paired.map((s) => s.b)),
    warm: sum(paired.map((s) => s.a)),
    within: stratifiedFisherOneSidedP(paired),
    pooled: fisherOneSidedP(sum(tables.map((s) => s.a)), sum(tables.map((s) => s.b))),
    checks: paired.length,
  };
}

/**
 * Its cold tries failed significantly more than its warm ones only when tries of different checks
 * are pooled (a cold try at one factor against warm ones at another): the cause row's cold round
 * tries it cold without slowdown, where its warm tries ran, to tell a cold start from a slowdown.
 */
export function coldGapAcrossChecksOnly(tries: CheckTries): boolean {
  const gap = coldGap(tries);
  return gap.pooled < COLD_ALPHA && gap.within >= COLD_ALPHA;
}

/** Cold tries without slowdown that let the within-check test tell a cold start from the slowdown (the cold round gives --tries). */
const COLD_UNSLOWED_TO_DECIDE = 2;

/**
 * The `cold-vs-warm` rule's finding. Cold start when its cold tries failed significantly more than
 * its warm ones within each check. When they did only pooled across checks and it has not had the
 * cold round's tries without slowdown (the time budget cut it), neither cold start nor the slowdown
 * is measured (every cold failure at one factor, every warm pass at another): `unknown`, saying so,
 * so that the count rules after it do not call it timing or random. Else null.
 */
export function coldFinding(
  tries: CheckTries,
): { class: CauseClass; evidence: CauseEvidence[]; fix?: (at: string) => string } | null {
  const { cold, warm, within, pooled, checks } = coldGap(tries);
  const coldUnslowed = tries.unthrottled.filter((t) => t.cold === true).length;
  const share = (c: FailureCount): string => `${c.failures}/${c.trials}`;
  if (within >= COLD_ALPHA) {
    if (pooled >= COLD_ALPHA || coldUnslowed >= COLD_UNSLOWED_TO_DECIDE) return null;
    const text = `its cold tries failed more than its warm ones only across checks (cold ones slowed, warm ones without slowdown; pooled one-sided Fisher ${formatPValue(pooled)}): a cold start and the slowdown at once, not told apart without its cold tries without slowdown`;
    const fix = (at: string): string =>
      `give the gate the time for its cold tries without slowdown (a larger --time-budget), then read the cause; the test is at ${at}`;
    return { class: 'unknown', evidence: [{ kind: 'cold', text }], fix };
  }
  if (cold.failures === 0 || warm.trials === 0) return null;
  const each = checks > 1 ? ", each check's cold tries against its warm ones" : '';
  const text = `failed ${share(cold)} cold tries (first in a fresh worker), ${share(warm)} warm ones under the same conditions (one-sided Fisher${each} ${formatPValue(within)})`;
  return { class: 'cold-start', evidence: [{ kind: 'cold', text }] };
}
