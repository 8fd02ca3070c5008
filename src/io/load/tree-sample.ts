/**
 * One tick's sample of a paced worker's tree (io/load/pacer.ts): every thread of the tree (the
 * cgroup's, or the worker and its descendants), its CPU and run-queue wait, and apart the processes
 * below the worker: their CPU and the time each was runnable (core/gate/pacer.ts ChildFigures).
 */
import { existsSync } from 'node:fs';
import type { TreeSample } from '../../core/gate/pacer.js';
import { descendantsOf } from '../../core/gate/runner-protocol.js';
import {
  parentsOf,
  readProcessThreads,
  readProcTable,
  readThreadProcess,
  readThreadSchedstat,
} from '../process/proc.js';
import { listCgroupMembers } from './cgroup.js';

/** The signal pacer looks for new processes in a tree every this many ticks. */
export const RESCAN_EVERY = 3;

/** One thread's last figures and the process below the worker it belongs to (null: the worker's own). */
interface ThreadFigures {
  readonly cpuNs: number;
  readonly waitNs: number;
  readonly child: number | null;
}

/** A worker's tree as the pacer samples it. */
export interface SampledTree {
  readonly pid: number;
  readonly tid: number;
  readonly cgroup: string | null;
  /** Last figures of every thread seen in the tree (kept when it ends: its work stays counted). */
  readonly threads: Map<number, ThreadFigures>;
  readonly series: TreeSample[];
  stoppedMs: number;
  /** Sum over ticks and processes below the worker of the time each was runnable (ns). */
  childRunnableNs: number;
  /** Per process below the worker: runnable time a tick's cap cut, counted in the next ticks (ns). */
  readonly childCarryNs: Map<number, number>;
  members: number[];
  alive: boolean;
}

/** The process below the worker a thread belongs to, or null for the worker's own (cgroup v1 lists threads only). */
function childOf(w: SampledTree, tid: number, pids: readonly number[]): number | null {
  const known = w.threads.get(tid);
  if (known) return known.child;
  if (tid === w.pid || existsSync(`/proc/${w.pid}/task/${tid}`)) return null;
  return pids.includes(tid) ? tid : (readThreadProcess(tid) ?? tid);
}

/** Every thread of the worker's tree: the cgroup's, or (signals) the worker and its descendants. */
function readTree(w: SampledTree, version: 1 | 2 | null, rescan: boolean): Map<number, ThreadFigures> {
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
function childRunnableNs(w: SampledTree, seen: ReadonlyMap<number, ThreadFigures>, tickNs: number): number {
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

/** One tick's sample of a tree: its threads read, its running totals appended to its series. `stopped`: the signal pacer held it since the last one. */
export function sampleTree(w: SampledTree, at: number, version: 1 | 2 | null, rescan: boolean, stopped: boolean): void {
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
  if (last && stopped) w.stoppedMs += at - last.t;
  w.series.push({
    t: at,
    cpuMs: cpuNs / 1e6,
    waitMs: waitNs / 1e6,
    stoppedMs: w.stoppedMs,
    children: { cpuMs: childCpuNs / 1e6, waitMs: (w.childRunnableNs - childCpuNs) / 1e6 },
  });
}
