/**
 * The history report's rows from the summaries (schema 6, history-schema-key-totals.ts): per key
 * (test, platform, shard) its counts over the window, the key's totals less its newest day row
 * before the window (one index probe a key, read from the day table's index alone).
 *
 * Only the counts that can change the report are probed (issue 38). A key whose test never failed
 * nor flaked in the scope (every key's totals say so) has none in the window either: its failed and
 * flaky counts are 0 exactly, and of its runs the default report needs to know only that it passed
 * in the window (its newest timed pass, also in the key row). Such rows come with their totals as
 * upper bounds and `countsUnread`; they are never listed as flaky, and the tests that may be listed
 * for their durations are read again whole (readExactRows, with their durations), as
 * durations-needed.ts chooses. A filtered report ($5) counts every key. On the 20 M bench store
 * 9 in 10 keys are such: 12,000 probes were 45 of 80 ms of this read.
 */
import type { SummaryRow } from '../../core/history/history-summary.js';
import { numbersOfArrayText, numbersOfNestedArrayText, stringsOfArrayText } from './array-text.js';
import type { Queryable } from './history-store.js';

/**
 * Key k's newest day row before the window's first day ($2), as b: what the window subtracts;
 * probed only where `gate` (over k) holds, else b is null.
 */
export const windowFloor = (gate = 'true') => `LEFT JOIN LATERAL (SELECT d.runs, d.failed_runs, d.retried_runs,
      d.rerun_passed_runs, d.flaked_runs, d.passed_runs
    FROM flakeguard_test_days d WHERE ${gate} AND d.scope = k.scope AND d.test_id = k.test_id AND d.platform = k.platform
      AND d.shard = k.shard AND d.day < $2::date
    ORDER BY d.day DESC LIMIT 1) b ON true`;

/** A test's keys packed (over k, its counted flag, and b, its floor): see SUMMARY_SQL. */
const PACKED_KEYS = `k.test_id AS "testId", t.project, t.file, t.name AS "fullName",
    array_agg(k.platform)::text AS platforms, array_agg(k.shard)::text AS shards, array_agg(ARRAY[(NOT k.counted)::int,
    k.runs - coalesce(b.runs, 0), k.failed_runs - coalesce(b.failed_runs, 0), k.retried_runs - coalesce(b.retried_runs, 0),
    k.rerun_passed_runs - coalesce(b.rerun_passed_runs, 0), k.flaked_runs - coalesce(b.flaked_runs, 0),
    k.passed_runs - coalesce(b.passed_runs, 0), k.last_passed_at, k.last_passed_run, k.last_limit_ms,
    k.recent_low, k.recent_high, k.recent_newest]::float8[])::text AS numbers`;

// One row a test, its keys unsorted: core puts the tests in the order of their names in code
// points (summarizeTests), the same on both engines whatever the locale (sorting 12,000 rows here
// took 45 of 125 ms at 20 M results). The bounds of the durations, not the durations. A test's keys
// come as arrays (their platforms, shards and numbers: KEY_NUMBERS a key, in rowsOf's order), which
// one pass over the group fills alike: 12,000 rows of 19 fields cost PGlite's result parser about
// 320 ms (it copies every field) and node-postgres 30 ms; 2,000 rows of 7 fields, a third of that.
// $1 scope, $2 the window's first day, $3 part of the name, $4 a file or folder, $5 count every
// key, $6 the window's start (epoch ms).
const SUMMARY_SQL = `SELECT ${PACKED_KEYS}
  FROM (SELECT k.scope, k.test_id, k.platform, k.shard, k.runs, k.failed_runs, k.retried_runs, k.rerun_passed_runs,
      k.flaked_runs, k.passed_runs, k.last_passed_at, k.last_passed_run, k.last_limit_ms, k.recent_low, k.recent_high,
      k.recent_newest, $5::boolean OR bool_or(k.failed_runs + k.retried_runs + k.rerun_passed_runs + k.flaked_runs > 0)
      OVER (PARTITION BY k.test_id) AS counted
    FROM flakeguard_test_keys k WHERE k.scope = $1) k
  JOIN flakeguard_tests t ON t.id = k.test_id
  ${windowFloor('k.counted')}
  WHERE CASE WHEN k.counted THEN k.runs - coalesce(b.runs, 0) > 0 ELSE k.last_passed_at >= $6::float8 END
    AND ($3::text IS NULL OR strpos(t.name, $3) > 0)
    AND ($4::text IS NULL OR t.file = $4 OR left(t.file, length($4) + 1) = $4 || '/')
  GROUP BY k.test_id, t.project, t.file, t.name`;

