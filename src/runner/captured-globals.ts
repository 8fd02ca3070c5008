/**
 * The clock, timer and CPU figures the gate's runner uses, taken when the runner loads, before any
 * test runs: a test may delete `globalThis.performance` (and its failure skip the line that puts it
 * back), fake `Date` and `performance` with vi.useFakeTimers() and advance them by minutes, or
 * replace `setTimeout` or `process.cpuUsage`, and the runner still times every try by the real
 * clock and records it. From the Node modules, not the globals: `node:perf_hooks` and
 * `node:timers` export the real ones whatever a test did to `globalThis` before this module loaded
 * (a reused worker), and each function is bound here, so replacing a method of the real object
 * later changes nothing either. Vitest's own runner does the same (its `now` and getSafeTimers).
 */
import { performance as realPerformance } from 'node:perf_hooks';
import { setTimeout as realSetTimeout } from 'node:timers';

const now = realPerformance.now.bind(realPerformance);

/**
 * `performance` as the runner reads it: the real monotonic clock (ms) and its origin (ms since the
 * epoch), so `timeOrigin + now()` is the wall time a try started at, in the gate's clock too.
 */
export const performance: { readonly now: () => number; readonly timeOrigin: number } = Object.freeze({
  now,
  timeOrigin: realPerformance.timeOrigin,
});

/** The real `setTimeout` (the runner's waits). */
export const setTimeout: typeof realSetTimeout = realSetTimeout;

/** The real `process.cpuUsage`, bound to process. */
export const cpuUsage: (previous?: NodeJS.CpuUsage) => NodeJS.CpuUsage = process.cpuUsage.bind(process);
