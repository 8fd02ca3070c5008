/**
 * The summaries answer as today's queries did (issue 38): the same runs, stored once, read through
 * the summaries (src/io/history/history-query.ts, test-history.ts) and through today's SQL over
 * every raw result (history-reference.ts), give the same report JSON and the same runs, on both
 * engines. The runs are seeded and realistic at a small size: three platforms, two branches and
 * runs without one, shards, two Vitest projects, re-runs of a commit, flaky, failing and skipped
 * tests, durations with trends near their limits, records stored out of order and twice. At this
 * size (at most 20 passed runs a test and platform in any window) the bounded windows the
 * summaries keep (docs/history.md) hold every run, so the answers must be equal, not close.
 */
import { expect, it } from 'vitest';
import { toHistoryJson } from '../../../src/core/history/history-json.js';
import {
  computeHistoryReport,
  type HistoryQuery,
  type TestAggregate,
} from '../../../src/core/history/history-report.js';
import type { RunRecord } from '../../../src/core/record/run-record.js';
import { readTestCounts } from '../../../src/io/history/history-counts.js';
import { ingestRunRecord } from '../../../src/io/history/history-ingest.js';
import { pruneHistory, readHistoryInput, windowStartMs } from '../../../src/io/history/history-query.js';
import type { HistoryStore } from '../../../src/io/history/history-store.js';
import { lastPassingRun, lastRunsOfTest } from '../../../src/io/history/test-history.js';
import { makeRecord } from '../../core/history/history-factories.js';
import { EMPTY_STORE_SQL } from './empty-store.js';
import { lastPassingRunReference, lastRunsOfTestReference, readHistoryInputReference } from './history-reference.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const DAY_MS = 86_400_000;

/** mulberry32: the same runs on every machine. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const TESTS = [
  { file: 'test/cart.test.ts', name: 'cart > adds', base: 120, slope: 0, flake: 0 },
  { file: 'test/cart.test.ts', name: 'cart > retries', base: 300, slope: 2, flake: 0.2 },
  { file: 'test/cart.test.ts', name: 'cart > totals', base: 80, slope: 0, flake: 0.05, project: 'edge' },
  { file: 'test/api/login.test.ts', name: 'login > waits', base: 3800, slope: 30, flake: 0.1 },
  { file: 'test/api/login.test.ts', name: 'login > port', base: 900, slope: 0, flake: 0.15, error: 'EADDRINUSE :3000' },
  { file: 'test/api/slow.test.ts', name: 'slow > report', base: 4300, slope: 15, flake: 0 },
  { file: 'test/api/slow.test.ts', name: 'slow > export', base: 4700, slope: 0, flake: 0 },
  {
    file: 'test/api/slow.test.ts',
    name: 'slow > timeout',
    base: 2000,
    slope: 0,
    flake: 0.1,
    error: 'Test timed out in 5000ms',
  },
  { file: 'test/ui/menu.test.ts', name: 'menu > opens', base: 40, slope: 0, flake: 0.03 },
  { file: 'test/ui/menu.test.ts', name: 'menu > closes', base: 40, slope: -1, flake: 0, project: 'edge' },
  { file: 'test/ui/menu.test.ts', name: 'menu > broken', base: 60, slope: 0, flake: 1 },
  { file: 'test/ui/form.test.ts', name: 'form > submits', base: 2500, slope: 50, flake: 0 },
] as const;

interface SyntheticRun {
  readonly record: RunRecord;
  readonly branch: string | null;
}

/** 45 runs over 25 days, 15 on each platform; a commit is often run twice (a re-run). */
function syntheticRuns(seed: number): SyntheticRun[] {
  const random = seeded(seed);
  const platforms = ['linux', 'darwin', 'win32'];
  const runs: SyntheticRun[] = [];
  for (let i = 0; i < 45; i += 1) {
    const day = Math.floor((i * 25) / 45);
    const startedAt = new Date(NOW - (25 - day) * DAY_MS + Math.floor(random() * 8 * 3_600_000) + i).toISOString();
    const branch = [`main`, 'main', 'feat-x', null][Math.floor(random() * 4)] ?? null;
    const platform = platforms[i % 3]!;
    const commit = random() < 0.1 ? null : `c${Math.floor(i / 2)}`;
    const sharded = random() < 0.5;
    const broken = commit === 'c7';
    const tests = TESTS.filter((_, k) => !sharded || k % 2 === i % 2).map((t) => {
      const skipped = random() < 0.05;
      const flaked = random() < t.flake || (broken && t.name === 'cart > adds');
      const retried = flaked && random() < 0.4;
      const durationMs = Math.round(Math.max(5, t.base + t.slope * day + (random() - 0.5) * t.base * 0.1));
      return {
        file: t.file,
        name: t.name,
        project: 'project' in t ? t.project : '',
        state: skipped ? ('skipped' as const) : flaked && !retried ? ('failed' as const) : ('passed' as const),
        durationMs: skipped ? null : durationMs,
        flaky: !skipped && retried,
        ...('error' in t ? { error: t.error } : {}),
      };
    });
    const record = makeRecord({ runId: `run-${i}`, startedAt, platform, commit, tests });
    runs.push({ record: sharded ? { ...record, shard: { index: 1 + (i % 2), count: 2 } } : record, branch });
  }
  // Stored out of order: a late artifact, and every fifth pair swapped.
  const order = [...runs];
  for (let i = 0; i + 1 < order.length; i += 5) [order[i], order[i + 1]] = [order[i + 1]!, order[i]!];
  const late = order.splice(3, 1);
  return [...order, ...late];
}

