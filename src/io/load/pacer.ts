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

import path from 'node:path';
import { type PaceState, paceStep, START_PACE, type TreeWindow, windowOf } from '../../core/gate/pacer.js';
import type { PaceKind } from '../../core/gate/slowdown.js';
import { readThreadSchedstat } from '../process/proc.js';
import { addWorkerCgroup, type CgroupPlace, openCgroupPlace, removeCgroupPlace } from './cgroup.js';
import { type PriorityState, priorityRefusal, restorePriority, steerPriority } from './priority.js';
import { RESCAN_EVERY, type SampledTree, sampleTree } from './tree-sample.js';

export interface PaceMethod {
  readonly kind: PaceKind;
  /** Why a better method did not run, or null. */
  readonly why: string | null;
  /** What was done to the paced workers' CPU weight, or null. */
  readonly weight: string | null;
}

interface Worker extends SampledTree {
  readonly tid: number;
  pace: PaceState;
  stoppedPids: number[];
}

export interface Pacer {
  readonly method: PaceMethod;
  /** The folder name of this call's cgroup (its workers' folders are inside), or null without one. */
  readonly cgroup: string | null;
  addWorker(pid: number, tid: number): void;
  /** The tree's figures over [from, to) (ms on the clock of ./clock.ts), or null when not sampled. */
  window(tid: number, from: number, to: number): TreeWindow | null;
  /** The processes the signal pacer has stopped now (its SIGSTOPs are not a test's: io/vitest/stop-watch.ts). */
  pausedPids(): ReadonlySet<number>;
  stop(): void;
}

/** Milliseconds since the epoch with sub-ms resolution; the test workers read the same clock. */
export const now = (): number => performance.timeOrigin + performance.now();

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone
  }
}

const TICK_MS = 10;

const stoppedTrees = new Set<Worker>();
let hooked = false;

function resumeAll(w: Worker): void {
  for (const pid of w.stoppedPids) signal(pid, 'SIGCONT');
  w.stoppedPids = [];
  stoppedTrees.delete(w);
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
  unslowed: boolean,
): { method: PaceMethod; place: CgroupPlace | null } {
  if (!canSignal)
    return { method: { kind: 'none', why: 'no /proc schedstat on this machine', weight: null }, place: null };
  if (factor <= 1) {
    // Tries without slowdown: measured, not paced; with `unslowed`, in a folder at the kernel's
    // maximum CPU weight where there is one, so the machine's own load does not slow them.
    const opened = unslowed && cgroups ? openCgroupPlace('unslowed') : null;
    if (opened !== null && 'place' in opened)
      return { method: { kind: 'measure-only', why: null, weight: opened.place.weight }, place: opened.place };
    return { method: { kind: 'measure-only', why: opened === null ? null : opened.why, weight: null }, place: null };
  }
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
  sampleTree(w, now(), state.place?.version ?? null, true, false);
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const w of stoppedTrees) resumeAll(w);
  });
}

/** `cgroups: false` skips the cgroup quota and paces by signals (the fallback, tested on its own). */
/** `unslowed` (factor 1 only): the workers at the kernel's maximum CPU weight. */
type PacerOptions = { readonly cgroups?: boolean; readonly unslowed?: boolean };

export function startPacer(factor: number, options: PacerOptions = {}): Pacer {
  const canSignal = readThreadSchedstat(process.pid, process.pid) !== null;
  const state: PacerState = {
    factor,
    ...chooseMethod(factor, canSignal, options.cgroups ?? true, options.unslowed ?? false),
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
      sampleTree(w, at, state.place?.version ?? null, ticks % RESCAN_EVERY === 0, w.pace.stopped);
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
    pausedPids: () => new Set([...state.workers.values()].flatMap((w) => w.stoppedPids)),
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
