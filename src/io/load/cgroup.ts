/**
 * cgroup CPU quotas for the gate's paced workers (Linux): one folder per gate call under the CPU
 * controller (v2 `cpu.max` where the controller is delegated to flakeguard's cgroup, else v1
 * `cpu.cfs_quota_us`/`cpu.cfs_period_us`), one sub-folder per test worker with quota = period / F,
 * so the kernel keeps the worker's whole tree (its threads, the processes it starts, detached ones
 * too) at or below wall / F. The call folder gets a high CPU weight (v1 cpu.shares 8192, v2
 * cpu.weight 800: 8x the default), so the quota, not the machine's other load, sets the pace.
 * Everything is removed when the call ends, and at exit (Ctrl-C included) by a hook.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cgroupQuota } from '../../core/gate/pacer.js';
import { cgroupPathOf, parseCgroupLines, parseMounts } from '../../core/gate/proc-text.js';

export interface CgroupPlace {
  readonly version: 1 | 2;
  /** The cgroup flakeguard itself is in: processes go back there before the folders are removed. */
  readonly home: string;
  /** This call's folder. */
  readonly dir: string;
  /** What was done to the weight, as the report says it. */
  readonly weight: string;
}

const live = new Set<CgroupPlace>();
let hooked = false;
let counter = 0;

