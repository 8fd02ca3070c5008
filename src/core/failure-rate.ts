/**
 * An honest bound on a test's failure rate from a handful of tries: the exact (Clopper-Pearson)
 * one-sided upper confidence bound of a binomial proportion. Five passes out of five only say the
 * failure rate is below 45.1% at 95% confidence, not that the test is not flaky.
 */

import { gammaln } from 'simple-statistics';

export interface FailureRateBound {
  readonly failures: number;
  readonly runs: number;
  /** Observed failures / runs. */
  readonly observed: number;
  /** One-sided upper bound at `confidence`, in [0, 1]. */
  readonly upper: number;
  readonly confidence: number;
}

/**
 * log P(X <= k) for X ~ Binomial(n, p), summed in log space so large n does not underflow: the
 * terms are walked twice (for their largest, then for the sum), not kept: a flaky test's hundreds
 * of failures times the bisection's 60 steps allocated megabytes a report.
 */
export function logBinomialCdf(k: number, n: number, p: number): number {
  if (p <= 0) return 0;
  if (p >= 1) return k >= n ? 0 : Number.NEGATIVE_INFINITY;
  const logRatio = Math.log(p) - Math.log1p(-p);
  const first = n * Math.log1p(-p);
  let logTerm = first;
  let max = logTerm;
  for (let i = 0; i < k; i += 1) {
    logTerm += Math.log((n - i) / (i + 1)) + logRatio;
    if (logTerm > max) max = logTerm;
  }
  logTerm = first;
  let sum = Math.exp(logTerm - max);
  for (let i = 0; i < k; i += 1) {
    logTerm += Math.log((n - i) / (i + 1)) + logRatio;
    sum += Math.exp(logTerm - max);
  }
  return max + Math.log(sum);
}

/**
 * A term this far (in log) below the largest adds less than 1e-26 of the sum: nothing a double
 * holds (its precision is 2.2e-16), however many terms there are (below 1e10).
 */
const NEGLIGIBLE_LOG = 60;

/** log C(n, i). */
const logChoose = (n: number, i: number): number => gammaln(n + 1) - gammaln(i + 1) - gammaln(n - i + 1);

/**
 * For X ~ Binomial(n, p), p in (0, 1) and k < n: log P(X <= k), and the log of its slope's size,
 * -d/dp P(X <= k) = n C(n-1, k) p^k (1-p)^(n-1-k), for the root finding below. Only the terms that
 * count are summed: they are log-concave in i (as the binomial's are), largest at the mode
 * floor((n + 1) p), or at k when the mode is past it, and fall away on both sides; the sum walks out
 * from there (each coefficient from its neighbour's) until they are NEGLIGIBLE_LOG below. About
 * 20 standard deviations of terms, not k + 1: a quarantine proposal's lower bound counts the
 * passing runs, thousands in a month of a team's runs, which summed whole at each of 45 bisection
 * steps took 450 ms for 200 tests (issue 38).
 */
function binomialTailAt(k: number, n: number, p: number): { readonly logCdf: number; readonly logSlope: number } {
  const logP = Math.log(p);
  const logQ = Math.log1p(-p);
  const top = Math.min(k, Math.max(0, Math.floor((n + 1) * p)));
  const topChoose = logChoose(n, top);
  const topTerm = topChoose + top * logP + (n - top) * logQ;
  // The terms' largest is at top (or a neighbour, where (n + 1) p is whole): the scale of the sum.
  const max = Math.max(topTerm, topTerm + Math.log(top / (n - top + 1)) - logP + logQ);
  let sum = 0;
  let choose = topChoose;
  for (let i = top; i >= 0; i -= 1) {
    const t = choose + i * logP + (n - i) * logQ - max;
    if (t < -NEGLIGIBLE_LOG) break;
    sum += Math.exp(t);
    choose += Math.log(i / (n - i + 1));
  }
  choose = topChoose;
  for (let i = top + 1; i <= k; i += 1) {
    choose += Math.log((n - i + 1) / i);
    const t = choose + i * logP + (n - i) * logQ - max;
    if (t < -NEGLIGIBLE_LOG) break;
    sum += Math.exp(t);
  }
  const logCdf = max + Math.log(sum);
  const logSlope = Math.log(n) + logChoose(n - 1, k) + k * logP + (n - 1 - k) * logQ;
  return { logCdf, logSlope };
}

/** Newton steps shorter than this have converged: the next is pushed past the root by BRACKET_PUSH. */
const CONVERGED = 2.5e-13;
const BRACKET_PUSH = 5e-13;

/**
 * The largest failure rate p for which seeing at most `failures` in `runs` still has probability
 * >= 1 - confidence: the root of log P(X <= failures) - log(1 - confidence), which falls as p grows.
 * Newton's steps inside a bracket that always holds the root (a bisection step where a step would
 * leave it), until the bracket is 1e-12 wide: its upper end, never below the root. About 8 steps.
 */
export function failureRateUpperBound(failures: number, runs: number, confidence = 0.95): FailureRateBound {
  if (!Number.isInteger(runs) || runs < 1) throw new RangeError(`runs must be a positive integer, got ${runs}`);
  if (!Number.isInteger(failures) || failures < 0 || failures > runs) {
    throw new RangeError(`failures must be an integer in 0..${runs}, got ${failures}`);
  }
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  const observed = failures / runs;
  if (failures === runs) return { failures, runs, observed, upper: 1, confidence };
  const target = Math.log(1 - confidence);
  let lo = observed;
  let hi = 1;
  let p = (lo + hi) / 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i += 1) {
    const { logCdf, logSlope } = binomialTailAt(failures, runs, p);
    const f = logCdf - target;
    if (f > 0) lo = p;
    else hi = p;
    // d/dp log P = -exp(logSlope - logCdf): Newton's step is f / that.
    const step = f * Math.exp(logCdf - logSlope);
    let next = p + step;
    if (Math.abs(step) < CONVERGED) next = p + Math.sign(step) * (Math.abs(step) + BRACKET_PUSH);
    p = next > lo && next < hi ? next : (lo + hi) / 2;
  }
  return { failures, runs, observed, upper: hi, confidence };
}

/** Percent rounded up to 0.1 so the wording never claims more than the bound: 0.4507 -> "45.1%". */
export function formatRatePercent(rate: number): string {
  const tenths = Math.ceil(rate * 1000 - 1e-9) / 10;
  return `${Number.isInteger(tenths) ? tenths.toFixed(0) : tenths.toFixed(1)}%`;
}

/** "5/5 passed: failure rate below 45.1% at 95% confidence". */
export function describeFailureRate(bound: FailureRateBound): string {
  const passes = bound.runs - bound.failures;
  const level = `${Math.round(bound.confidence * 100)}%`;
  if (bound.upper >= 1)
    return `${passes}/${bound.runs} passed: failure rate not bounded below 100% at ${level} confidence`;
  return `${passes}/${bound.runs} passed: failure rate below ${formatRatePercent(bound.upper)} at ${level} confidence`;
}
