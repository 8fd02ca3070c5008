/**
 * How many test workers a paced call runs side by side (issue 45). A worker paced to xF uses at
 * most 1/F of a CPU (its own cgroup quota, or the signal pacer's credit), so Vitest's default worker
 * count for a run (cores - 1) leaves a paced call's machine mostly idle: at x2 on 2 cores one worker
 * used a quarter of it, and the 30-test rare-flake branch spent 31 s on reference tries that 3
 * workers made in 12 s (docs/gate.md "Workers of a paced call"). Where the project sets no worker
 * count of its own, a paced call runs enough workers to fill PACED_FILL of the cores the busy
 * workers leave, never fewer than Vitest's default, at most MAX_PER_CORE per core. Every try's
 * factor is still measured (run-queue wait included), so contention shows in what a try got. Pure.
 */

/** The share of the free cores a paced call's workers may use together (the rest: Vitest's own process, the pacer). */
const PACED_FILL = 0.75;
/** Paced workers per core at most (x8 on 2 cores would otherwise start 12 processes). */
export const MAX_PER_CORE = 4;

/** Vitest's own worker count for a run (`vitest run`, not watch) on this many cores. */
export const vitestDefaultWorkers = (cores: number): number => Math.max(1, Math.floor(cores) - 1);

/**
 * The worker count for a call paced to `factor` on `cores` with `busyWorkers` busy loops beside
 * it, or null: Vitest's default is as many (no slowdown, or too few cores left to fill).
 */
export function pacedWorkers(input: {
  readonly cores: number;
  readonly factor: number;
  readonly busyWorkers: number;
}): number | null {
  const cores = Math.max(1, Math.floor(input.cores));
  if (!(input.factor > 1)) return null;
  const free = Math.max(1, cores - Math.max(0, input.busyWorkers));
  const n = Math.min(Math.floor(free * input.factor * PACED_FILL), MAX_PER_CORE * cores);
  return n > vitestDefaultWorkers(cores) ? n : null;
}
