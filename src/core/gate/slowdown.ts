/**
 * The slowdown the gate runs tries under: arithmetic only (the timer and the signals are in
 * io/load/duty-cycle.ts). A factor F means CPU work takes F times as long as on an idle core.
 * It is made of two parts that multiply:
 * - ambient: what the machine already costs a runnable task, (cpu + run-queue wait) / cpu, from
 *   /proc/<pid>/schedstat (the gate's own parallel tries included: they wait on each other);
 * - duty: the gate stops the try's process group part of the time, wall / (wall - stopped).
 * The gate measures the ambient part and adds only the rest: duty = max(1, target / ambient).
 */

/** How far a duty cycle has got: wall and stopped time so far, and the stopped time it owes. */
export interface DutyAccount {
  readonly wallMs: number;
  readonly stoppedMs: number;
  /** Stopped time the factors asked for so far: sum of each cycle's length x (1 - 1/duty). */
  readonly owedMs: number;
}

export const EMPTY_DUTY_ACCOUNT: DutyAccount = { wallMs: 0, stoppedMs: 0, owedMs: 0 };

export interface CyclePlan {
  readonly runMs: number;
  readonly stopMs: number;
}

/** The duty factor that brings a task at `ambient` to `target` (never below 1: no speed-up). */
export function dutyFactorFor(target: number, ambient: number): number {
  if (!(ambient > 0) || !(target > 0)) return 1;
  return Math.max(1, target / ambient);
}

/**
 * The next cycle of `periodMs`: stop for what this cycle asks plus what earlier cycles fell short
 * (timer slack makes real windows longer or shorter than planned: on a busy machine the gate's own
 * timers run late), between 0 and CATCH_UP periods, and run for the rest of the period (0 when
 * catching up). A controller with memory: the error of every cycle is paid back in the next ones.
 */
export const CATCH_UP = 5;
export function planCycle(account: DutyAccount, duty: number, periodMs: number): CyclePlan {
  if (duty <= 1) return { runMs: periodMs, stopMs: 0 };
  const wanted = periodMs * (1 - 1 / duty) + (account.owedMs - account.stoppedMs);
  const stopMs = Math.min(periodMs * CATCH_UP, Math.max(0, wanted));
  return { runMs: Math.max(0, periodMs - stopMs), stopMs };
}

/** The account after a cycle that really ran `runMs` and stopped `stopMs` (measured) at `duty`. */
export function recordCycle(account: DutyAccount, duty: number, measured: CyclePlan): DutyAccount {
  const length = measured.runMs + measured.stopMs;
  return {
    wallMs: account.wallMs + length,
    stoppedMs: account.stoppedMs + measured.stopMs,
    owedMs: account.owedMs + length * (1 - 1 / Math.max(1, duty)),
  };
}

/** wall / (wall - stopped): the slowdown the stops alone gave. */
export function achievedDuty(wallMs: number, stoppedMs: number): number {
  const running = wallMs - stoppedMs;
  if (wallMs <= 0 || running <= 0) return 1;
  return wallMs / running;
}

/** (cpu + wait) / cpu from schedstat deltas (ns), or null when the task barely ran (too little to tell). */
export function ambientFactor(cpuNs: number, waitNs: number, minCpuNs = 5e6): number | null {
  if (!(cpuNs >= minCpuNs) || !(waitNs >= 0)) return null;
  return (cpuNs + waitNs) / cpuNs;
}

/** A stop: [from, to) in ms on the clock both sides share (performance.timeOrigin + now). */
export interface StopInterval {
  readonly from: number;
  readonly to: number;
}

/** Time within [start, end) during which the group was stopped. Intervals must not overlap. */
export function stoppedWithin(stops: readonly StopInterval[], start: number, end: number): number {
  let total = 0;
  for (const s of stops) {
    const from = Math.max(s.from, start);
    const to = Math.min(s.to, end);
    if (to > from) total += to - from;
  }
  return total;
}

export interface TryTiming {
  /** Wall time of the try and, within it, the time its process group was stopped. */
  readonly wallMs: number;
  readonly stoppedMs: number;
  /** The try's own thread's schedstat deltas over the try, or null where there is no /proc. */
  readonly cpuNs: number | null;
  readonly waitNs: number | null;
  /** The ambient slowdown measured around the try (the group's, or before the tries), for a try too short to measure its own. */
  readonly around?: number | null;
}

