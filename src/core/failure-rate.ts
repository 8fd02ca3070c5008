/**
 * An honest bound on a test's failure rate from a handful of tries: the exact (Clopper-Pearson)
 * one-sided upper confidence bound of a binomial proportion. Five passes out of five only say the
 * failure rate is below 45.1% at 95% confidence, not that the test is not flaky.
 */

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
 * log P(X <= k) for X ~ Binomial(n, p) as a function of p in (0, 1), for the bisection below: the
 * terms' log binomial coefficients are summed once, not at each of its 40-60 steps.
 */
function binomialLogCdfAt(k: number, n: number): (p: number) => number {
  const coefficients = new Float64Array(k + 1);
  for (let i = 1; i <= k; i += 1) coefficients[i] = coefficients[i - 1]! + Math.log((n - i + 1) / i);
  return (p) => {
    const logRatio = Math.log(p) - Math.log1p(-p);
    const first = n * Math.log1p(-p);
    let max = Number.NEGATIVE_INFINITY;
    for (let i = 0; i <= k; i += 1) max = Math.max(max, first + coefficients[i]! + i * logRatio);
    let sum = 0;
    for (let i = 0; i <= k; i += 1) sum += Math.exp(first + coefficients[i]! + i * logRatio - max);
    return max + Math.log(sum);
  };
}

/**
 * The largest failure rate p for which seeing at most `failures` in `runs` still has probability
 * >= 1 - confidence. Found by bisection (the CDF falls as p grows); exact to 1e-9.
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
  const logCdf = binomialLogCdfAt(failures, runs);
  let lo = observed;
  let hi = 1;
  for (let i = 0; i < 60 && hi - lo > 1e-12; i += 1) {
    const mid = (lo + hi) / 2;
    if (logCdf(mid) > target) lo = mid;
    else hi = mid;
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
