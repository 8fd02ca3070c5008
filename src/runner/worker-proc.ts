/**
 * What the gate's runner reads of its own worker in /proc (Linux; elsewhere null): the worker's
 * process tree (its CPU, what runs below it), its own threads' scheduler figures, its thread id,
 * and the processes its tests left running. The texts are parsed by core/gate/proc-text.ts.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { type ProcStat, parentsOf, parseCgroupLines, parseProcTable, parseSchedstat } from '../core/gate/proc-text.js';
import { descendantsOf } from '../core/gate/runner-protocol.js';
// Not the globals: a test may delete or replace them (captured-globals.ts).
import { cpuUsage, performance, setTimeout } from './captured-globals.js';

/** A worker tree's CPU at one moment (Linux /proc stat, 10 ms ticks) and whether processes were below the worker. */
export interface TreeCpu {
  readonly cpuMs: number;
  /** CPU of the children the worker reaped. */
  readonly reapedMs: number;
  /** Processes below the worker. */
  readonly below: number;
}

/** pid -> stat of every process (Linux /proc), or null: core/gate/proc-text.ts parses the texts. */
function readProcTable(): Map<number, ProcStat> | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return null;
  }
  return parseProcTable(entries.map((e) => [Number(e), readText(`/proc/${e}/stat`)]));
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null; // gone
  }
}

/** CPU ms of this worker's whole tree: itself, the children it reaped, the descendants still running; null without /proc. */
export function readTreeCpu(): TreeCpu | null {
  const table = readProcTable();
  const self = table?.get(process.pid);
  if (!table || !self) return null;
  const below = descendantsOf(process.pid, parentsOf(table));
  const cpuMs = below.reduce((sum, pid) => sum + (table.get(pid)?.cpuMs ?? 0), self.cpuMs + self.childCpuMs);
  return { cpuMs, reapedMs: self.childCpuMs, below: below.length };
}

/**
 * The worker process's CPU and the run-queue wait of the thread calling this (the one running the
 * test), in ms; null in a threads pool (the process's CPU is every worker's there) or without
 * /proc. Exact at the moment of the call, so two calls bracket a 20 ms test function: the CPU from
 * process.cpuUsage (the kernel brings the calling thread's figure up to date for it), the wait from
 * the thread's own schedstat (a thread's wait is added when it gets a CPU, so the reader's is
 * current). schedstat's CPU is not: for a running thread it lags by up to a scheduler tick (4 ms
 * at HZ 250), a fifth of a 20 ms test.
 */
export function readOwnFigures(tid: number): { cpuMs: number; waitMs: number } | null {
  if (tid !== process.pid) return null;
  try {
    const s = parseSchedstat(readFileSync('/proc/thread-self/schedstat', 'utf8'));
    const cpu = cpuUsage();
    return s === null ? null : { cpuMs: (cpu.user + cpu.system) / 1000, waitMs: s.waitNs / 1e6 };
  } catch {
    return null;
  }
}

/** True when nothing ran below the worker in a try: no process at either end, none reaped in between. */
export const aloneInTry = (before: TreeCpu | null, after: TreeCpu | null): boolean =>
  before !== null && after !== null && before.below === 0 && after.below === 0 && after.reapedMs === before.reapedMs;

/**
 * Kills what the file's tests started and left running, detached ones included (they left the
 * process group but are still this worker's children): the try ends with its file (Linux /proc).
 */
export function killLeftovers(): void {
  const table = readProcTable();
  if (!table) return;
  for (const pid of descendantsOf(process.pid, parentsOf(table))) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

/** This thread's id: the worker's pid in a forks pool, its own thread id in a threads pool (Linux), else the pid. */
export function threadId(): number {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').at(-1)) || process.pid;
  } catch {
    return process.pid;
  }
}

/**
 * Waits until this thread is in a cgroup whose path names `name` (the gate moves the worker there
 * once it reads the worker's first line), at most `maxMs`; true when it is. Without /proc, false at once.
 */
export async function awaitCgroup(name: string, maxMs: number): Promise<boolean> {
  const until = performance.now() + maxMs;
  for (;;) {
    const text = readText('/proc/thread-self/cgroup');
    if (text === null) return false;
    if (parseCgroupLines(text).some((l) => l.path.split('/').includes(name))) return true;
    if (performance.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 2));
  }
}
