/**
 * A process of the gate's tries that a signal stopped (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU: state T
 * in /proc, or t under a tracer) never goes on by itself: a stopped worker's try never ends, and a
 * stopped Vitest runs no more tries, so the gate would wait for its time budget and call the result
 * a shortfall. Seen stopped on two checks in a row (a debugger's short stop is not one), it is named
 * as the cause instead. Pure: the edge reads the process table (io/vitest/stop-watch.ts).
 */
import type { ProcStat } from './proc-text.js';
import { descendantsOf } from './runner-protocol.js';

const STOPPED_STATES = new Set(['T', 't']);

/**
 * `root` and its descendants that are stopped in `table`, root first, but not the processes below a
 * worker (`workers`: the pids of the workers that started tries): those a test started and may stop
 * on purpose are the test's business, and its try's own timeout still holds.
 */
export function stoppedInTree(
  root: number,
  table: ReadonlyMap<number, ProcStat>,
  workers: ReadonlySet<number>,
): number[] {
  const parents = new Map([...table].map(([pid, s]) => [pid, s.ppid]));
  const belowAWorker = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p !== root; p = parents.get(p)) if (workers.has(p)) return true;
    return false;
  };
  return [root, ...descendantsOf(root, parents)].filter(
    (pid) => STOPPED_STATES.has(table.get(pid)?.state ?? '') && !belowAWorker(pid),
  );
}

/** The error of a try whose worker was stopped. */
export function stoppedWorkerError(pid: number): string {
  return `its worker (pid ${pid}) was stopped by a signal (SIGSTOP or a terminal stop: process state T) during the try and never went on; the gate killed it`;
}

/** Why the gate ended: Vitest itself was stopped, while `during` ran (a test, or null). */
export function stoppedVitestMessage(pid: number, during: { file: string; fullName: string } | null): string {
  const where = during === null ? '' : `, during "${during.fullName}" (${during.file})`;
  return `Vitest (pid ${pid}) was stopped by a signal (SIGSTOP or a terminal stop: process state T) while the gate ran its tries${where}, and the gate ended it: a stopped Vitest runs no more tries, so a longer --time-budget would not help; find what stops it (a test that signals its parent process, or job control in the terminal) and run the gate again`;
}
