/**
 * The gate's slowdown, arithmetic only (io/load/pacer.ts holds the cgroups, signals and /proc).
 * A factor F means CPU work takes F times as long as on an idle core. Only the test workers' process
 * trees are paced, never Vitest's main process, by one of two mechanisms:
 * - a cgroup CPU quota (v2 `cpu.max`, v1 `cpu.cfs_quota_us`/`cpu.cfs_period_us`): the kernel keeps
 *   the tree's CPU (all processes and threads) at or below wall / F (cgroupQuota);
 * - a signal pacer per tree on CPU credit (paceStep): credit += dWall / F - dCpu, capped at a few
 *   ms so sleeping banks nothing; SIGSTOP below zero, SIGCONT at zero.
 * What a try got is measured, not assumed (tryFactor): (cpu + run-queue wait + stopped) / cpu over
 * its tree's threads, where a cgroup's throttled time shows up as run-queue wait.
 */
import { formatDuration } from '../duration.js';
import type { GateTry, TryBody } from './runner-protocol.js';

/** The credit a tree may bank while idle or slow (ms): a burst after sleeping is at most this long. */
export const CREDIT_CAP_MS = 4;

export interface PaceState {
  /** CPU the tree may still use before it is stopped (ms). */
  readonly creditMs: number;
  readonly stopped: boolean;
}

export const START_PACE: PaceState = { creditMs: 0, stopped: false };

/**
 * One pacer tick for one tree: `dWallMs` since the last tick, `dCpuMs` the tree used in it. The
 * next state says whether the tree should be stopped (credit below zero) or running (credit at or
 * above zero). Timer lateness is paid for: a late tick brings a longer dWall and a larger dCpu.
 */
export function paceStep(state: PaceState, dWallMs: number, dCpuMs: number, factor: number): PaceState {
  const earned = factor > 1 ? Math.max(0, dWallMs) / factor : Number.POSITIVE_INFINITY;
  const next = state.creditMs + earned - Math.max(0, dCpuMs);
  // A running tree banks at most the cap (sleeping earns no burst); what a stopped one earned past
  // zero in a late tick (at most one tick's worth) is kept until spent, else a stop longer than
  // asked would be lost for good.
  const ceiling = state.stopped ? Math.max(CREDIT_CAP_MS, earned) : Math.max(CREDIT_CAP_MS, state.creditMs);
  const creditMs = Math.min(ceiling, next);
  return { creditMs, stopped: creditMs < 0 };
}

/**
 * cgroup CPU period (us) short enough that a 20 ms burst is paced, long enough for a quota >= 1 ms
 * (the kernel's least). The kernel checks a group's quota at its scheduler tick (4 ms at HZ 250),
 * so a burst runs unthrottled for what is left of the period's quota plus up to a tick: with a 10 ms
 * period 20 ms bursts at x2 got x1.36-x1.50 in 8-10 of 30 (median x1.70-x1.76); with 4 ms, x1.77 at
 * least (median x1.96), and x4 got x3.98-x4.04 (x3.73-x3.79 at 10 ms). Below a tick the throttling
 * overshoots (2 ms: medians x2.09-x3.18 at x2). Measured with 20 ms bursts in a v1 cgroup, kernel
 * 6.18 at HZ 250, on a 2-core VM loaded by other work. The cost: a node process started under the
 * quota (several threads at once at start-up) takes longer with 4 ms than with 10 ms: spawning node
 * for 250 ms of CPU at x2 took 787 ms against 733 ms (medians of 12 each, interleaved, load 5-7;
 * the spin itself x2.00 in both).
 */
export function cgroupQuota(factor: number): { readonly quotaUs: number; readonly periodUs: number } {
  const periodUs = Math.min(1_000_000, Math.max(4000, Math.ceil(factor * 1000)));
  return { quotaUs: Math.max(1000, Math.round(periodUs / Math.max(1, factor))), periodUs };
}

