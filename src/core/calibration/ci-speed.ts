/**
 * How much slower a CI platform runs the team's tests than this machine: for every test that
 * passed both in CI runs of that platform and in runs here, the ratio of its median durations;
 * the estimate is the median of those ratios, with the distribution-free 95% confidence interval
 * for a median from order statistics (the sorted ratios ranked k and n - k + 1, k the largest rank
 * with P(Binomial(n, 1/2) < k) <= 2.5%; Hollander & Wolfe, Nonparametric Statistical Methods,
 * §3.6). It needs nothing of the ratios' distribution but that each test's ratio is as likely
 * above the true one as below it, so a fifth of tests with odd ratios (a cache warm in CI, a test
 * doing other work here) moves neither the estimate nor, much, the interval. Pure.
 */
import { logBinomialCdf } from '../failure-rate.js';

/** The tests in common an estimate needs; fewer and it refuses. */
export const MIN_COMMON_TESTS = 20;
/** Tests whose median is under this (ms) in CI or here are left out: their timings are mostly noise. */
const MIN_TEST_MS = 5;

/**
 * A test as a calibration names it: its key (core/test-id.ts), or its id in the history store (the
 * store's ids stand for keys one to one, and the estimate never prints a test). One sample names
 * every test the same way.
 */
export type SpeedTestKey = string | number;

/**
 * One run's passed tests' durations (ms), each test once: a Map of test -> ms is one; the store's
 * read visits its two lists instead of building 120 Maps of 2,000 entries.
 */
export interface SpeedDurations {
  forEach(visit: (ms: number, test: SpeedTestKey) => void): void;
}

/** One run's passed tests: test -> duration (ms). */
export interface SpeedRun {
  readonly runId: string;
  /** ISO time the run started. */
  readonly startedAt: string;
  readonly durations: SpeedDurations;
}

/** Runs here as every CI platform is compared with them: each test's median, computed once. */
export interface HereDurations {
  readonly runs: number;
  readonly medians: ReadonlyMap<SpeedTestKey, number>;
}

export interface CiSpeedEstimate {
  readonly kind: 'estimated';
  readonly platform: string;
  /** Median of per-test ratios (CI / here): 3.4 means CI takes 3.4x as long. */
  readonly ratio: number;
  /** 95% distribution-free interval for the median ratio. */
  readonly interval: readonly [number, number];
  /** Tests in common (at least MIN_TEST_MS in both places). */
  readonly tests: number;
  /** CI runs of the platform and runs here the ratios came from. */
  readonly runs: number;
  readonly localRuns: number;
}

interface CiSpeedRefusal {
  readonly kind: 'refused';
  readonly platform: string;
  readonly reason: string;
  readonly tests: number;
  readonly runs: number;
  readonly localRuns: number;
}

export type CiSpeed = CiSpeedEstimate | CiSpeedRefusal;

/**
 * The median of positive values, an even count's middle pair joined by their geometric mean: on a
 * ratio scale the arithmetic mean of two runs leans up (two runs here at 10 and 40 ms are "20 ms",
 * not 25), and that lean became a 3-in-4 miss of the true ratio with two runs here (bench/ci-speed.mjs).
 */
function medianOf(sorted: ArrayLike<number>): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : Math.sqrt((sorted[mid - 1] as number) * (sorted[mid] as number));
}

/**
 * Each test's passed durations in runs: a row per test and a column per run (newest first) in one
 * Float64Array, NaN where the test did not pass in that run (durations are never NaN). Built once
 * per platform for its estimate and its trend's halves (no array per test to grow and collect).
 */
export interface DurationTable {
  readonly runs: number;
  readonly rows: ReadonlyMap<SpeedTestKey, number>;
  readonly slots: Float64Array;
}

export function tabulateDurations(runs: readonly SpeedRun[]): DurationTable {
  const width = Math.max(1, runs.length);
  const rows = new Map<SpeedTestKey, number>();
  let slots = new Float64Array(width * 1024).fill(Number.NaN);
  for (const [column, run] of runs.entries())
    run.durations.forEach((ms, key) => {
      let r = rows.get(key);
      if (r === undefined) {
        r = rows.size;
        rows.set(key, r);
        if ((r + 1) * width > slots.length) slots = grown(slots);
      }
      slots[r * width + column] = ms;
    });
  return { runs: runs.length, rows, slots };
}

