/**
 * Tries that began and never ended: a `start` line in the results file with no `try` line of the
 * same test from the same worker once the wave that ran it is over. Its worker ended during the try
 * (killed by a signal, the process aborted, an error in the worker that Vitest reported as
 * unhandled), so the try failed, with that error: it is recorded as a failed try, never left out
 * (a check that ran always has its result) and never waited for as a hang. Pure.
 */
import { clipText } from '../excerpt.js';
import { tupleKey } from '../tuple-key.js';
import type { RunnerLine } from './runner-protocol.js';

type StartLine = Extract<RunnerLine, { kind: 'start' }>;
type TryLine = Extract<RunnerLine, { kind: 'try' }>;

/** The start of the error a try that did not finish records. */
export const WORKER_ENDED = 'its worker ended during the try';

const key = (l: { key: string }, pid: number | undefined): string => tupleKey([l.key, pid ?? 0]);

/**
 * A failed `try` line for every `start` in `lines` that has no `try` (same test, same worker).
 * `errors`: what Vitest reported as unhandled in the wave (the worker's end, first lines); `nowMs`:
 * the wave's end in the workers' clock (performance.timeOrigin + performance.now()), the latest
 * the try can have ended.
 */
export function unfinishedTries(lines: readonly RunnerLine[], errors: readonly string[], nowMs: number): TryLine[] {
  const ended = new Set(lines.flatMap((l) => (l.kind === 'try' ? [key(l, l.try.pid)] : [])));
  const starts = lines.filter((l): l is StartLine => l.kind === 'start' && !ended.has(key(l, l.pid)));
  const unique = [...new Set(errors)];
  const why = unique.length === 0 ? 'Vitest reported no error' : unique.map((e) => clipText(e, 200)).join('; ');
  return starts.map((s) => ({
    kind: 'try',
    file: s.file,
    project: s.project,
    fullName: s.fullName,
    key: s.key,
    try: {
      state: 'failed',
      durationMs: Math.max(0, nowMs - s.startedAt),
      cpuMs: 0,
      cold: true,
      startedAt: s.startedAt,
      pid: s.pid,
      ...(s.tid === undefined ? {} : { tid: s.tid }),
      error: `${WORKER_ENDED} (pid ${s.pid}): ${why}`,
    },
  }));
}
