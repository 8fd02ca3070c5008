/**
 * Watches the gate's Vitest child and its workers for a process a signal stopped
 * (core/gate/stopped-process.ts): `check` reads the process table and returns the processes seen
 * stopped on this check and the one before it.
 */
import type { RunnerLine } from '../../core/gate/runner-protocol.js';
import { stoppedInTree, stoppedVitestMessage, stoppedWorkerError } from '../../core/gate/stopped-process.js';
import { readProcTable } from '../process/proc.js';
import type { TryWatchdog } from './try-watchdog.js';

export interface StopWatch {
  /** The stopped processes of the tree of `root` (not below a worker of `lines`), stopped on the check before too. */
  check(root: number | undefined, lines: readonly RunnerLine[]): number[];
}

export function createStopWatch(): StopWatch {
  let before = new Set<number>();
  return {
    check(root, lines) {
      const table = root === undefined ? null : readProcTable();
      const workers = new Set(lines.flatMap((l) => (l.kind === 'start' ? [l.pid] : [])));
      const now = new Set(table === null || root === undefined ? [] : stoppedInTree(root, table, workers));
      const stopped = [...now].filter((pid) => before.has(pid));
      before = now;
      return stopped;
    },
  };
}

/**
 * What a check's stopped processes mean: a worker with a try open has those tries failed and is
 * killed (the tries go on); any other process (Vitest itself) ends the job: `endAll` kills it, and
 * the message naming it and the test that was running is returned for the caller to throw.
 */
export function handleStopped(
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
