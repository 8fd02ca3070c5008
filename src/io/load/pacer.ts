/**
 * The gate's slowdown for one Vitest call: paces each test worker's process tree, never Vitest's
 * main process (core/gate/pacer.ts has the arithmetic). Workers announce themselves (a `worker`
 * line in the results file, written by the runner before it collects the file) and the call hands
 * them to addWorker. Each worker is paced by a cgroup CPU quota where the kernel offers one
 * (io/load/cgroup.ts), else by SIGSTOP/SIGCONT on CPU credit every tick. Either way every tick
 * samples the tree's threads (CPU, run-queue wait: a cgroup's throttling shows there) and the
 * stopped time, so window() gives the figures of any try from its own tree. stop() resumes every
 * tree and removes the cgroups; an exit hook does the same if flakeguard dies first.
 */

import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  type PaceState,
  paceStep,
  START_PACE,
  type TreeSample,
  type TreeWindow,
  windowOf,
} from '../../core/gate/pacer.js';
import { descendantsOf } from '../../core/gate/runner-protocol.js';
import type { PaceKind } from '../../core/gate/slowdown.js';
import {
  parentsOf,
  readProcessThreads,
  readProcTable,
  readThreadProcess,
  readThreadSchedstat,
} from '../process/proc.js';
import { addWorkerCgroup, type CgroupPlace, listCgroupMembers, openCgroupPlace, removeCgroupPlace } from './cgroup.js';
import { type PriorityState, priorityRefusal, restorePriority, steerPriority } from './priority.js';

export interface PaceMethod {
  readonly kind: PaceKind;
  /** Why a better method did not run, or null. */
  readonly why: string | null;
  /** What was done to the paced workers' CPU weight, or null. */
  readonly weight: string | null;
}

interface Worker {
  readonly pid: number;
  readonly tid: number;
  readonly cgroup: string | null;
  /** Last figures of every thread seen in the tree (kept when it ends: its work stays counted). */
  readonly threads: Map<number, ThreadFigures>;
  readonly series: TreeSample[];
  pace: PaceState;
  stoppedMs: number;
  /** Sum over ticks and processes below the worker of the time each was runnable (ns; childWindow). */
  childRunnableNs: number;
  /** Per process below the worker: runnable time a tick's cap cut, counted in the next ticks (ns). */
  readonly childCarryNs: Map<number, number>;
  stoppedPids: number[];
  members: number[];
  alive: boolean;
}

export interface Pacer {
  readonly method: PaceMethod;
  /** The folder name of this call's cgroup (its workers' folders are inside), or null without one. */
  readonly cgroup: string | null;
  addWorker(pid: number, tid: number): void;
  /** The tree's figures over [from, to) (ms on the clock of ./clock.ts), or null when not sampled. */
  window(tid: number, from: number, to: number): TreeWindow | null;
  stop(): void;
}

/** Milliseconds since the epoch with sub-ms resolution; the test workers read the same clock. */
export const now = (): number => performance.timeOrigin + performance.now();

/** One thread's last figures and the process below the worker it belongs to (null: the worker's own). */
interface ThreadFigures {
  readonly cpuNs: number;
  readonly waitNs: number;
  readonly child: number | null;
}

const TICK_MS = 10;
const RESCAN_EVERY = 3;

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone
  }
}

const stoppedTrees = new Set<Worker>();
let hooked = false;

function resumeAll(w: Worker): void {
  for (const pid of w.stoppedPids) signal(pid, 'SIGCONT');
  w.stoppedPids = [];
  stoppedTrees.delete(w);
}

/** The process below the worker a thread belongs to, or null for the worker's own (cgroup v1 lists threads only). */
function childOf(w: Worker, tid: number, pids: readonly number[]): number | null {
  const known = w.threads.get(tid);
  if (known) return known.child;
  if (tid === w.pid || existsSync(`/proc/${w.pid}/task/${tid}`)) return null;
  return pids.includes(tid) ? tid : (readThreadProcess(tid) ?? tid);
}

