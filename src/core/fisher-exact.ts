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
