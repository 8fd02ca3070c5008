/**
 * Linux scheduler figures per task: `/proc/<pid>/schedstat` is "cpu time (ns) run-queue wait (ns)
 * timeslices" of the process's main thread. Elsewhere (macOS, no /proc) every reader returns null
 * and the gate says the ambient slowdown could not be measured.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface SchedSample {
  readonly cpuNs: number;
  readonly waitNs: number;
}

function parse(text: string): SchedSample | null {
  const [cpu, wait] = text.trim().split(/\s+/).map(Number);
  if (cpu === undefined || wait === undefined || !Number.isFinite(cpu) || !Number.isFinite(wait)) return null;
  return { cpuNs: cpu, waitNs: wait };
}

export function readSchedstat(path: string): SchedSample | null {
  try {
    return parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/** The calling thread's figures (`/proc/thread-self`), or null. */
export const readOwnSchedstat = (): SchedSample | null => readSchedstat('/proc/thread-self/schedstat');

/** pid -> process group of every process on the machine (Linux), or null without /proc. */
export function listProcessGroups(): Map<number, { pgid: number; ppid: number }> | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  const out = new Map<number, { pgid: number; ppid: number }>();
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(e), { ppid: Number(fields[1]), pgid: Number(fields[2]) });
    } catch {
      // gone
    }
  }
  return out;
}

/** The main-thread figures of every process in group `pgid` by pid, or null without /proc. */
export function readGroupSchedstat(pgid: number): Map<number, SchedSample> | null {
  const groups = listProcessGroups();
  if (groups === null) return null;
  const out = new Map<number, SchedSample>();
  for (const [pid, g] of groups) {
    if (g.pgid !== pgid) continue;
    const s = readSchedstat(`/proc/${pid}/schedstat`);
    if (s !== null) out.set(pid, s);
  }
  return out;
}

/**
 * The machine's slowdown for a CPU-bound task now: spins this thread for `ms` and returns
 * (cpu + wait) / cpu over it, or null without schedstat.
 */
export function probeAmbientSlowdown(ms = 400): number | null {
  const before = readOwnSchedstat();
  if (before === null) return null;
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) x = (x + Math.sqrt(x + 1)) % 1e9;
  const after = readOwnSchedstat();
  if (after === null || x < 0) return null;
  const cpu = after.cpuNs - before.cpuNs;
  const wait = after.waitNs - before.waitNs;
  return cpu > 0 ? Math.round(((cpu + wait) / cpu) * 100) / 100 : null;
}
