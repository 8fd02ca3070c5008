/**
 * Triage inputs for the core triage tests, built once: an observed failed test, the inputs around it,
 * a scanned log, history facts and a re-run. Each test file overrides only what it is about.
 */
import { computeTriage } from '../../../src/core/triage/triage.js';
import type { TestHistoryFacts } from '../../../src/core/triage/triage-history.js';
import { BUILT_IN_SIGNATURES } from '../../../src/core/triage/triage-signatures.js';
import type {
  LogEvent,
  LogScan,
  ObservedTest,
  RerunResult,
  TriageInputs,
} from '../../../src/core/triage/triage-types.js';

export const FILE = 'test/a.test.ts';
export const NAME = 'grp > t';

/** A test the report saw fail once: `grp > t` in test/a.test.ts, line 3, 12 ms. */
export function makeObservedTest(over: Partial<ObservedTest> = {}): ObservedTest {
  return {
    kind: 'test',
    project: null,
    file: FILE,
    fullName: NAME,
    line: 3,
    state: 'failed',
    durationMs: 12,
    errors: ['AssertionError: expected 1 to be 2'],
    limitMs: null,
    source: 'report',
    origin: 'r.json: entry',
    ...over,
  };
}

/** Inputs of a red run (exit code 1 from --exit-code) with nothing observed, no re-runs. */
export function makeTriageInputs(over: Partial<TriageInputs> = {}): TriageInputs {
  return {
    tests: [],
    files: [],
    unhandled: [],
    excesses: [],
    problems: [],
    logs: [],
    exitCode: 1,
    exitCodeOrigin: '--exit-code',
    reruns: null,
    rerunCount: 0,
    ...over,
  };
}

/** Triage of `makeTriageInputs(over)` with the built-in signatures. */
export const triageOf = (over: Partial<TriageInputs>) => computeTriage(makeTriageInputs(over), BUILT_IN_SIGNATURES);

/** A scanned log holding `events`, counted by signature id. */
export function makeLogScan(
  events: readonly LogEvent[],
  over: { input?: string; lines?: number; tail?: LogScan['tail'] } = {},
): LogScan {
  const counts: Record<string, number> = {};
  for (const e of events) counts[e.id] = (counts[e.id] ?? 0) + 1;
  return { input: over.input ?? 'ci.log', lines: over.lines ?? 100, events, counts, tail: over.tail ?? [] };
}

/** History of one test on main: 40 runs, none failed, last passed at a1b2c3d4e5f6a7b8. */
export function makeHistoryFacts(over: Partial<TestHistoryFacts> = {}): TestHistoryFacts {
  return {
    project: null,
    file: FILE,
    fullName: NAME,
    runs: 40,
    failedRuns: 0,
    retried: [],
    rerunPassed: [],
    lastPass: { commit: 'a1b2c3d4e5f6a7b8', startedAt: '2026-11-29T10:15:00.000Z' },
    durations: [],
    ...over,
  };
}

/** A re-run of `grp > t` in which `failed` of `runs` failed. */
export function makeRerun(failed: number, runs: number, over: Partial<RerunResult> = {}): RerunResult {
  return { project: null, file: FILE, fullName: NAME, runs, failed, notRun: 0, firstError: null, ...over };
}
