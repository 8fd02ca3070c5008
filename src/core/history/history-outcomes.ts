/**
 * The runs the history report's cause rules read (core/cause/history-cause.ts) for the tests it may
 * show with flaky runs: per key (platform and shard) of the summaries, its flaked runs with the
 * errors the store gives for them, then its clean passes as one entry. Pure.
 */
import type { HistoryRun } from '../cause/history-cause.js';
import type { TestHistoryRun } from './history-report.js';
import type { OutcomeGroup } from './history-summary.js';

/** A flaked run's first error, oldest first. */
export interface FlakedError {
  readonly testId: number;
  readonly platform: string;
  readonly shard: string;
  readonly error: string;
}

const shardOrder = (s: string): [number, number] => {
  const [k, n] = s.split('/').map(Number);
  return s === '' ? [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY] : [k ?? 0, n ?? 0];
};

/** The runs the cause rules read for `ids`: per group, its flaked runs (with their errors), then its clean passes as one entry. */
export function outcomesOf(
  groups: readonly OutcomeGroup[],
  errors: readonly FlakedError[],
  ids: ReadonlySet<number>,
): TestHistoryRun[] {
  const errorsOf = new Map<string, string[]>();
  for (const e of errors) {
    const key = `${e.testId}\u0000${e.platform}\u0000${e.shard}`;
    errorsOf.set(key, [...(errorsOf.get(key) ?? []), e.error]);
  }
  const chosen = groups
    .filter((g) => ids.has(g.testId))
    .sort((a, b) => {
      const [ak, an] = shardOrder(a.shard);
      const [bk, bn] = shardOrder(b.shard);
      return a.testId - b.testId || (a.platform < b.platform ? -1 : a.platform > b.platform ? 1 : ak - bk || an - bn);
    });
  return chosen.flatMap((g) => {
    const shard = g.shard === '' ? null : g.shard;
    const errs = errorsOf.get(`${g.testId}\u0000${g.platform}\u0000${g.shard}`) ?? [];
    const run = (flaked: boolean, error: string | null): HistoryRun & { testId: number } => ({
      testId: g.testId,
      platform: g.platform,
      shard,
      state: flaked ? 'failed' : 'passed',
      flaky: false,
      error,
    });
    // The clean passes as one entry standing for all of them (HistoryRun.count).
    const clean = g.runs - g.flaked;
    return [
      ...Array.from({ length: g.flaked }, (_, i) => run(true, errs[i] ?? null)),
      ...(clean > 0 ? [{ ...run(false, null), count: clean }] : []),
    ];
  });
}
