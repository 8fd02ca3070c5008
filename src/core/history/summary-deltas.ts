/**
 * What storing a run adds to the summaries (history-schema-summaries.ts): per result, one delta for
 * every branch ('*') and one for its branch, on its run's day; and, when a pass on a commit turns
 * earlier failures on that commit into re-run-passed runs, one delta per such failure on its own
 * day. Deltas on one key and day are added up (a statement may touch a row once). Pure.
 */
import { isoDayOf } from '../calendar.js';
import { ALL_BRANCHES } from './history-schema-summaries.js';

/** Where a result was: its run's start, platform, shard key and branch. */
export interface DeltaPlace {
  readonly startedAtMs: number;
  readonly platform: string;
  readonly shard: string;
  readonly branch: string | null;
}

export interface StoredResult {
  readonly testId: number;
  readonly runId: number;
  readonly state: string;
  readonly durationMs: number | null;
  readonly flaky: boolean;
  readonly limitMs: number;
}

/** Deltas in columns (the store applies each column as one array). */
export interface SummaryDeltas {
  readonly scope: string[];
  readonly testId: number[];
  readonly platform: string[];
  readonly shard: string[];
  readonly day: string[];
  readonly runs: number[];
  readonly failed: number[];
  readonly retried: number[];
  readonly rerun: number[];
  readonly flaked: number[];
  readonly passed: number[];
  /** The passed run's start (epoch ms), id, limit and duration: null unless it passed with a duration. */
  readonly at: (number | null)[];
  readonly run: (number | null)[];
  readonly limitMs: (number | null)[];
  readonly ms: (number | null)[];
}

const emptyDeltas = (): SummaryDeltas => ({
  scope: [],
  testId: [],
  platform: [],
  shard: [],
  day: [],
  runs: [],
  failed: [],
  retried: [],
  rerun: [],
  flaked: [],
  passed: [],
  at: [],
  run: [],
  limitMs: [],
  ms: [],
});

const scopesOf = (branch: string | null): string[] => (branch === null ? [ALL_BRANCHES] : [ALL_BRANCHES, branch]);

/** The deltas of one stored run; `rerun`: its failed tests that already passed on the same commit. */
export function runDeltas(
  place: DeltaPlace,
  results: readonly StoredResult[],
  rerun: ReadonlySet<number>,
): SummaryDeltas {
  const d = emptyDeltas();
  const day = isoDayOf(place.startedAtMs);
  for (const scope of scopesOf(place.branch)) {
    for (const r of results) {
      const finished = r.state === 'passed' || r.state === 'failed';
      const timed = r.state === 'passed' && r.durationMs !== null;
      d.scope.push(scope);
      d.testId.push(r.testId);
      d.platform.push(place.platform);
      d.shard.push(place.shard);
      d.day.push(day);
      d.runs.push(finished ? 1 : 0);
      d.failed.push(r.state === 'failed' ? 1 : 0);
      d.retried.push(r.state === 'passed' && r.flaky ? 1 : 0);
      d.rerun.push(r.state === 'failed' && rerun.has(r.testId) ? 1 : 0);
      d.flaked.push(finished && (r.state === 'failed' || r.flaky) ? 1 : 0);
      d.passed.push(timed ? 1 : 0);
      d.at.push(timed ? place.startedAtMs : null);
      d.run.push(timed ? r.runId : null);
      d.limitMs.push(timed ? r.limitMs : null);
      d.ms.push(timed ? r.durationMs : null);
    }
  }
  return d;
}

/** One re-run-passed run per earlier failure, on its own key and day, added up per key and day. */
export function rerunDeltas(failures: readonly (DeltaPlace & { readonly testId: number })[]): SummaryDeltas {
  const counts = new Map<string, { f: DeltaPlace & { testId: number }; scope: string; n: number }>();
  for (const f of failures) {
    for (const scope of scopesOf(f.branch)) {
      const key = [scope, f.testId, f.platform, f.shard, isoDayOf(f.startedAtMs)].join('\u0000');
      const entry = counts.get(key);
      if (entry) entry.n += 1;
      else counts.set(key, { f, scope, n: 1 });
    }
  }
  const d = emptyDeltas();
  for (const { f, scope, n } of counts.values()) {
    d.scope.push(scope);
    d.testId.push(f.testId);
    d.platform.push(f.platform);
    d.shard.push(f.shard);
    d.day.push(isoDayOf(f.startedAtMs));
    for (const column of [d.runs, d.failed, d.retried, d.flaked, d.passed]) column.push(0);
    d.rerun.push(n);
    for (const column of [d.at, d.run, d.limitMs, d.ms]) column.push(null);
  }
  return d;
}