/**
 * The slowdown one try got, rounded to 0.01: duty x ambient, capped by wall / cpu (the most any
 * CPU work in the try can have been slowed: on a crowded run queue a stop signal waits for the task
 * to run, so stopped and waiting time overlap), never below 1. Ambient is the try's own when it ran
 * long enough to tell, else the one measured around it, else 1.
 */
export function trySlowdown(t: TryTiming): number {
  const duty = achievedDuty(t.wallMs, t.stoppedMs);
  const own = t.cpuNs === null || t.waitNs === null ? null : ambientFactor(t.cpuNs, t.waitNs);
  const ceiling = t.cpuNs !== null && own !== null ? t.wallMs / (t.cpuNs / 1e6) : Number.POSITIVE_INFINITY;
  return Math.round(Math.max(1, Math.min(duty * (own ?? t.around ?? 1), ceiling)) * 100) / 100;
}

export type ContentionMethod = 'duty-cycle' | 'busy-workers' | 'duty-cycle+busy-workers' | 'none';

export interface Contention {
  /** The factor asked for (--slowdown / gate.slowdown). */
  readonly target: number;
  /** The machine's slowdown measured before the tries, or null where it cannot be measured. */
  readonly ambient: number | null;
  /** What the tries were judged at: the target, or the ambient factor when that was already higher. */
  readonly reference: number;
  readonly method: ContentionMethod;
}

export function decideContention(target: number, ambient: number | null, busyWorkers: number): Contention {
  const stops = target > 1;
  const method: ContentionMethod =
    busyWorkers > 0 ? (stops ? 'duty-cycle+busy-workers' : 'busy-workers') : stops ? 'duty-cycle' : 'none';
  const reference = Math.round(Math.max(target, ambient ?? 1) * 100) / 100;
  return { target, ambient, reference, method };
}

/** The warning when the machine is already slower than asked, else null. */
export function describeAmbientExcess(c: Contention): string | null {
  if (c.ambient === null || c.ambient <= c.target) return null;
  return `the machine is already slower than the target slowdown (measured x${c.ambient.toFixed(2)} before the tries, target x${c.target}): the gate adds no stops and judges the tries at x${c.reference}`;
}

/** One process's schedstat deltas over a control window (ns). */
export interface TaskWindow {
  readonly cpuNs: number;
  readonly waitNs: number;
}

/**
 * The slowdown a window really gave, from its busiest task when that task wanted the CPU for all
 * the time it was not stopped (cpu + wait >= 80% of it): wall / cpu. Null when no task was
 * CPU-bound (nothing to read the factor from). Stops and run-queue wait overlap on a crowded
 * machine, so duty x ambient alone overstates what a task got; this is the check.
 */
export function windowSlowdown(tasks: readonly TaskWindow[], wallMs: number, stoppedMs: number): number | null {
  const busiest = [...tasks].sort((a, b) => b.cpuNs + b.waitNs - (a.cpuNs + a.waitNs))[0];
  if (!busiest || busiest.cpuNs < 20e6) return null;
  const runningMs = wallMs - stoppedMs;
  if ((busiest.cpuNs + busiest.waitNs) / 1e6 < 0.8 * runningMs) return null;
  return wallMs / (busiest.cpuNs / 1e6);
}

/**
 * The controller's correction after a window: multiplied by (target / measured)^0.7 (damped, so
 * one noisy window cannot swing it), kept within [1/4, 8].
 */
export function correctGain(gain: number, target: number, measured: number | null): number {
  if (measured === null || !(measured > 0)) return gain;
  return Math.min(8, Math.max(0.25, gain * (target / measured) ** 0.7));
}

/** The warning when the tries got far from the reference (outside +-20%), else null. */
export function describeShortfall(reference: number, achieved: number | null): string | null {
  if (achieved === null || Math.abs(achieved / reference - 1) <= 0.2) return null;
  const side = achieved < reference ? 'below' : 'above';
  return `the tries got a slowdown of x${achieved} (median, measured), ${side} the reference x${reference}: ${side === 'below' ? 'on a crowded machine the scheduler gives a stopped process its time back, so stops add less than asked' : 'the machine got busier during the tries'}; the verdicts hold for the measured factor`;
}