function read(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The mount point of the v1 `cpu` controller, or of cgroup2, from /proc/mounts. */
function mountOf(kind: 'v1' | 'v2'): string | null {
  const mount = parseMounts(read('/proc/mounts') ?? '').find((m) =>
    kind === 'v2' ? m.type === 'cgroup2' : m.type === 'cgroup' && m.options.includes('cpu'),
  );
  return mount?.at ?? null;
}

/** flakeguard's own cgroup path in a hierarchy (/proc/self/cgroup: "id:controllers:path"). */
function ownPath(kind: 'v1' | 'v2'): string {
  return cgroupPathOf(parseCgroupLines(read('/proc/self/cgroup') ?? ''), kind) ?? '/';
}

/** Folders a flakeguard that was killed outright (SIGKILL: no exit hook) left behind: removed when empty. */
function removeStale(home: string): void {
  for (const name of listSubdirs(home)) {
    const pid = Number(/^flakeguard-(\d+)-\d+$/.exec(name)?.[1]);
    if (!pid || pid === process.pid || existsSync(`/proc/${pid}`)) continue;
    const dir = path.join(home, name);
    for (const sub of listSubdirs(dir)) {
      try {
        rmdirSync(path.join(dir, sub));
      } catch {
        // still has processes: left alone
      }
    }
    try {
      rmdirSync(dir);
    } catch {
      // still busy
    }
  }
}

/**
 * The CPU weight of a call's folder: 8x the default for paced workers (the quota, not the
 * neighbours, sets their pace), the kernel's maximum for tries without slowdown (the machine's own
 * load must not slow them: a try "without slowdown" that a busy machine runs at x1.9 says nothing
 * about x1).
 */
const WEIGHTS = {
  paced: { v1: 8192, v2: 800, text: '8x the default' },
  unslowed: { v1: 262_144, v2: 10_000, text: 'the maximum' },
} as const;
export type CgroupWeight = keyof typeof WEIGHTS;

function makeDir(home: string, version: 1 | 2, weight: CgroupWeight): CgroupPlace {
  removeStale(home);
  counter += 1;
  const dir = path.join(home, `flakeguard-${process.pid}-${counter}`);
  mkdirSync(dir);
  const w = WEIGHTS[weight];
  if (version === 2) {
    writeFileSync(path.join(dir, 'cgroup.subtree_control'), '+cpu');
    writeFileSync(path.join(dir, 'cpu.weight'), String(w.v2));
  } else writeFileSync(path.join(dir, 'cpu.shares'), String(w.v1));
  const text = version === 2 ? `cpu.weight ${w.v2} (${w.text})` : `cpu.shares ${w.v1} (${w.text})`;
  return { version, home, dir, weight: text };
}

/** A folder for this call, or why none can be made (the signal pacer runs then). */
export function openCgroupPlace(weight: CgroupWeight = 'paced'): { place: CgroupPlace } | { why: string } {
  const reasons: string[] = [];
  const v2 = mountOf('v2');
  if (v2) {
    const home = path.join(v2, ownPath('v2'));
    const control = read(path.join(home, 'cgroup.subtree_control')) ?? '';
    if (control.split(/\s+/).includes('cpu')) {
      try {
        return { place: track(makeDir(home, 2, weight)) };
      } catch (e) {
        reasons.push(`cgroup v2 at ${home}: ${(e as Error).message}`);
      }
    } else
      reasons.push(
        `cgroup v2 at ${home} has no cpu controller delegated (cgroup.subtree_control: "${control.trim()}")`,
      );
  } else reasons.push('no cgroup v2 mount');
  const v1 = mountOf('v1');
  if (!v1) return { why: [...reasons, 'no cgroup v1 cpu controller mounted'].join('; ') };
  const home = path.join(v1, ownPath('v1'));
  try {
    return { place: track(makeDir(home, 1, weight)) };
  } catch (e) {
    reasons.push(`cgroup v1 at ${home}: ${(e as Error).message} (needs root or a delegated cpu controller)`);
    return { why: reasons.join('; ') };
  }
}

function track(place: CgroupPlace): CgroupPlace {
  live.add(place);
  if (!hooked) {
    hooked = true;
    process.on('exit', () => {
      for (const p of live) removeCgroupPlace(p);
    });
  }
  return place;
}

/**
 * Puts a worker (a process, or on v1 one thread: Vitest's threads pool) in a folder of its own with
 * quota = period / factor. Returns the folder, or why it could not.
 */
export function addWorkerCgroup(
  place: CgroupPlace,
  pid: number,
  tid: number,
  factor: number,
): { dir: string } | { why: string } {
  const thread = tid !== pid;
  if (thread && place.version === 2) return { why: 'cgroup v2 cannot hold one thread of a process (pool: threads)' };
  const dir = path.join(place.dir, `w${tid}`);
  try {
    mkdirSync(dir);
    if (factor > 1) {
      const { quotaUs, periodUs } = cgroupQuota(factor);
      if (place.version === 2) writeFileSync(path.join(dir, 'cpu.max'), `${quotaUs} ${periodUs}`);
      else {
        writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(periodUs));
        writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quotaUs));
      }
    }
    writeFileSync(path.join(dir, thread ? 'tasks' : 'cgroup.procs'), String(thread ? tid : pid));
    return { dir };
  } catch (e) {
    return { why: `cgroup ${dir}: ${(e as Error).message}` };
  }
}

/** The threads in a worker's folder (v1 `tasks`; v2: every thread of the processes in `cgroup.procs`). */
export function listCgroupMembers(dir: string, version: 1 | 2): { pids: number[]; tids: number[] | null } {
  const ids = (file: string): number[] =>
    (read(path.join(dir, file)) ?? '')
      .split('\n')
      .filter((l) => l !== '')
      .map(Number);
  return { pids: ids('cgroup.procs'), tids: version === 1 ? ids('tasks') : null };
}

/** Moves what is left back home and removes the folders. Never throws. */
export function removeCgroupPlace(place: CgroupPlace): void {
  live.delete(place);
  if (!existsSync(place.dir)) return;
  const subs = listSubdirs(place.dir).map((s) => path.join(place.dir, s));
  for (const dir of [...subs, place.dir]) {
    const file = place.version === 1 ? 'tasks' : 'cgroup.procs';
    for (const id of (read(path.join(dir, file)) ?? '').split('\n').filter((l) => l !== '')) {
      try {
        appendFileSync(path.join(place.home, file), id);
      } catch {
        // gone
      }
    }
    try {
      rmdirSync(dir);
    } catch {
      // still busy: the exit hook tries again
    }
  }
}

function listSubdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch {
    return [];
  }
}