/** Every thread of the worker's tree: the cgroup's, or (signals) the worker and its descendants. */
function readTree(w: Worker, version: 1 | 2 | null, rescan: boolean): Map<number, ThreadFigures> {
  const out = new Map<number, ThreadFigures>();
  if (w.cgroup !== null && version !== null) {
    const { pids, tids } = listCgroupMembers(w.cgroup, version);
    w.members = pids;
    if (tids !== null) {
      for (const tid of tids) {
        const s = readThreadSchedstat(tid, tid);
        if (s) out.set(tid, { ...s, child: childOf(w, tid, pids) });
      }
      return out;
    }
  } else if (rescan) {
    const table = readProcTable();
    const below = table ? descendantsOf(w.pid, parentsOf(table)) : [];
    w.members = [w.pid, ...below];
  }
  for (const pid of w.members) {
    if (pid === w.pid && w.tid !== w.pid) {
      const s = readThreadSchedstat(pid, w.tid);
      if (s) out.set(w.tid, { ...s, child: null });
      continue;
    }
    for (const [tid, s] of readProcessThreads(pid)) out.set(tid, { ...s, child: pid === w.pid ? null : pid });
  }
  return out;
}

/** A process's runnable time beyond a tick carried to the next (ms of ticks): see childRunnableNs. */
const CARRY_TICKS = 5;

/**
 * The time each process below the worker was runnable since the last tick (ns): the sum of its
 * threads' CPU and run-queue wait in it, at most the tick's length (a process is runnable or not;
 * two threads throttled at once are one slowed process, core/gate/pacer.ts ChildFigures). A
 * thread's wait is added when it next runs, so one busy thread's figures come in lumps of up to a
 * cgroup period: what a tick's cap cut is carried to the next ticks (at most CARRY_TICKS of them),
 * where parallel threads only keep the carry full. A thread seen for the first time brings what it
 * did before this tick too (the signal pacer finds new processes every RESCAN_EVERY ticks).
 */
function childRunnableNs(w: Worker, seen: ReadonlyMap<number, ThreadFigures>, tickNs: number): number {
  const byProcess = new Map<number, { ns: number; fresh: boolean }>();
  for (const [tid, s] of seen) {
    if (s.child === null) continue;
    const before = w.threads.get(tid);
    const d = s.cpuNs + s.waitNs - (before ? before.cpuNs + before.waitNs : 0);
    const p = byProcess.get(s.child) ?? { ns: 0, fresh: false };
    byProcess.set(s.child, { ns: p.ns + Math.max(0, d), fresh: p.fresh || before === undefined });
  }
  let sum = 0;
  for (const [pid, p] of byProcess) {
    const have = p.ns + (w.childCarryNs.get(pid) ?? 0);
    const counted = Math.min(have, p.fresh ? tickNs * RESCAN_EVERY : tickNs);
    w.childCarryNs.set(pid, Math.min(have - counted, tickNs * CARRY_TICKS));
    sum += counted;
  }
  return sum;
}

function sampleWorker(w: Worker, at: number, version: 1 | 2 | null, rescan: boolean): void {
  const seen = readTree(w, version, rescan);
  if (seen.size === 0) w.alive = false;
  const last = w.series.at(-1);
  if (last) w.childRunnableNs += childRunnableNs(w, seen, (at - last.t) * 1e6);
  for (const [tid, s] of seen) w.threads.set(tid, s);
  let cpuNs = 0;
  let waitNs = 0;
  let childCpuNs = 0;
  for (const s of w.threads.values()) {
    cpuNs += s.cpuNs;
    waitNs += s.waitNs;
    if (s.child !== null) childCpuNs += s.cpuNs;
  }
  if (last && w.pace.stopped) w.stoppedMs += at - last.t;
  w.series.push({
    t: at,
    cpuMs: cpuNs / 1e6,
    waitMs: waitNs / 1e6,
    stoppedMs: w.stoppedMs,
    children: { cpuMs: childCpuNs / 1e6, waitMs: (w.childRunnableNs - childCpuNs) / 1e6 },
  });
}

/** The signal pacer's step for one tree: stop it below zero credit, let it run at zero. */
function paceBySignals(w: Worker, factor: number): void {
  const [prev, last] = w.series.slice(-2);
  if (!prev || !last || !w.alive) return;
  const next = paceStep(w.pace, last.t - prev.t, last.cpuMs - prev.cpuMs, factor);
  if (next.stopped) {
    // A process the tree started while it was stopped (found by a later rescan) is stopped too:
    // else it would run on unpaced while the credit stays below zero.
    const fresh = w.members.filter((pid) => !w.stoppedPids.includes(pid));
    for (const pid of fresh) signal(pid, 'SIGSTOP');
    w.stoppedPids = [...w.stoppedPids, ...fresh];
    stoppedTrees.add(w);
  } else if (w.pace.stopped) resumeAll(w);
  w.pace = next;
}