/** Numbers a key's row packs: countsUnread, then the 12 of SummaryRow from runs to recentNewest. */
const KEY_NUMBERS = 13;

interface PackedTest {
  readonly testId: number;
  readonly project: string;
  readonly file: string;
  readonly fullName: string;
  readonly platforms: string;
  readonly shards: string;
  readonly numbers: string;
}

export interface SummaryFilter {
  readonly scope: string;
  readonly day: string;
  readonly fullNamePart: string | null;
  readonly file: string | null;
  /** Count every key (a filtered report). */
  readonly countAll: boolean;
  readonly startMs: number;
}

/** A packed test's rows, one a key; `recent`: each key's newest durations and starts, when read. */
function rowsOf(t: PackedTest, recent: { readonly ms: string; readonly at: string } | null): SummaryRow[] {
  const platforms = stringsOfArrayText(t.platforms) as string[];
  const shards = stringsOfArrayText(t.shards) as string[];
  const n = numbersOfNestedArrayText(t.numbers);
  const ms = recent?.ms.split(';');
  const at = recent?.at.split(';');
  return platforms.map((platform, k) => {
    const from = k * KEY_NUMBERS;
    const count = (i: number): number => n[from + i] ?? 0;
    return {
      testId: t.testId,
      project: t.project,
      file: t.file,
      fullName: t.fullName,
      platform,
      shard: shards[k]!,
      countsUnread: n[from] === 1,
      runs: count(1),
      failedRuns: count(2),
      retriedRuns: count(3),
      rerunPassedRuns: count(4),
      flakedRuns: count(5),
      passedRuns: count(6),
      lastPassedAt: n[from + 7] ?? null,
      lastPassedRun: n[from + 8] ?? null,
      lastLimitMs: n[from + 9] ?? null,
      recentLow: n[from + 10] ?? null,
      recentHigh: n[from + 11] ?? null,
      recentNewest: n[from + 12] ?? null,
      // Undefined when not read (SummaryRow: the bounds stand for them); one shape either way.
      recentMs: ms === undefined ? undefined : numbersOfArrayText(ms[k] || null),
      recentAt: at === undefined ? undefined : numbersOfArrayText(at[k] || null),
    };
  });
}

/**
 * The report's rows of the window (SUMMARY_SQL), one a key, a test's together; each test's made
 * as it is asked for (summarizeTests folds them one test at a time: 12,000 row objects alive at
 * once made each young-generation collection copy them).
 */
export async function readSummaryTests(q: Queryable, f: SummaryFilter): Promise<Iterable<SummaryRow[]>> {
  const packed = await q.query<PackedTest>(SUMMARY_SQL, [
    f.scope,
    f.day,
    f.fullNamePart,
    f.file,
    f.countAll,
    f.startMs,
  ]);
  return (function* () {
    for (const t of packed) yield rowsOf(t, null);
  })();
}

// Every key of the tests $3 with its counts and its newest durations (each key's array text, or
// empty without one, joined by ';', which array text does not hold).
const EXACT_SQL = `SELECT ${PACKED_KEYS}, string_agg(coalesce(k.recent_ms::text, ''), ';') AS "recentMs",
    string_agg(coalesce(k.recent_at::text, ''), ';') AS "recentAt"
  FROM (SELECT k.*, true AS counted FROM flakeguard_test_keys k WHERE k.scope = $1 AND k.test_id = ANY($3::int[])) k
  JOIN flakeguard_tests t ON t.id = k.test_id
  ${windowFloor()}
  WHERE k.runs - coalesce(b.runs, 0) > 0
  GROUP BY k.test_id, t.project, t.file, t.name`;

/** The rows of the tests `ids`, every key counted, with their durations. */
export async function readExactRows(
  q: Queryable,
  scope: string,
  day: string,
  ids: readonly number[],
): Promise<SummaryRow[]> {
  if (ids.length === 0) return [];
  const packed = await q.query<PackedTest & { recentMs: string; recentAt: string }>(EXACT_SQL, [scope, day, ids]);
  return packed.flatMap((t) => rowsOf(t, { ms: t.recentMs, at: t.recentAt }));
}