/**
 * The processes below a worker (ms): the CPU of all their threads, and their wait: the time each
 * process was runnable (its threads' CPU and run-queue wait in each 10 ms tick, at most the tick)
 * less that CPU. A process is slowed while any of its threads waits, once: summing every thread's
 * wait counted one throttled period once per runnable thread (a node child's start-up runs
 * several at once, and helpers wait a whole period for a moment of CPU), and the whole tree's
 * samples read x2.1-x2.2 for x2 under load where the child's own clock said x2.0. With one busy
 * thread it is that thread's wait; with all threads throttled together, wall / cpu.
 */
interface ChildFigures {
  readonly cpuMs: number;
  readonly waitMs: number;
}

/** A tree's scheduler figures over a window (ms): CPU used, run-queue wait (throttling included), stopped by the pacer. */
export interface TreeWindow {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly waitMs: number;
  readonly stoppedMs: number;
  /** The part of the processes below the worker, when the pacer told them apart. */
  readonly children?: ChildFigures;
}

/** A tree's running totals at time t (ms): what the pacer samples every tick. */
export interface TreeSample {
  readonly t: number;
  readonly cpuMs: number;
  readonly waitMs: number;
  readonly stoppedMs: number;
  readonly children?: ChildFigures;
}

function interpolate(series: readonly TreeSample[], t: number): TreeSample | null {
  const first = series[0];
  if (!first) return null;
  if (t <= first.t) return first;
  for (let i = 1; i < series.length; i += 1) {
    const b = series[i] as TreeSample;
    const a = series[i - 1] as TreeSample;
    if (t > b.t) continue;
    const k = b.t > a.t ? (t - a.t) / (b.t - a.t) : 1;
    const mix = (x: number, y: number): number => x + (y - x) * k;
    return {
      t,
      cpuMs: mix(a.cpuMs, b.cpuMs),
      waitMs: mix(a.waitMs, b.waitMs),
      stoppedMs: mix(a.stoppedMs, b.stoppedMs),
      ...(a.children && b.children
        ? {
            children: {
              cpuMs: mix(a.children.cpuMs, b.children.cpuMs),
              waitMs: mix(a.children.waitMs, b.children.waitMs),
            },
          }
        : {}),
    };
  }
  return series.at(-1) ?? null;
}

/** The tree's figures over [from, to) from its samples, or null when it was not sampled. */
export function windowOf(series: readonly TreeSample[] | undefined, from: number, to: number): TreeWindow | null {
  const a = series && interpolate(series, from);
  const b = series && interpolate(series, to);
  if (!a || !b) return null;
  return {
    wallMs: to - from,
    cpuMs: b.cpuMs - a.cpuMs,
    waitMs: b.waitMs - a.waitMs,
    stoppedMs: b.stoppedMs - a.stoppedMs,
    ...(a.children && b.children
      ? { children: { cpuMs: b.children.cpuMs - a.children.cpuMs, waitMs: b.children.waitMs - a.children.waitMs } }
      : {}),
  };
}

/** The span a try's factor is measured over: its test function when the runner timed it, else the whole try. */
export function measuredSpan(t: Pick<GateTry, 'startedAt' | 'durationMs' | 'body'>): { from: number; to: number } {
  if (t.body) return { from: t.body.startedAt, to: t.body.startedAt + t.body.wallMs };
  const from = t.startedAt ?? 0;
  return { from, to: from + t.durationMs };
}

/**
 * The figures a try's factor is computed from, over its test function. The worker's own part is
 * the runner's exact reads at the function's edges (interpolating the pacer's 10 ms ticks misreads
 * a 20 ms burst), the stopped time the pacer's samples over the same span (a signal pacer stops the
 * tree between the runner's reads). When processes ran below the worker, their part is the
 * pacer's samples of them over the same span, interpolated at its edges (ChildFigures). Without
 * the runner's reads (a threads pool, no /proc), the pacer's samples of the whole tree.
 */
export function tryFigures(body: TryBody | undefined, tree: TreeWindow | null): TreeWindow | null {
  if (!body?.own) return tree;
  const own = { wallMs: body.wallMs, cpuMs: body.own.cpuMs, waitMs: body.own.waitMs, stoppedMs: tree?.stoppedMs ?? 0 };
  if (body.alone) return own;
  const children = tree?.children;
  if (!children) return tree;
  return {
    ...own,
    cpuMs: own.cpuMs + Math.max(0, children.cpuMs),
    waitMs: own.waitMs + Math.max(0, children.waitMs),
  };
}

