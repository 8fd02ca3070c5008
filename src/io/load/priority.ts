/**
 * Raising the paced workers' priority (core/gate/priority.ts decides when): a negative nice on
 * every thread of a worker's tree (os.setPriority by thread id; threads and processes it starts
 * later inherit it) and on its autogroup (`/proc/<pid>/autogroup`: with
 * kernel.sched_autogroup_enabled the kernel shares the CPU between sessions first, so a thread's
 * own nice only counts inside its session). restorePriority puts back what it changed that still
 * exists; what ended took its nice with it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { type TreeSample, tryFactor, windowOf } from '../../core/gate/pacer.js';
import { decidePriority } from '../../core/gate/priority.js';
import { parseAutogroup } from '../../core/gate/proc-text.js';
import type { PaceKind } from '../../core/gate/slowdown.js';

export interface PriorityRaise {
  readonly nice: number;
  /** tid -> its nice before the raise. */
  readonly threads: Map<number, number>;
  /** autogroup name ("/autogroup-2180") -> a process in it and the group's nice before. */
  readonly autogroups: Map<string, { readonly pid: number; readonly before: number }>;
  /** Processes whose autogroup was already looked at. */
  readonly pids: Set<number>;
}

/** Why this process cannot lower a nice value, or null when it may (root). */
export function priorityRefusal(): string | null {
  if (process.platform !== 'linux') return `no per-thread nice on ${process.platform}`;
  return process.getuid?.() === 0 ? null : 'not root: a negative nice needs root or CAP_SYS_NICE';
}

export const startPriorityRaise = (nice: number): PriorityRaise => ({
  nice,
  threads: new Map(),
  autogroups: new Map(),
  pids: new Set(),
});

function readAutogroup(pid: number): { name: string; nice: number } | null {
  try {
    return parseAutogroup(readFileSync(`/proc/${pid}/autogroup`, 'utf8'));
  } catch {
    return null;
  }
}

/** Raises the threads (a worker's tree) and the autogroup of `pid`; the first error, or null. */
export function raiseTree(r: PriorityRaise, pid: number, tids: Iterable<number>): string | null {
  let error: string | null = null;
  for (const tid of tids) {
    if (r.threads.has(tid)) continue;
    try {
      const before = os.getPriority(tid);
      os.setPriority(tid, r.nice);
      r.threads.set(tid, before);
    } catch (e) {
      // A thread that ended meanwhile is no error; a refusal is.
      if ((e as NodeJS.ErrnoException).code !== 'ESRCH') error ??= (e as Error).message;
    }
  }
  const group = r.pids.has(pid) ? null : readAutogroup(pid);
  r.pids.add(pid);
  if (group && !r.autogroups.has(group.name)) {
    try {
      writeFileSync(`/proc/${pid}/autogroup`, String(r.nice));
      r.autogroups.set(group.name, { pid, before: group.nice });
    } catch (e) {
      error ??= `autogroup of ${pid}: ${(e as Error).message}`;
    }
  }
  return error;
}

/** Puts back every nice raiseTree changed, where the thread or group is still there and still at the raised value. */
export function restorePriority(r: PriorityRaise): void {
  for (const [tid, before] of r.threads) {
    try {
      if (os.getPriority(tid) === r.nice) os.setPriority(tid, before);
    } catch {
      // ended
    }
  }
  r.threads.clear();
  for (const [name, { pid, before }] of r.autogroups) {
    const now = readAutogroup(pid);
    if (now?.name !== name || now.nice !== r.nice) continue;
    try {
      writeFileSync(`/proc/${pid}/autogroup`, String(before));
    } catch {
      // ended
    }
  }
  r.autogroups.clear();
  r.pids.clear();
}

/** A call's priority steering: raised once (then every tree's new threads too), or settled without. */
export interface PriorityState {
  raise: PriorityRaise | null;
  settled: boolean;
  readonly refusal: string | null;
}

/** How a call's workers are paced (io/load/pacer.ts PaceMethod): what the steering reads and rewrites. */
interface Method {
  readonly kind: PaceKind;
  readonly why: string | null;
  readonly weight: string | null;
}

export interface PacedTree {
  readonly pid: number;
  readonly threads: ReadonlyMap<number, unknown>;
  readonly series: readonly TreeSample[];
}

/** The window a tree's running factor is judged over: its last second. */
const WINDOW_MS = 1000;

const joinWhy = (a: string | null, b: string): string => (a ? `${a}; ${b}` : b);

/**
 * Once a signal-paced tree measurably got more than the target (core/gate/priority.ts), raises
 * every paced tree and says so in the method's weight, or says in its why that it could not; after
 * a raise, each call raises the threads and trees that appeared since.
 */
export function steerPriority<M extends Method>(
  p: PriorityState,
  method: M,
  target: number,
  trees: readonly PacedTree[],
): M {
  if (p.raise) {
    for (const t of trees) raiseTree(p.raise, t.pid, t.threads.keys());
    return method;
  }
  if (p.settled) return method;
  for (const t of trees) {
    const last = t.series.at(-1);
    const w = last ? windowOf(t.series, Math.max(t.series[0]?.t ?? 0, last.t - WINDOW_MS), last.t) : null;
    const facts = { method: method.kind, target, got: tryFactor(w).factor, cpuMs: w?.cpuMs ?? 0 };
    const d = decidePriority({ ...facts, refusal: p.refusal });
    if (d.kind === 'wait') continue;
    p.settled = true;
    if (d.kind === 'cannot') return { ...method, why: joinWhy(method.why, d.why) };
    const raise = startPriorityRaise(d.nice);
    const errors = trees.map((x) => raiseTree(raise, x.pid, x.threads.keys()));
    const refused = errors.find((e) => e !== null);
    if (raise.threads.size === 0 && refused) {
      const why = decidePriority({ ...facts, refusal: refused });
      return { ...method, why: joinWhy(method.why, why.kind === 'cannot' ? why.why : refused) };
    }
    p.raise = raise;
    return { ...method, weight: d.weight };
  }
  return method;
}