const baseQuery: HistoryQuery = {
  since: '2026-10-31',
  branch: null,
  fullNamePart: null,
  file: null,
  top: 10,
  warnAt: 0.8,
};

const VARIANTS: { name: string; days: number; over: Partial<HistoryQuery> }[] = [
  { name: 'default, 30 days', days: 30, over: {} },
  { name: 'default, 10 days', days: 10, over: {} },
  { name: 'default, top 3', days: 30, over: { top: 3 } },
  { name: 'branch main', days: 30, over: { branch: 'main' } },
  { name: 'branch feat-x, 12 days', days: 12, over: { branch: 'feat-x' } },
  { name: '--test', days: 30, over: { fullNamePart: 's >' } },
  { name: '--file folder', days: 20, over: { file: 'test/api' } },
  { name: '--file on a branch', days: 30, over: { file: 'test/ui/menu.test.ts', branch: 'main' } },
];

// Schema 6: every key's totals are its newest day row's (ingest in order and late, prune).
const KEYS_OFF_THEIR_NEWEST_ROW = `SELECT count(*)::int AS off FROM flakeguard_test_keys k
  CROSS JOIN LATERAL (SELECT * FROM flakeguard_test_days d WHERE d.scope = k.scope AND d.test_id = k.test_id
    AND d.platform = k.platform AND d.shard = k.shard ORDER BY d.day DESC LIMIT 1) n
  WHERE (k.runs, k.failed_runs, k.retried_runs, k.rerun_passed_runs, k.flaked_runs, k.passed_runs, k.last_passed_at,
    k.last_passed_run, k.last_limit_ms) IS DISTINCT FROM (n.runs, n.failed_runs, n.retried_runs, n.rerun_passed_runs,
    n.flaked_runs, n.passed_runs, n.last_passed_at, n.last_passed_run, n.last_limit_ms)`;

async function compareAll(store: HistoryStore): Promise<void> {
  expect(await store.query(KEYS_OFF_THEIR_NEWEST_ROW)).toEqual([{ off: 0 }]);
  for (const v of VARIANTS) {
    const query = { ...baseQuery, ...v.over };
    const filter = {
      cutoffMs: windowStartMs(NOW - v.days * DAY_MS),
      branch: query.branch,
      fullNamePart: query.fullNamePart,
      file: query.file,
    };
    const input = await readHistoryInput(store, filter, query);
    // The quarantine proposals' counts alone: the report's tests with flaky runs (the only ones a
    // proposal reads), counted the same; the report counts a test without one only where it can be
    // listed (summary-read.ts).
    const flaky = (tests: readonly TestAggregate[]) => tests.filter((t) => t.retriedRuns + t.rerunPassedRuns > 0);
    const counts = await readTestCounts(store, filter);
    expect(flaky(counts), v.name).toEqual(flaky(input.tests));
    expect(
      input.tests.every((t) => counts.some((c) => c.testId === t.testId)),
      v.name,
    ).toBe(true);
    const now = toHistoryJson(computeHistoryReport(input));
    const before = toHistoryJson(computeHistoryReport(await readHistoryInputReference(store, filter, query)));
    expect(now, v.name).toEqual(before);
  }
  for (const t of TESTS) {
    const test = { file: t.file, fullName: t.name, project: 'project' in t ? t.project : '' };
    for (const branch of [null, 'main', 'feat-x']) {
      for (const limit of [1, 7, 200])
        expect(await lastRunsOfTest(store, test, { branch, limit })).toEqual(
          await lastRunsOfTestReference(store, test, branch, limit),
        );
      expect(await lastPassingRun(store, test, { branch })).toEqual(await lastPassingRunReference(store, test, branch));
    }
  }
}

/** `connect` opens the store under test; it is emptied first. */
export function summaryContract(connect: () => Promise<HistoryStore>): void {
  it("answers every query as today's SQL over the raw results did, stored out of order, then after a prune", async () => {
    const store = await connect();
    try {
      await store.query(EMPTY_STORE_SQL);
      await store.query("DELETE FROM flakeguard_meta WHERE key = 'summary_newest_day'");
      const runs = syntheticRuns(38);
      for (const { record, branch } of runs) await ingestRunRecord(store, record, { branch, job: null });
      expect(await ingestRunRecord(store, runs[0]!.record, { branch: runs[0]!.branch, job: null })).toBe('duplicate');
      const report = computeHistoryReport(
        await readHistoryInput(
          store,
          { cutoffMs: NOW - 30 * DAY_MS, branch: null, fullNamePart: null, file: null },
          baseQuery,
        ),
      );
      // The data reaches every part of the report: flaky and near-limit lists, causes, re-run passes, trends.
      expect(report.tests.some((t) => t.listedFor.includes('flaky') && t.cause !== undefined)).toBe(true);
      expect(report.tests.some((t) => t.listedFor.includes('near-limit') && t.trendMsPerDay !== null)).toBe(true);
      await compareAll(store);
      // A prune at a day no commit's runs straddle (a re-run's pass pruned before its failure would
      // still count in the summaries: docs/history.md).
      const cutoff = [10, 11, 12, 13, 14, 15, 16]
        .map((d) => windowStartMs(NOW - d * DAY_MS))
        .find((at) => {
          const side = new Map<string, Set<boolean>>();
          for (const { record } of runs)
            if (record.git.commit !== null)
              side.set(
                record.git.commit,
                (side.get(record.git.commit) ?? new Set()).add(Date.parse(record.startedAt) < at),
              );
          return [...side.values()].every((s) => s.size === 1);
        });
      expect(cutoff).toBeDefined();
      expect((await pruneHistory(store, cutoff!)).runs).toBeGreaterThan(5);
      await compareAll(store);
    } finally {
      await store.close();
    }
  });
}
