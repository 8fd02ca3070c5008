/**
 * The gate's parent side of a try's time: every try the runner starts is watched, and one still
 * running past its ceiling (core/gate/try-ceiling.ts) has its worker's process tree killed and is
 * written to the results file as a `hung` try, so the Vitest child counts it and the report shows it.
 */
import { appendFileSync } from 'node:fs';
import { formatDuration } from '../../core/duration.js';
import { formatRunnerLine, type RunnerLine } from '../../core/gate/runner-protocol.js';
import { tryCeilingMs } from '../../core/gate/try-ceiling.js';
import { tupleKey } from '../../core/tuple-key.js';
import { killProcessTree } from '../process/process-tree.js';

type StartLine = Extract<RunnerLine, { kind: 'start' }>;

export interface TryWatchdog {
  observe(line: RunnerLine): void;
  /** Kills the tries past their ceiling at `now` (performance.timeOrigin + now); returns how many. */
  check(now: number): number;
  /**
   * Kills the worker `pid` and writes each of its open tries as failed with `error` (a worker a
   * signal stopped: core/gate/stopped-process.ts); returns how many tries it had open.
   */
  failWorker(pid: number, now: number, error: string): number;
  /** Pids of the workers killed so far. */
  readonly killed: readonly number[];
}

/** A try in flight: the test's identity and its worker's pid (not a test identity: one per try). */
const tryKey = (l: { key: string }, pid: number | undefined): string => tupleKey([l.key, pid ?? 0]);

/** The line of a try the watchdog ended: hung, or failed because its worker was stopped. */
function endedTry(s: StartLine, now: number, state: 'hung' | 'failed', error: string): RunnerLine {
  return {
    kind: 'try',
    file: s.file,
    project: s.project,
    fullName: s.fullName,
    key: s.key,
    try: { state, durationMs: now - s.startedAt, cpuMs: 0, cold: true, startedAt: s.startedAt, pid: s.pid, error },
  };
}

export function createTryWatchdog(resultsFile: string, factor: number): TryWatchdog {
  const open = new Map<string, StartLine>();
  const killed: number[] = [];
  return {
    killed,
    observe(line) {
      if (line.kind === 'start') open.set(tryKey(line, line.pid), line);
      else if (line.kind === 'try') open.delete(tryKey(line, line.try.pid));
    },
    failWorker(pid, now, error) {
      const mine = [...open].filter(([, s]) => s.pid === pid);
      for (const [k, s] of mine) {
        open.delete(k);
        appendFileSync(resultsFile, formatRunnerLine(endedTry(s, now, 'failed', error)));
      }
      if (mine.length > 0) {
        killProcessTree(pid);
        killed.push(pid);
      }
      return mine.length;
    },
    check(now) {
      let count = 0;
      for (const [k, s] of open) {
        const ceiling = tryCeilingMs(s.timeoutMs, factor);
        if (now - s.startedAt <= ceiling) continue;
        open.delete(k);
        killProcessTree(s.pid);
        killed.push(s.pid);
        count += 1;
        const hung = endedTry(
          s,
          now,
          'hung',
          `hung: still running after ${formatDuration(Math.round(now - s.startedAt))} (ceiling ${formatDuration(ceiling)}: test timeout x${factor} + margin); its worker and the processes it started were killed`,
        );
        appendFileSync(resultsFile, formatRunnerLine(hung));
      }
      return count;
    },
  };
}
