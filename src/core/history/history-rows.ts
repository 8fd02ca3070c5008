/**
 * A run record as the rows the history store keeps: one run row and, per test, one result, in
 * columns (the store inserts each column as one array). Pure. Tests are sorted by (project, file,
 * name) so concurrent writers insert new tests in one order and never deadlock, and a test listed
 * twice in a record (a crashed worker re-queued) is kept once.
 */
import { type CiContext, ciJobLabel, guessCiRun } from '../record/ci-context.js';
import type { MachineIdentity } from '../record/machine.js';
import type { RunRecord, TestState } from '../record/run-record.js';
import { testKey } from '../test-id.js';

/** What the record does not say about a run and the edge finds out (CI variables, git). */
export interface RunContext {
  readonly branch: string | null;
  /** The CI job that ran the tests (e.g. GitHub Actions run id, attempt and job), or null. */
  readonly job: string | null;
}

interface HistoryRunRow {
  readonly runId: string;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly platform: string;
  readonly arch: string;
  readonly nodeVersion: string;
  readonly vitestVersion: string;
  readonly branch: string | null;
  readonly commit: string | null;
  readonly job: string | null;
  readonly shardIndex: number | null;
  readonly shardCount: number | null;
  /** The record's CI context (null: outside CI, or a record written before it was recorded). */
  readonly ci: CiContext | null;
  /** The machine it ran on (null: a record written before issue 37). */
  readonly machine: MachineIdentity | null;
  readonly exitReason: string;
  readonly red: boolean;
  readonly testCount: number;
}

/** Results in columns, index i of every array is one test. */
interface HistoryResultColumns {
  readonly project: string[];
  readonly file: string[];
  readonly name: string[];
  readonly state: TestState[];
  readonly durationMs: (number | null)[];
  readonly retries: number[];
  readonly flaky: boolean[];
  readonly limitMs: number[];
  readonly firstError: (string | null)[];
}

export interface HistoryRows {
  readonly run: HistoryRunRow;
  readonly results: HistoryResultColumns;
}

/** First error messages are kept for triage, cut to this many characters. */
const FIRST_ERROR_CHARS = 500;

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function toHistoryRows(record: RunRecord, context: RunContext): HistoryRows {
  const results = toResultColumns(record);
  const red = record.verdict?.red ?? (record.exitCode !== null && record.exitCode !== 0);
  return {
    run: {
      runId: record.runId,
      startedAt: record.startedAt,
      endedAt: record.endedAt,
      platform: record.platform,
      arch: record.arch,
      nodeVersion: record.nodeVersion,
      vitestVersion: record.vitestVersion,
      branch: context.branch,
      commit: record.git.commit,
      job: context.job,
      shardIndex: record.shard?.index ?? null,
      shardCount: record.shard?.count ?? null,
      ci: record.ci ?? null,
      machine: record.machine ?? null,
      exitReason: record.exitReason,
      red,
      testCount: results.file.length,
    },
    results,
  };
}

/** One row per test (project, file, name order; a test recorded twice counts once), as columns. */
function toResultColumns(record: RunRecord): HistoryResultColumns {
  const tests = [...record.tests].sort(
    (a, b) => compare(a.project ?? '', b.project ?? '') || compare(a.file, b.file) || compare(a.fullName, b.fullName),
  );
  const results: HistoryResultColumns = {
    project: [],
    file: [],
    name: [],
    state: [],
    durationMs: [],
    retries: [],
    flaky: [],
    limitMs: [],
    firstError: [],
  };
  let previous: string | null = null;
  for (const t of tests) {
    const identity = testKey({ project: t.project ?? '', file: t.file, fullName: t.fullName });
    if (identity === previous) continue;
    previous = identity;
    results.project.push(t.project ?? '');
    results.file.push(t.file);
    results.name.push(t.fullName);
    results.state.push(t.state);
    results.durationMs.push(t.durationMs);
    results.retries.push(t.retries);
    results.flaky.push(t.flaky);
    results.limitMs.push(t.limitMs);
    const first = t.errors[0]?.message;
    results.firstError.push(first === undefined ? null : first.slice(0, FIRST_ERROR_CHARS));
  }
  return results;
}

/**
 * The branch and job a run is stored under: FLAKEGUARD_BRANCH / FLAKEGUARD_JOB first, then the CI
 * context the record carries, then (records written before it) the guess from the variables of the
 * process that stores it. A null branch is looked up in git by the edge.
 */
export function runContextOf(
  record: Pick<RunRecord, 'ci'>,
  env: Readonly<Record<string, string | undefined>>,
): RunContext {
  const guess = runContextFromEnv(env);
  const ci = record.ci ?? null;
  const pinned = (name: string): string | null => env[name]?.trim() || null;
  return {
    branch: pinned('FLAKEGUARD_BRANCH') ?? ci?.branch ?? guess.branch,
    job: pinned('FLAKEGUARD_JOB') ?? (ci === null ? null : ciJobLabel(ci)) ?? guess.job,
  };
}

/** Branch and CI job from CI variables (each provider's guess, core/record/ci-context.ts); FLAKEGUARD_BRANCH and FLAKEGUARD_JOB first. */
export function runContextFromEnv(env: Readonly<Record<string, string | undefined>>): RunContext {
  const pinned = (name: string): string | null => env[name]?.trim() || null;
  const guess = guessCiRun(env);
  return { branch: pinned('FLAKEGUARD_BRANCH') ?? guess.branch, job: pinned('FLAKEGUARD_JOB') ?? guess.job };
}
