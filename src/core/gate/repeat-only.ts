/**
 * A test that fails only as a repeat inside one worker: every failure was a warm try (`cold:
 * false`) in a worker whose first run of the test passed, and every repeat there failed from the
 * first one on (its second run in that process), never a cold try. A test that keeps state between runs in one process (a server it starts
 * once, a counter) does that every time; CI runs a test once per process, so it never sees it. A
 * random flake fails at its first repeat only as often as its rate, so the gate needs it twice
 * (the reference tries and the tries without slowdown each stop at a test's first failure) before
 * it leaves those tries out of the verdict (docs/gate.md "How many tries"). Pure.
 */
import type { GateTry } from './runner-protocol.js';

const failed = (t: GateTry): boolean => t.state === 'failed' || t.state === 'hung';

/** Each try's run number in its worker (0: the worker's first run of the test), from pid and start time. */
function runInWorker(tries: readonly GateTry[]): Map<GateTry, number> {
  const byWorker = new Map<number, GateTry[]>();
  for (const t of tries) if (t.pid !== undefined) byWorker.set(t.pid, [...(byWorker.get(t.pid) ?? []), t]);
  const out = new Map<GateTry, number>();
  for (const runs of byWorker.values()) {
    const ordered = [...runs].sort((a, b) => (a.startedAt ?? 0) - (b.startedAt ?? 0));
    for (const [i, t] of ordered.entries()) out.set(t, i);
  }
  return out;
}

/**
 * The failures of these tries, when each came in a worker whose first run of the test (cold)
 * passed and whose every later run of it (its repeats) failed, from the first repeat on; else null.
 * A random flake that fails 1 time in 10 fails two repeats in a row from the first one 1 time in 100.
 */
export function repeatOnlyFailures(tries: readonly GateTry[]): number | null {
  const failures = tries.filter(failed);
  if (failures.length === 0) return 0;
  const run = runInWorker(tries);
  const workers = new Set(failures.map((t) => t.pid));
  for (const pid of workers) {
    if (pid === undefined) return null;
    const runs = tries.filter((t) => t.pid === pid).sort((a, b) => (run.get(a) ?? 0) - (run.get(b) ?? 0));
    const [first, ...repeats] = runs;
    if (first?.cold !== true || first.state !== 'passed' || repeats.length === 0) return null;
    if (!repeats.every((t) => t.cold === false && failed(t))) return null;
  }
  return failures.length;
}

/** Seen at least this many times, failures only as repeats are no flake CI sees. */
const REPEAT_ONLY_SEEN = 2;

/**
 * The tries a verdict counts for a test that fails only as a repeat (seen REPEAT_ONLY_SEEN times
 * over the reference tries and the tries without slowdown): its cold ones. Null: count them all.
 */
export function leaveOutRepeatFailures(
  reference: readonly GateTry[],
  idle: readonly GateTry[] | null,
): { reference: GateTry[]; idle: GateTry[] | null; seen: number } | null {
  const ref = repeatOnlyFailures(reference);
  const without = idle === null ? 0 : repeatOnlyFailures(idle);
  if (ref === null || without === null || ref + without < REPEAT_ONLY_SEEN || ref === 0) return null;
  const cold = (tries: readonly GateTry[]) => tries.filter((t) => t.cold !== false);
  return { reference: cold(reference), idle: idle === null ? null : cold(idle), seen: ref + without };
}
