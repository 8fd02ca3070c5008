/**
 * Fisher's exact test, one-sided: are failures more frequent in group B (tries at the higher
 * slowdown factors) than in group A (tries at the reference)? Conditional on the margins (n = a.trials
 * + b.trials tries, k = a.failures + b.failures failures), the failures that land in B follow the
 * hypergeometric law; the p-value is the chance of at least as many in B when the factor changes
 * nothing:
 *
 *   p = sum_{x = b.failures}^{min(b.trials, k)} C(b.trials, x) C(a.trials, k - x) / C(n, k)
 *
 * Source: R. A. Fisher, Statistical Methods for Research Workers (1925), section 21.02; Agresti,
 * Categorical Data Analysis (3rd ed., 2013), section 3.5.1. Bounds: p in (0, 1]; p = 1 when B has no
 * failure; the sum is done in log space, exact to ~1e-12 relative for tries in the thousands.
 */

/** Failures among trials: a gate's tries (core/gate) or a test's stored suite runs (core/cause/history-cause.ts). */
export interface FailureCount {
  readonly failures: number;
  readonly trials: number;
}

/** log C(n, k), summed term by term (n is a count of tries: small). */
function logChoose(n: number, k: number): number {
  const m = Math.min(k, n - k);
  let s = 0;
  for (let i = 1; i <= m; i += 1) s += Math.log(n - m + i) - Math.log(i);
  return s;
}

function checkCount(name: string, c: FailureCount): void {
  if (!Number.isInteger(c.trials) || c.trials < 0)
    throw new RangeError(`${name}.trials must be an integer >= 0, got ${c.trials}`);
  if (!Number.isInteger(c.failures) || c.failures < 0 || c.failures > c.trials) {
    throw new RangeError(`${name}.failures must be an integer in 0..${c.trials}, got ${c.failures}`);
  }
}

/** One-sided p-value that B fails more often than A (H1: rate(B) > rate(A)). */
export function fisherOneSidedP(a: FailureCount, b: FailureCount): number {
  checkCount('a', a);
  checkCount('b', b);
  const n = a.trials + b.trials;
  const k = a.failures + b.failures;
  if (b.failures === 0) return 1;
  const denominator = logChoose(n, k);
  let p = 0;
  for (let x = b.failures; x <= Math.min(b.trials, k); x += 1) {
    if (k - x > a.trials) continue;
    p += Math.exp(logChoose(b.trials, x) + logChoose(a.trials, k - x) - denominator);
  }
  return Math.min(1, p);
}

/** "p = 0.022" (two significant figures; "p < 0.001" below that). */
export function formatPValue(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${Number(p.toPrecision(2))}`;
}

/** One stratum of a stratified test: tries under one set of conditions (one check's factor). */
export interface FailureStratum {
  readonly a: FailureCount;
  readonly b: FailureCount;
}

/**
 * Fisher's test within strata, one-sided: do B's tries fail more often than A's under the same
 * conditions? Each stratum is a 2x2 table (A and B tries under one condition, a check's factor);
 * conditional on every stratum's margins, its B failures follow its own hypergeometric law, and the
 * statistic is their sum over the strata. The p-value is the chance of at least the observed sum
 * when B and A fail alike in every stratum (the exact conditional test of a common odds ratio of 1).
 * A stratum without A tries or without B tries tells nothing (its B failures are fixed by its
 * margins): a gap between groups that ran under different conditions is never counted as a gap
 * between the groups. One stratum gives fisherOneSidedP.
 *
 * Source: Agresti, Categorical Data Analysis (3rd ed., 2013), section 6.7.5 (exact conditional test
 * for 2x2xK tables); Mehta, Patel and Gray, JASA 80 (1985) 969-973. The sum's law is the
 * convolution of the strata's hypergeometric laws (B's trials bound its support: small).
 */
export function stratifiedFisherOneSidedP(strata: readonly FailureStratum[]): number {
  let law = [1];
  let observed = 0;
  for (const [i, s] of strata.entries()) {
    checkCount(`strata[${i}].a`, s.a);
    checkCount(`strata[${i}].b`, s.b);
    observed += s.b.failures;
    law = convolve(law, hypergeometricLaw(s));
  }
  if (observed === 0) return 1;
  let p = 0;
  for (let x = observed; x < law.length; x += 1) p += law[x] ?? 0;
  return Math.min(1, p);
}

/** P(B has x of the stratum's failures), x = 0..min(b.trials, k), given its margins. */
function hypergeometricLaw({ a, b }: FailureStratum): number[] {
  const k = a.failures + b.failures;
  const denominator = logChoose(a.trials + b.trials, k);
  const law: number[] = [];
  for (let x = 0; x <= Math.min(b.trials, k); x += 1)
    law.push(k - x > a.trials ? 0 : Math.exp(logChoose(b.trials, x) + logChoose(a.trials, k - x) - denominator));
  return law;
}

function convolve(p: readonly number[], q: readonly number[]): number[] {
  const out = new Array<number>(p.length + q.length - 1).fill(0);
  for (const [i, pi] of p.entries()) for (const [j, qj] of q.entries()) out[i + j] = (out[i + j] ?? 0) + pi * qj;
  return out;
}
