/**
 * Linux /proc texts, parsed in one place (pure: the runner inside Vitest's workers and io/process/proc.ts
 * read the files, this reads the text).
 * - `/proc/<pid>/stat`: after the name in parentheses, "state ppid pgrp ... utime(11) stime(12)
 *   cutime(13) cstime(14)" (0-based after the name), times in clock ticks (100 per second).
 * - `/proc/<pid>/task/<tid>/schedstat`: "cpu time (ns) run-queue wait (ns) timeslices".
 * - `/proc/<tid>/status`: "Key:\tvalue" lines; `Tgid` is the process a thread belongs to.
 */

const CLOCK_TICKS_PER_SECOND = 100;

export interface ProcStat {
  readonly state: string;
  readonly ppid: number;
  readonly pgid: number;
  /** utime + stime of the process (ms). */
  readonly cpuMs: number;
  /** cutime + cstime: the children it has reaped (ms). */
  readonly childCpuMs: number;
}

export interface Schedstat {
  readonly cpuNs: number;
  readonly waitNs: number;
}

const ticksToMs = (ticks: number): number => (ticks * 1000) / CLOCK_TICKS_PER_SECOND;

export function parseStat(text: string): ProcStat | null {
  const close = text.lastIndexOf(')');
  if (close === -1) return null;
  const f = text.slice(close + 2).split(' ');
  const n = (i: number): number => Number(f[i]);
  const values = [1, 2, 11, 12, 13, 14].map(n);
  if (values.some((v) => !Number.isFinite(v))) return null;
  return {
    state: f[0] ?? '?',
    ppid: n(1),
    pgid: n(2),
    cpuMs: ticksToMs(n(11) + n(12)),
    childCpuMs: ticksToMs(n(13) + n(14)),
  };
}

export function parseSchedstat(text: string): Schedstat | null {
  const [cpu, wait] = text.trim().split(/\s+/).map(Number);
  if (cpu === undefined || wait === undefined || !Number.isFinite(cpu) || !Number.isFinite(wait)) return null;
  return { cpuNs: cpu, waitNs: wait };
}

/** The process a thread belongs to, from its `/proc/<tid>/status` text; null when absent. */
export function parseStatusTgid(text: string): number | null {
  const m = /^Tgid:\s*(\d+)/m.exec(text);
  return m ? Number(m[1]) : null;
}