/** Below this much CPU a try's factor is too noisy to tell (a tick of the pacer, a few timer slips). */
export const MIN_MEASURABLE_CPU_MS = 5;

export type MeasuredFactor =
  | { readonly factor: number; readonly note: null }
  | { readonly factor: null; readonly note: string };

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** The factor one try got: (cpu + wait + stopped) / cpu, at most wall / cpu, never below 1; null with the reason when it used too little CPU. */
export function tryFactor(w: TreeWindow | null): MeasuredFactor {
  if (w === null) return { factor: null, note: 'not measured (no /proc on this machine)' };
  if (!(w.cpuMs >= MIN_MEASURABLE_CPU_MS))
    return { factor: null, note: `too short to measure (${Math.max(0, w.cpuMs).toFixed(1)} ms of CPU)` };
  // A stop signal waits for its task to run, so on a crowded machine stopped and waiting time
  // overlap: no CPU work in the window can have been slowed more than wall / cpu.
  const summed = (w.cpuMs + Math.max(0, w.waitMs) + Math.max(0, w.stoppedMs)) / w.cpuMs;
  return { factor: round2(Math.max(1, Math.min(summed, w.wallMs / w.cpuMs))), note: null };
}

/**
 * Wall time over the window the tree was neither on a CPU, waiting for one (throttling included),
 * nor stopped by the pacer: blocked (a page fault on a busy disk, a lock, a GC helper it waits for,
 * a sleep). The test's own clock counts it; tryFactor does not (it slows no CPU work). Null without
 * figures. With processes below the worker their CPU and wait run beside the worker's, so the sum
 * can pass the wall: blocked is then 0.
 */
export function blockedOf(w: TreeWindow | null): number | null {
  if (w === null) return null;
  const blocked = w.wallMs - Math.max(0, w.cpuMs) - Math.max(0, w.waitMs) - Math.max(0, w.stoppedMs);
  return Math.round(Math.max(0, blocked) * 10) / 10;
}

/** Blocked time a reason names: at least this share of the measured span, and this many ms. */
export const LARGE_BLOCKED_SHARE = 0.2;
const LARGE_BLOCKED_MS = 50;

/**
 * "blocked 410ms of 1.2s: the factor counts CPU and run-queue wait only" when a try's test function
 * spent a large part of its span blocked (blockedOf), else null: the try's factor then reads lower
 * than the test's own clock (wall over CPU) by blocked / CPU.
 */
export function describeBlocked(t: Pick<GateTry, 'blockedMs' | 'body' | 'durationMs'>): string | null {
  const span = t.body?.wallMs ?? t.durationMs;
  const blocked = t.blockedMs;
  if (blocked === undefined || !(span > 0) || blocked < LARGE_BLOCKED_MS || blocked < span * LARGE_BLOCKED_SHARE)
    return null;
  return `blocked ${formatDuration(blocked)} of ${formatDuration(span)}: the factor counts CPU and run-queue wait only`;
}

/**
 * The factor a phase's tries got: CPU-weighted over the tries that could be measured
 * (sum of cpu x factor / sum of cpu), or null when none could.
 */
export function phaseFactor(tries: readonly Pick<GateTry, 'cpuMs' | 'slowdown'>[]): number | null {
  let cpu = 0;
  let weighted = 0;
  for (const t of tries) {
    if (t.slowdown === null || t.slowdown === undefined || t.cpuMs === undefined || !(t.cpuMs > 0)) continue;
    cpu += t.cpuMs;
    weighted += t.cpuMs * t.slowdown;
  }
  return cpu > 0 ? round2(weighted / cpu) : null;
}

/** "x2" when the tries got what was asked (within 10%), else "asked x2, tries got x2.6"; "x2 (not measured)" without a figure. */
export function describeFactor(asked: number, got: number | null): string {
  if (got === null) return `x${asked} (asked; not measured)`;
  return Math.abs(got / asked - 1) <= 0.1 ? `x${got}` : `asked x${asked}, tries got x${got}`;
}
