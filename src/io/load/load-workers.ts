/**
 * Synthetic CPU load for the gate: N busy child processes, each its own process group, started before
 * the runs and always stopped (the caller stops them in `finally`; a pipe also ends them if the gate
 * dies). What the load achieved is measured, not assumed: load average before and after, and the CPU
 * time the workers really got (from /proc on Linux; null elsewhere).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import { readStat } from '../process/proc.js';
import { isProcessAlive, stopProcessGroup, trackProcessGroup } from '../process/process-group.js';
import { LOAD_WORKER_SOURCE } from './load-worker-child.js';

export interface LoadSummary {
  readonly workers: number;
  readonly pids: readonly number[];
  readonly cpus: number;
  /** os.loadavg() when the load started and when it stopped (measured). */
  readonly loadavgBefore: readonly number[];
  readonly loadavgAfter: readonly number[];
  readonly wallMs: number;
  /** CPU time the workers got, summed (measured from /proc/<pid>/stat), or null when unavailable. */
  readonly workerCpuMs: number | null;
  /** workerCpuMs / (wallMs * cpus): the share of the machine the load took (measured), or null. */
  readonly machineShare: number | null;
}

export interface LoadWorkers {
  readonly pids: readonly number[];
  /** Kills every worker's process group and waits until each has exited. Safe to call twice. */
  stop(): Promise<LoadSummary>;
}

export function defaultWorkerCount(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}

/** utime + stime of a live process in ms, from /proc (Linux), or null. */
export const readProcessCpuMs = (pid: number): number | null => readStat(pid)?.cpuMs ?? null;

export { isProcessAlive };

/** One busy worker, the leader of a process group of its own. */
function spawnLoadWorker(): ChildProcess {
  const child = spawn(process.execPath, ['-e', LOAD_WORKER_SOURCE], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.on('error', () => undefined);
  child.stdin?.on('error', () => undefined);
  return child;
}

/** Stops a worker's group; resolves when it has exited (at once when it already had). */
function stopWorker(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    stopProcessGroup(child.pid);
  });
}

export function startLoadWorkers(count: number): LoadWorkers {
  const loadavgBefore = os.loadavg();
  const started = performance.now();
  const children: ChildProcess[] = [];
  const untrack = new Map<ChildProcess, () => void>();
  for (let i = 0; i < count; i += 1) {
    const child = spawnLoadWorker();
    untrack.set(child, trackProcessGroup(child.pid));
    children.push(child);
  }
  const pids = children.flatMap((c) => (c.pid === undefined ? [] : [c.pid]));
  let stopping: Promise<LoadSummary> | null = null;

  const stop = (): Promise<LoadSummary> => {
    stopping ??= (async () => {
      const cpu = pids.map(readProcessCpuMs);
      const wallMs = performance.now() - started;
      const loadavgAfter = os.loadavg();
      await Promise.all(children.map(stopWorker));
      for (const child of children) {
        child.stdin?.destroy();
        untrack.get(child)?.();
      }
      const workerCpuMs =
        cpu.every((v): v is number => v !== null) && cpu.length > 0 ? cpu.reduce((a, b) => a + b, 0) : null;
      const cpus = defaultWorkerCount();
      return {
        workers: count,
        pids,
        cpus,
        loadavgBefore,
        loadavgAfter,
        wallMs,
        workerCpuMs,
        machineShare: workerCpuMs === null || wallMs <= 0 ? null : workerCpuMs / (wallMs * cpus),
      };
    })();
    return stopping;
  };
  return { pids, stop };
}
