/**
 * Triage's questions to the history store: for each failed or slow test, its newest runs on the
 * default branch, whether it failed and then passed without a change of code, and its last green
 * run. Returns plain facts (core/triage/triage-history.ts) or why history was not used; a store that
 * is down, locked or refused never stops triage.
 */
import type { HistoryRun } from '../../core/cause/history-cause.js';
import type { HistoryConfig } from '../../core/history/history-config.js';
import type { TestId } from '../../core/test-id.js';
import { checkOfRecord } from '../../core/triage/triage-caught-by.js';
import type { HistoryRunFact, TestHistoryFacts, TriageHistory } from '../../core/triage/triage-history.js';
import { findDefaultBranch } from '../git/git.js';
import { describeTarget, openHistoryStore, type Queryable, resolveHistoryTarget } from '../history/history-store.js';
import { failedThenPassed, lastPassingRun, lastRunsOfTest, type StoredTestRun } from '../history/test-history.js';
import type { ProjectPlaces } from '../places/project-places.js';

/** How many of a test's newest runs triage reads. */
const TRIAGE_HISTORY_WINDOW = 200;

export interface TriageHistoryRequest {
  readonly places: ProjectPlaces;
  readonly config: HistoryConfig;
  /** --history (true), --no-history (false), or neither (the configuration decides). */
  readonly force: boolean | undefined;
  /** --branch, else the default branch of the checkout. */
  readonly branch: string | undefined;
  readonly tests: readonly TestId[];
  /** Run ids of the run being triaged: its own results are not its history. */
  readonly excludeRunIds: ReadonlySet<string>;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export type TriageHistoryOutcome =
  | { readonly kind: 'off' }
  | { readonly kind: 'used'; readonly history: TriageHistory; readonly where: string }
  | { readonly kind: 'not-used'; readonly where: string | null; readonly reason: string };

/** `origin/main` -> `main`: the store keeps branch names as CI and git name the checked-out branch. */
export function branchName(ref: string): string {
  const slash = ref.indexOf('/');
  return slash === -1 ? ref : ref.slice(slash + 1);
}

const fact = (r: StoredTestRun): HistoryRunFact => ({
  commit: r.commit,
  startedAt: r.startedAt,
  job: r.job,
  check: r.ci === null ? null : (checkOfRecord({ ci: r.ci, shard: null }) ?? null),
});

/** A passed or failed run as the cause rules read it (core/cause/history-cause.ts). */
const historyRun = (r: StoredTestRun): HistoryRun => ({
  platform: r.platform,
  shard: r.shardIndex === null || r.shardCount === null ? null : `${r.shardIndex}/${r.shardCount}`,
  state: r.state === 'failed' ? 'failed' : 'passed',
  flaky: r.flaky,
  error: r.firstError,
});

/** The oldest failed run since the newest pass: the run whose check caught the failure first. */
function firstFailureOf(counted: readonly StoredTestRun[]): StoredTestRun | null {
  const sincePass = counted.findIndex((r) => r.state === 'passed');
  const streak = sincePass === -1 ? counted : counted.slice(0, sincePass);
  return streak.filter((r) => r.state === 'failed').at(-1) ?? null;
}

async function factsOfTest(
  store: Queryable,
  test: TestId,
  branch: string,
  exclude: ReadonlySet<string>,
): Promise<TestHistoryFacts> {
  const keep = (r: StoredTestRun): boolean => !exclude.has(r.runId);
  const runs = (await lastRunsOfTest(store, test, { branch, limit: TRIAGE_HISTORY_WINDOW })).filter(keep);
  const counted = runs.filter((r) => r.state === 'passed' || r.state === 'failed');
  const flaky = await failedThenPassed(store, test, { branch, limit: TRIAGE_HISTORY_WINDOW });
  const newest = await lastPassingRun(store, test, { branch });
  const firstFailure = firstFailureOf(counted);
  const lastPass = newest !== null && keep(newest) ? newest : (counted.find((r) => r.state === 'passed') ?? null);
  return {
    project: test.project,
    file: test.file,
    fullName: test.fullName,
    runs: counted.length,
    failedRuns: counted.filter((r) => r.state === 'failed').length,
    retried: flaky.retried.filter(keep).map(fact),
    rerunPassed: flaky.rerun
      .filter((p) => keep(p.failed) && keep(p.passed))
      .map((p) => fact(p.failed))
      .reverse(),
    lastPass: lastPass === null ? null : fact(lastPass),
    firstFailure: firstFailure === null ? null : fact(firstFailure),
    durations: counted
      .filter((r) => r.state === 'passed' && r.durationMs !== null)
      .map((r) => ({
        atMs: Date.parse(r.startedAt),
        durationMs: r.durationMs as number,
        limitMs: r.limitMs,
        platform: r.platform,
      }))
      .reverse(),
    outcomes: counted.map(historyRun),
  };
}

const reasonOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/** Asks the store, or says why it was not asked. Throws only on a bad FLAKEGUARD_HISTORY_URL (bad input, exit 2). */
export async function readTriageHistory(request: TriageHistoryRequest): Promise<TriageHistoryOutcome> {
  if (request.force === false) return { kind: 'off' };
  const configured = resolveHistoryTarget(request.places, request.config, request.env);
  const target =
    configured ?? (request.force === true ? resolveHistoryTarget(request.places, { kind: 'embedded' }, {}) : null);
  if (target === null) return { kind: 'off' };
  const where = describeTarget(target);
  const ref = request.branch ?? (await findDefaultBranch(request.places.root));
  if (ref === null)
    return {
      kind: 'not-used',
      where,
      reason:
        'no default branch found in the checkout (no origin/HEAD, origin/main, origin/master, main or master); pass --branch <name>',
    };
  const branch = request.branch ?? branchName(ref);
  let store;
  try {
    store = await openHistoryStore(target, { mustExist: true, wait: 'test-run' });
  } catch (error) {
    return { kind: 'not-used', where, reason: reasonOf(error) };
  }
  try {
    const tests: TestHistoryFacts[] = [];
    for (const t of request.tests) tests.push(await factsOfTest(store, t, branch, request.excludeRunIds));
    return {
      kind: 'used',
      where,
      history: { branch, window: TRIAGE_HISTORY_WINDOW, tests: tests.filter((t) => t.runs > 0) },
    };
  } catch (error) {
    return { kind: 'not-used', where, reason: reasonOf(error) };
  } finally {
    await store.close().catch(() => undefined);
  }
}