function chooseMethod(
  factor: number,
  canSignal: boolean,
  cgroups: boolean,
): { method: PaceMethod; place: CgroupPlace | null } {
  if (!canSignal)
    return { method: { kind: 'none', why: 'no /proc schedstat on this machine', weight: null }, place: null };
  if (factor <= 1) return { method: { kind: 'measure-only', why: null, weight: null }, place: null };
  if (!cgroups) return { method: { kind: 'signals', why: 'cgroups not asked for', weight: null }, place: null };
  const opened = openCgroupPlace();
  if ('place' in opened) {
    const kind = opened.place.version === 2 ? 'cgroup-v2' : 'cgroup-v1';
    return { method: { kind, why: null, weight: opened.place.weight }, place: opened.place };
  }
  return { method: { kind: 'signals', why: opened.why, weight: null }, place: null };
}

interface PacerState {
  readonly factor: number;
  method: PaceMethod;
  place: CgroupPlace | null;
  readonly workers: Map<number, Worker>;
  /** Signals only: the workers' priority, raised when the machine is slower than the target (io/load/priority.ts). */
  readonly priority: PriorityState;
}

/** A new worker: into a cgroup of its own where the call has one (else paced by signals), sampled at once. */
function attachWorker(state: PacerState, pid: number, tid: number): void {
  let cgroup: string | null = null;
  if (state.place !== null) {
    const added = addWorkerCgroup(state.place, pid, tid, state.factor);
    if ('dir' in added) cgroup = added.dir;
    else state.method = { kind: 'signals', why: added.why, weight: null };
  }
  if (state.method.kind === 'signals' && tid !== pid && state.method.why?.includes('pool: threads') !== true)
    state.method = {
      ...state.method,
      why: `${state.method.why ?? ''}; a thread worker (pool: threads) cannot be stopped alone: measured, not paced`,
    };
  const w: Worker = {
    pid,
    tid,
    cgroup,
    threads: new Map(),
    series: [],
    pace: START_PACE,
    stoppedMs: 0,
    childRunnableNs: 0,
    childCarryNs: new Map(),
    stoppedPids: [],
    members: [pid],
    alive: true,
  };
  state.workers.set(tid, w);
  sampleWorker(w, now(), state.place?.version ?? null, true);
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const w of stoppedTrees) resumeAll(w);
  });
}

/** `cgroups: false` skips the cgroup quota and paces by signals (the fallback, tested on its own). */
export function startPacer(factor: number, options: { readonly cgroups?: boolean } = {}): Pacer {
  const canSignal = readThreadSchedstat(process.pid, process.pid) !== null;
  const state: PacerState = {
    factor,
    ...chooseMethod(factor, canSignal, options.cgroups ?? true),
    workers: new Map(),
    priority: { raise: null, settled: false, refusal: priorityRefusal() },
  };
  hookExit();
  let ticks = 0;
  let timer: NodeJS.Timeout | null = null;
  const tick = (): void => {
    ticks += 1;
    const at = now();
    for (const w of state.workers.values()) {
      if (!w.alive) continue;
      sampleWorker(w, at, state.place?.version ?? null, ticks % RESCAN_EVERY === 0);
      // A worker without a cgroup is paced by signals, unless it is a thread (it cannot be stopped alone).
      if (factor > 1 && w.cgroup === null && w.tid === w.pid) paceBySignals(w, factor);
    }
    if (state.method.kind === 'signals' && ticks % RESCAN_EVERY === 0) {
      const trees = [...state.workers.values()].filter((w) => w.alive && w.cgroup === null && w.tid === w.pid);
      state.method = steerPriority(state.priority, state.method, factor, trees);
    }
    timer = setTimeout(tick, TICK_MS);
  };
  if (state.method.kind !== 'none') timer = setTimeout(tick, TICK_MS);
  return {
    get method() {
      return state.method;
    },
    get cgroup() {
      return state.place ? path.basename(state.place.dir) : null;
    },
    addWorker(pid, tid) {
      if (state.method.kind !== 'none' && !state.workers.has(tid)) attachWorker(state, pid, tid);
    },
    window: (tid, from, to) => windowOf(state.workers.get(tid)?.series, from, to),
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      for (const w of state.workers.values()) resumeAll(w);
      if (state.priority.raise) restorePriority(state.priority.raise);
      if (state.place) removeCgroupPlace(state.place);
      state.place = null;
    },
  };
}
