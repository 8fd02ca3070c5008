/**
 * Watches the gate's Vitest child and its workers for a process a signal stopped
 * (core/gate/stopped-process.ts): `check` reads the process table and returns the processes seen
 * stopped on this check and the one before it (a debugger's short stop is not one).
 */
import path from 'node:path';
import type { RunnerLine } from '../../core/gate/runner-protocol.js';
import { stoppedInTree, stoppedVitestMessage, stoppedWorkerError } from '../../core/gate/stopped-process.js';
import { now, type Pacer } from '../load/pacer.js';
import { readProcTable } from '../process/proc.js';
import { killProcessTree } from '../process/process-tree.js';
import type { TryWatchdog } from './try-watchdog.js';

export interface StopWatch {
  /** Reads the process table; a stopped worker's tries fail, a stopped Vitest is killed and kept as `stopped`. */
  check(): void;
  /** Why the job ended, when a process of Vitest's was stopped; else null. */
  readonly stopped: string | null;
}

export function createStopWatch(run: {
  readonly root: () => number | undefined;
  readonly projectRoot: string;
  readonly watchdog: TryWatchdog;
  readonly lines: readonly RunnerLine[];
  /** The call's pacer: the processes its signal pacing stopped are not a test's stop (io/load/pacer.ts). */
  readonly pacer: Pick<Pacer, 'pausedPids'>;
}): StopWatch {
  let before = new Set<number>();
  let stopped: string | null = null;
  const rel = (f: string): string => path.relative(run.projectRoot, f).split(path.sep).join('/');
  return {
    get stopped() {
      return stopped;
    },
    check() {
      const root = run.root();
      if (stopped !== null || root === undefined) return;
      const table = readProcTable();
      const workers = new Set(run.lines.flatMap((l) => (l.kind === 'start' ? [l.pid] : [])));
      const paused = run.pacer.pausedPids();
      const seen = new Set(table === null ? [] : stoppedInTree(root, table, workers).filter((pid) => !paused.has(pid)));
      const seenTwice = [...seen].filter((pid) => before.has(pid));
      before = seen;
      const endAll = (): void => killProcessTree(root);
      stopped = handleStopped(seenTwice, { watchdog: run.watchdog, lines: run.lines, now: now(), rel, endAll });
    },
  };
}

/**
 * What a check's stopped processes mean: a worker with a try open has those tries failed and is
 * killed (the tries go on); any other process (Vitest itself) ends the job: `endAll` kills it, and
 * the message naming it and the test that was running is returned for the caller to throw.
 */
function handleStopped(
  pids: readonly number[],
  run: {
    readonly watchdog: TryWatchdog;
    readonly lines: readonly RunnerLine[];
    readonly now: number;
    readonly rel: (file: string) => string;
    readonly endAll: () => void;
  },
): string | null {
  for (const pid of pids) {
    if (run.watchdog.failWorker(pid, run.now, stoppedWorkerError(pid)) > 0) continue;
    const last = run.lines.findLast((l) => l.kind === 'start');
    run.endAll();
    return stoppedVitestMessage(
      pid,
      last?.kind === 'start' ? { file: run.rel(last.file), fullName: last.fullName } : null,
    );
  }
  return null;
}
