/**
 * Linux /proc texts, parsed in one place: pure, every reader hands the text it read (the runner
 * inside Vitest's workers, io/process/proc.ts, io/load/ for priorities and cgroups).
 * - `/proc/<pid>/stat`: after the name in parentheses (which may hold spaces and parentheses: the
 *   last ')' ends it), "state ppid pgrp ... utime(11) stime(12) cutime(13) cstime(14)" (0-based
 *   after the name), times in clock ticks (100 per second).
 * - `/proc/<pid>/task/<tid>/schedstat`: "cpu time (ns) run-queue wait (ns) timeslices".
 * - `/proc/<tid>/status`: "Key:\tvalue" lines; `Tgid` is the process a thread belongs to.
 * - `/proc/<pid>/cgroup`: "id:controllers:path" lines (v2: "0::/path").
 * - `/proc/<pid>/autogroup`: "/autogroup-2180 nice 0".
 * - `/proc/mounts`: "source mount-point type options dump pass" lines.
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

/**
 * pid -> stat of every process whose text parsed, from (pid, `/proc/<pid>/stat` text) pairs (a
 * text null: the process was gone when read). The one table every reader builds.
 */
export function parseProcTable(stats: Iterable<readonly [number, string | null]>): Map<number, ProcStat> {
  const table = new Map<number, ProcStat>();
  for (const [pid, text] of stats) {
    const stat = text === null ? null : parseStat(text);
    if (stat !== null) table.set(pid, stat);
  }
  return table;
}

/** pid -> parent pid, for core/gate/runner-protocol.ts descendantsOf. */
export const parentsOf = (table: ReadonlyMap<number, ProcStat>): Map<number, number> =>
  new Map([...table].map(([pid, s]) => [pid, s.ppid]));

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

export interface CgroupLine {
  /** The hierarchy's id: 0 for cgroup2. */
  readonly id: number;
  /** The v1 controllers of the hierarchy ("cpu", "cpuacct"); empty for cgroup2. */
  readonly controllers: readonly string[];
  readonly path: string;
}

/** The lines of a `/proc/<pid>/cgroup` text; a path may hold ':' (only the first two split). */
export function parseCgroupLines(text: string): CgroupLine[] {
  return text.split('\n').flatMap((line): CgroupLine[] => {
    const a = line.indexOf(':');
    const b = a === -1 ? -1 : line.indexOf(':', a + 1);
    const id = Number(line.slice(0, a));
    if (b === -1 || !Number.isInteger(id)) return [];
    const controllers = line.slice(a + 1, b);
    return [{ id, controllers: controllers === '' ? [] : controllers.split(','), path: line.slice(b + 1) }];
  });
}

/** The cgroup path of a process in the v1 `cpu` hierarchy or in cgroup2, from its cgroup lines; null when it has none there. */
export function cgroupPathOf(lines: readonly CgroupLine[], kind: 'v1' | 'v2'): string | null {
  const line = lines.find((l) =>
    kind === 'v2' ? l.id === 0 && l.controllers.length === 0 : l.controllers.includes('cpu'),
  );
  return line && line.path !== '' ? line.path : null;
}

/** The autogroup a process is in and the group's nice, from its `/proc/<pid>/autogroup` text; null when it does not parse. */
export function parseAutogroup(text: string): { readonly name: string; readonly nice: number } | null {
  const m = /^(\S+)\s+nice\s+(-?\d+)/.exec(text);
  return m?.[1] && m[2] ? { name: m[1], nice: Number(m[2]) } : null;
}

export interface MountLine {
  readonly at: string;
  readonly type: string;
  readonly options: readonly string[];
}

/** The mounts of a `/proc/mounts` text. */
export function parseMounts(text: string): MountLine[] {
  return text.split('\n').flatMap((line): MountLine[] => {
    const [, at, type, options] = line.split(' ');
    return at && type ? [{ at, type, options: (options ?? '').split(',') }] : [];
  });
}
