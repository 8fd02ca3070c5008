import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import type { TreeSample } from '../../../src/core/gate/pacer.js';
import { RAISED_NICE } from '../../../src/core/gate/priority.js';
import {
  type PriorityState,
  priorityRefusal,
  raiseTree,
  restorePriority,
  startPriorityRaise,
  steerPriority,
} from '../../../src/io/load/priority.js';

// A real process in a session of its own (its own autogroup, as a Vitest call's workers are): its
// threads' nice and its autogroup's nice are read back from the kernel. As root the raise must show
// there and be undone by restorePriority; elsewhere it must say why it could not.

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.pid) process.kill(-c.pid, 'SIGKILL');
});

function idleChild(): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
  children.push(child);
  return child.pid ?? 0;
}

const threadsOf = (pid: number): number[] => readdirSync(`/proc/${pid}/task`).map(Number);
const autogroupNice = (pid: number): number =>
  Number(/nice\s+(-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'))?.[1]);
const asRoot = priorityRefusal() === null;

/** A tree that got x3 over its last second, 300 ms of CPU (what the pacer would have sampled). */
const slowSeries: TreeSample[] = [
  { t: 0, cpuMs: 0, waitMs: 0, stoppedMs: 0 },
  { t: 900, cpuMs: 300, waitMs: 600, stoppedMs: 0 },
];
const signals = { kind: 'signals' as const, why: 'cgroups not asked for', weight: null };

describe.runIf(existsSync('/proc/self/autogroup'))('raising the paced workers priority', () => {
  it('raiseTree sets every thread and the autogroup to the raised nice; restorePriority puts them back', () => {
    const pid = idleChild();
    const raise = startPriorityRaise(RAISED_NICE);
    const error = raiseTree(raise, pid, threadsOf(pid));
    if (!asRoot) {
      expect(error).toMatch(/permission|EACCES|EPERM/i);
      return;
    }
    expect(error).toBeNull();
    expect(threadsOf(pid).map((tid) => os.getPriority(tid))).toEqual(threadsOf(pid).map(() => RAISED_NICE));
    expect(autogroupNice(pid)).toBe(RAISED_NICE);
    // flakeguard's own session is not touched.
    expect(autogroupNice(process.pid)).not.toBe(RAISED_NICE);
    restorePriority(raise);
    expect(threadsOf(pid).map((tid) => os.getPriority(tid))).toEqual(threadsOf(pid).map(() => 0));
    expect(autogroupNice(pid)).toBe(0);
  });

  it('steerPriority raises a signal-paced tree that got more than the target and says so, once', () => {
    const pid = idleChild();
    const state: PriorityState = { raise: null, settled: false, refusal: priorityRefusal() };
    const tree = { pid, threads: new Map(threadsOf(pid).map((t) => [t, null])), series: slowSeries };
    const method = steerPriority(state, signals, 2, [tree]);
    expect(state.settled).toBe(true);
    if (asRoot) {
      expect(method.weight).toBe(
        "nice -10 on the workers' threads and autogroup (about 9x the default weight): the tries got x3 for x2 before",
      );
      expect(os.getPriority(pid)).toBe(RAISED_NICE);
    } else {
      expect(method.weight).toBeNull();
      expect(method.why).toContain(
        "cgroups not asked for; the tries got x3 for x2 and the workers' priority could not be raised",
      );
    }
    if (state.raise) restorePriority(state.raise);
    expect(os.getPriority(pid)).toBe(0);
  });

  it('leaves a tree that gets the target alone', () => {
    const pid = idleChild();
    const state: PriorityState = { raise: null, settled: false, refusal: priorityRefusal() };
    const onTarget: TreeSample[] = [slowSeries[0] as TreeSample, { t: 900, cpuMs: 450, waitMs: 450, stoppedMs: 0 }];
    const tree = { pid, threads: new Map(threadsOf(pid).map((t) => [t, null])), series: onTarget };
    expect(steerPriority(state, signals, 2, [tree])).toBe(signals);
    expect(state).toMatchObject({ raise: null, settled: false });
    expect(os.getPriority(pid)).toBe(0);
  });
});