const grown = (slots: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> => {
  const more = new Float64Array(slots.length * 2).fill(Number.NaN);
  more.set(slots);
  return more;
};

/**
 * Each test's median passed duration over the table's runs [from, to), tests with none there left
 * out. A typed array sorts numbers ascending without a comparator call per pair (-0 and 0 give one
 * median).
 */
function medianDurations(table: DurationTable, from = 0, to = table.runs): Map<SpeedTestKey, number> {
  const width = Math.max(1, table.runs);
  const scratch = new Float64Array(Math.max(0, to - from));
  const medians = new Map<SpeedTestKey, number>();
  for (const [key, r] of table.rows) {
    let n = 0;
    for (let c = r * width + from; c < r * width + to; c += 1) {
      const ms = table.slots[c] as number;
      if (!Number.isNaN(ms)) scratch[n++] = ms;
    }
    if (n > 0) medians.set(key, medianOf(scratch.subarray(0, n).sort()));
  }
  return medians;
}

/** The runs here, their medians taken once for all the platforms compared with them. */
export function summarizeHere(localRuns: readonly SpeedRun[]): HereDurations {
  return { runs: localRuns.length, medians: medianDurations(tabulateDurations(localRuns)) };
}

/** Ratios CI / here for the tests both have at or above MIN_TEST_MS, sorted. */
export function commonRatios(ci: ReadonlyMap<SpeedTestKey, number>, here: ReadonlyMap<SpeedTestKey, number>): number[] {
  const ratios: number[] = [];
  for (const [key, ciMs] of ci) {
    const hereMs = here.get(key);
    if (hereMs === undefined || hereMs < MIN_TEST_MS || ciMs < MIN_TEST_MS) continue;
    ratios.push(ciMs / hereMs);
  }
  return Array.from(Float64Array.from(ratios).sort());
}

/**
 * The 1-based rank k of the lower end of the 95% interval for the median of n values: the largest
 * k with P(Binomial(n, 1/2) <= k - 1) <= 0.025 (the upper end is rank n - k + 1). At least 1.
 */
export function medianIntervalRank(n: number, confidence = 0.95): number {
  const tail = Math.log((1 - confidence) / 2);
  // The first k in [1, n) whose CDF is above the tail, else n: bisection, as the CDF grows with k
  // (a scan up from 1 costs O(n^2) terms, 40 ms for the 2,000 tests of one platform).
  let lo = 1;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (logBinomialCdf(mid, n, 0.5) <= tail) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The median of sorted ratios and its 95% interval (needs at least one value). */
export function medianWithInterval(sorted: readonly number[]): { median: number; interval: [number, number] } {
  const k = medianIntervalRank(sorted.length);
  const low = sorted[k - 1] as number;
  const high = sorted[sorted.length - k] as number;
  return { median: medianOf(sorted), interval: [low, high] };
}

const NO_LOCAL_RUNS =
  'no run on this machine in history (runs without CI context); run the suite here once with history on';

/** CI's speed relative to here from the platform's CI runs and the runs here (each the newest N). */
export function estimateCiSpeed(
  platform: string,
  ciRuns: readonly SpeedRun[],
  localRuns: readonly SpeedRun[],
  noLocalRuns = NO_LOCAL_RUNS,
): CiSpeed {
  return compareCiSpeed(platform, tabulateDurations(ciRuns), summarizeHere(localRuns), noLocalRuns);
}

/**
 * estimateCiSpeed from the platform's runs tabulated once (its runs [from, to): all of them, or a
 * trend's half) and the runs here summarized once (summarizeHere), for every platform and half.
 */
export function compareCiSpeed(
  platform: string,
  ci: DurationTable,
  here: HereDurations,
  noLocalRuns = NO_LOCAL_RUNS,
  from = 0,
  to = ci.runs,
): CiSpeed {
  const counts = { platform, runs: to - from, localRuns: here.runs };
  const refuse = (reason: string, tests: number): CiSpeedRefusal => ({ kind: 'refused', reason, tests, ...counts });
  if (counts.runs === 0) return refuse(`no CI run of ${platform} in history`, 0);
  if (here.runs === 0) return refuse(noLocalRuns, 0);
  const ratios = commonRatios(medianDurations(ci, from, to), here.medians);
  if (ratios.length < MIN_COMMON_TESTS)
    return refuse(
      `${ratios.length} test${ratios.length === 1 ? '' : 's'} of ${MIN_TEST_MS} ms or more passed both in CI ${platform} and here; at least ${MIN_COMMON_TESTS} are needed`,
      ratios.length,
    );
  const { median, interval } = medianWithInterval(ratios);
  return { kind: 'estimated', ratio: median, interval, tests: ratios.length, ...counts };
}
