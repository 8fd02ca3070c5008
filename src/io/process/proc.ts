/**
 * The one /proc reader (Linux; elsewhere every reader returns null): the process table (parent,
 * group, CPU of every process), and the scheduler figures of every thread of a process. The texts
 * are parsed by core/gate/proc-text.ts, which the runner inside Vitest's workers shares.
 */
import { readdirSync, readFileSync } from 'node:fs';
import {
  type ProcStat,
  parentsOf,
  parseProcTable,
  parseSchedstat,
  parseStat,
  parseStatusTgid,
  type Schedstat,
} from '../../core/gate/proc-text.js';

export type { ProcStat, Schedstat };
export { parentsOf };

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function listNumeric(dir: string): number[] | null {
  try {
    return readdirSync(dir)
      .filter((e) => /^\d+$/.test(e))
      .map(Number);
  } catch {
    return null;
  }
}

export function readStat(pid: number): ProcStat | null {
  const text = readText(`/proc/${pid}/stat`);
  return text === null ? null : parseStat(text);
}

/** pid -> stat of every process on the machine, or null without /proc. */
export function readProcTable(): Map<number, ProcStat> | null {
  const pids = listNumeric('/proc');
  return pids === null ? null : parseProcTable(pids.map((pid) => [pid, readText(`/proc/${pid}/stat`)]));
}

/** The process a thread belongs to (its thread group), or null when it is gone. */
export function readThreadProcess(tid: number): number | null {
  const text = readText(`/proc/${tid}/status`);
  return text === null ? null : parseStatusTgid(text);
}

/** One thread's figures (`/proc/<pid>/task/<tid>/schedstat`), or null when it is gone. */
export function readThreadSchedstat(pid: number, tid: number): Schedstat | null {
  const text = readText(`/proc/${pid}/task/${tid}/schedstat`);
  return text === null ? null : parseSchedstat(text);
}

/** tid -> figures of every thread of `pid` (empty when it is gone). */
export function readProcessThreads(pid: number): Map<number, Schedstat> {
  const out = new Map<number, Schedstat>();
  for (const tid of listNumeric(`/proc/${pid}/task`) ?? []) {
    const s = readThreadSchedstat(pid, tid);
    if (s !== null) out.set(tid, s);
  }
  return out;
}

/** True where /proc gives scheduler figures (Linux with schedstat). */
export const hasSchedstat = (): boolean => readText('/proc/thread-self/schedstat') !== null;
