/** What the edge found in the history store, as plain facts triage reads (core/triage/triage-history.ts). */
import type { HistoryRun } from '../cause/history-cause.js';
import type { CaughtBy } from '../record/ci-context.js';
import type { TestId } from '../test-id.js';

/** One recorded run of a test: its commit (null when the run was not in git) and when it started (ISO). */
export interface HistoryRunFact {
  readonly commit: string | null;
  readonly startedAt: string;
  /** The job label the store keeps (`<run id>-<attempt>/<job>`), or null. */
  readonly job?: string | null;
  /** The check the run came from, when its record carried a CI context. */
  readonly check?: CaughtBy | null;
}

interface HistoryDurationFact {
  /** Start of the run, ms since the epoch. */
  readonly atMs: number;
  readonly durationMs: number;
  readonly limitMs: number;
  readonly platform: string;
}

/** What the store says about one test on one branch (the run being triaged left out). */
export interface TestHistoryFacts extends TestId {
  /** Runs in which it passed or failed, among the newest `TriageHistory.window`. */
  readonly runs: number;
  readonly failedRuns: number;
  /** Runs in which it passed only on a retry, newest first. */
  readonly retried: readonly HistoryRunFact[];
  /** Failed runs that a later run of the same commit passed (a re-run), newest first. */
  readonly rerunPassed: readonly HistoryRunFact[];
  /** The newest run in which it passed, or null. */
  readonly lastPass: HistoryRunFact | null;
  /** The oldest failed run since its last pass (the check that caught it first), or null when none failed since. */
  readonly firstFailure?: HistoryRunFact | null;
  /** Its passed runs with a duration, oldest first. */
  readonly durations: readonly HistoryDurationFact[];
  /** Its passed and failed runs (platform, shard, first error), newest first: the flake's cause (core/cause/history-cause.ts). */
  readonly outcomes?: readonly HistoryRun[];
}

export interface TriageHistory {
  /** The branch the facts are about (the default branch, or --branch). */
  readonly branch: string;
  /** How many of a test's newest runs were read. */
  readonly window: number;
  readonly tests: readonly TestHistoryFacts[];
}
