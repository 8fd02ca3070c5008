/** Seeded CI/local series for the CI speed tests and bench/ci-speed.mjs: the same figures every run. */
import { gaussian, seeded } from '../history/trend-simulation.mjs';

export { seeded };

/**
 * `tests` tests with base durations log-uniform in 20 ms-2 s (clear of the 5 ms cut); each of `localRuns` runs here takes
 * base x noise, each of `ciRuns` CI runs base x ratio x noise (noise log-normal, sd `sd` in log
 * space, so each test's ratio is as likely above the true one as below). Returns SpeedRun lists.
 */
export function simulateRuns(rand, { tests, ratio, localRuns, ciRuns, sd }) {
  const bases = Array.from({ length: tests }, () => 20 * Math.exp(rand() * Math.log(100)));
  const runs = (count, scale, prefix) =>
    Array.from({ length: count }, (_, i) => ({
      runId: `${prefix}${i}`,
      startedAt: new Date(Date.UTC(2026, 10, 1, i)).toISOString(),
      durations: new Map(bases.map((b, t) => [`t${t}`, b * scale * Math.exp(sd * gaussian(rand))])),
    }));
  return { ci: runs(ciRuns, ratio, 'ci'), local: runs(localRuns, 1, 'here') };
}
