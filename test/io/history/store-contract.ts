/**
 * The behaviour every history store must have, run against the embedded store (PGlite) and a real
 * PostgreSQL server: the same schema, the same queries, the same answers.
 */
import { expect, it } from 'vitest';
import { computeHistoryReport, type HistoryQuery } from '../../../src/core/history/history-report.js';
import { HISTORY_SCHEMA_VERSION } from '../../../src/core/history/history-schema.js';
import { readCalibrationSample } from '../../../src/io/history/ci-speed-read.js';
import { ingestRunRecord } from '../../../src/io/history/history-ingest.js';
import { readTestMachines } from '../../../src/io/history/history-machines-query.js';
import { migrateHistoryStore } from '../../../src/io/history/history-migrate.js';
import { pruneHistory, readHistoryInput } from '../../../src/io/history/history-query.js';
import type { HistoryStore } from '../../../src/io/history/history-store.js';
import { failedThenPassed, lastPassingRun, lastRunsOfTest } from '../../../src/io/history/test-history.js';
import { dailyRuns, makeRecord } from '../../core/history/history-factories.js';
import { openEmpty } from './empty-store.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const DAY_MS = 86_400_000;
const query = (over: Partial<HistoryQuery> = {}): HistoryQuery => ({
  since: '2026-10-31',
  branch: null,
  fullNamePart: null,
  file: null,
  top: 10,
  warnAt: 0.8,
  ...over,
});
const filter = (
  over: { branch?: string | null; fullNamePart?: string | null; file?: string | null; days?: number } = {},
) => ({
  cutoffMs: NOW - (over.days ?? 30) * DAY_MS,
  branch: over.branch ?? null,
  fullNamePart: over.fullNamePart ?? null,
  file: over.file ?? null,
});
const ctx = { branch: 'main', job: 'ci-1' };

/** `connect` opens the store under test (the same one each time); each test starts from an empty store. */
export function storeContract(connect: () => Promise<HistoryStore>): void {
  const open = (): Promise<HistoryStore> => openEmpty(connect);

  it("keeps the record's CI context (schema 2) and gives it back with the test's runs; an older record has none", async () => {
    const store = await open();
    try {
      const ci = {
        provider: 'gitlab-ci' as const,
        workflow: null,
        job: 'unit',
        runId: '555',
        attempt: null,
        runUrl: 'https://gitlab.com/j/77',
        branch: 'main',
        commit: 'c0ffee',
        runnerOs: 'linux',
        shard: { index: 2, count: 3 },
      };
      await ingestRunRecord(
        store,
        { ...makeRecord({ runId: 'with-ci', startedAt: '2026-11-29T10:00:00Z', tests: [{ name: 'a' }] }), ci },
        ctx,
      );
      await ingestRunRecord(
        store,
        makeRecord({ runId: 'old', startedAt: '2026-11-28T10:00:00Z', tests: [{ name: 'a' }] }),
        ctx,
      );
      const runs = await lastRunsOfTest(store, { project: '', file: 'test/a.test.ts', fullName: 'a' });
      expect(runs.map((r) => [r.runId, r.ci])).toEqual([
        ['with-ci', ci],
        ['old', null],
      ]);
    } finally {
      await store.close();
    }
  });

  it("keeps the run's machine (schema 3) for calibration and for the tests' machines; an older record has none", async () => {
    const store = await open();
    // Local runs: no CI job.
    const here = { branch: 'main', job: null };
    try {
      const mine = { id: 'aaaaaaaaaaaa', cpuModel: 'Example CPU', cores: 8 };
      const twin = { ...mine, id: 'bbbbbbbbbbbb' };
      const record = (runId: string, hour: number) =>
        makeRecord({ runId, startedAt: `2026-11-29T${String(hour).padStart(2, '0')}:00:00Z`, tests: [{ name: 'a' }] });
      await ingestRunRecord(store, { ...record('mine', 10), machine: mine }, here);
      await ingestRunRecord(store, { ...record('twin', 11), machine: twin }, here);
      // Written before issue 37: no machine.
      const { machine: _none, ...old } = record('old', 9);
      await ingestRunRecord(store, old, here);
      const sample = await readCalibrationSample(store, { platform: record('x', 1).platform, machine: mine });
      expect(sample.local.map((r) => r.runId)).toEqual(['mine']);
      expect(sample.here).toMatchObject({ match: 'machine', runs: 1, others: 2 });
      const [a] = await store.query<{ testId: number }>(`SELECT id AS "testId" FROM flakeguard_tests WHERE name = 'a'`);
      const filter = { cutoffMs: Date.parse('2026-11-01T00:00:00Z'), branch: null, fullNamePart: null, file: null };
      const machines = await readTestMachines(store, filter, a === undefined ? [] : [a]);
      expect([...machines.values()][0]?.sort((x, y) => ((x.id ?? '') < (y.id ?? '') ? -1 : 1))).toEqual([
        { id: null, cpuModel: null, cores: null, runs: 1, ciRuns: 0 },
        { ...mine, runs: 1, ciRuns: 0 },
        { ...twin, runs: 1, ciRuns: 0 },
      ]);
    } finally {
      await store.close();
    }
  });

  it('stores a record once, however often it is ingested', async () => {
    const store = await open();
    try {
      const record = makeRecord({
        runId: 'r1',
        startedAt: '2026-11-29T10:00:00Z',
        tests: [{ name: 'a' }, { name: 'b', state: 'failed' }],
      });
      expect(await ingestRunRecord(store, record, ctx)).toBe('stored');
      expect(await ingestRunRecord(store, record, ctx)).toBe('duplicate');
      expect(
        await ingestRunRecord(
          store,
          makeRecord({ runId: 'm', startedAt: '2026-11-29T10:00:00Z', merged: true, tests: [{ name: 'a' }] }),
          ctx,
        ),
      ).toBe('merged-skipped');
      const [counts] = await store.query<{ runs: number; results: number }>(
        'SELECT (SELECT count(*) FROM flakeguard_runs)::int AS runs, (SELECT count(*) FROM flakeguard_results)::int AS results',
      );
      expect(counts).toEqual({ runs: 1, results: 2 });
    } finally {
      await store.close();
    }
  });

  it('migrating again is a no-op and keeps the version', async () => {
    const store = await open();
    try {
      expect(await migrateHistoryStore(store)).toBe(HISTORY_SCHEMA_VERSION);
      const rows = await store.query<{ value: string }>(
        "SELECT value FROM flakeguard_meta WHERE key = 'schema_version'",
      );
      expect(rows).toEqual([{ value: String(HISTORY_SCHEMA_VERSION) }]);
    } finally {
      await store.close();
    }
  });

  it('counts failed, retried and re-run-passed runs and bounds the flake rate', async () => {
    const store = await open();
    try {
      const at = (d: number) => new Date(NOW - d * DAY_MS).toISOString();
      const records = [
        makeRecord({
          runId: 'f1',
          startedAt: at(5),
          commit: 'x',
          tests: [{ name: 'flaky', state: 'failed' }, { name: 'solid' }],
        }),
        makeRecord({ runId: 'f2', startedAt: at(4), commit: 'x', tests: [{ name: 'flaky' }, { name: 'solid' }] }),
        makeRecord({
          runId: 'f3',
          startedAt: at(3),
          commit: 'y',
          tests: [{ name: 'flaky', flaky: true }, { name: 'solid' }],
        }),
        makeRecord({
          runId: 'f4',
          startedAt: at(2),
          commit: 'z',
          tests: [{ name: 'flaky' }, { name: 'solid', state: 'skipped', durationMs: null }],
        }),
        makeRecord({ runId: 'old', startedAt: at(60), commit: 'w', tests: [{ name: 'flaky', state: 'failed' }] }),
      ];
      for (const r of records) await ingestRunRecord(store, r, ctx);
      const report = computeHistoryReport(
        await readHistoryInput(store, filter({ fullNamePart: 'flaky' }), query({ fullNamePart: 'flaky' })),
      );
      expect(report.runs).toBe(4);
      expect(report.tests).toHaveLength(1);
      const t = report.tests[0]!;
      expect({
        runs: t.runs,
        failedRuns: t.failedRuns,
        retriedRuns: t.retriedRuns,
        flakyRuns: t.flakyRuns,
        flakeRate: t.flakeRate,
      }).toEqual({
        runs: 4,
        failedRuns: 1,
        retriedRuns: 1,
        flakyRuns: 2,
        flakeRate: 0.5,
      });
      expect(t.flakeRateUpper).toBeGreaterThan(0.5);
      expect(t.flakeRateUpper).toBeLessThan(1);
      const solid = computeHistoryReport(
        await readHistoryInput(store, filter({ fullNamePart: 'solid' }), query({ fullNamePart: 'solid' })),
      ).tests[0]!;
      expect(solid.runs).toBe(3);
      expect(solid.flakeRate).toBe(0);

      const test = { project: '', file: 'test/a.test.ts', fullName: 'flaky' };
      const last = await lastRunsOfTest(store, test, { branch: 'main', limit: 2 });
      expect(last.map((r) => r.runId)).toEqual(['f4', 'f3']);
      expect(last[0]!.startedAt).toBe(at(2).replace(/\.\d+Z$/, (m) => m));
      const evidence = await failedThenPassed(store, test);
      expect(evidence.retried.map((r) => r.runId)).toEqual(['f3']);
      expect(evidence.rerun.map((p) => [p.failed.runId, p.passed.runId])).toEqual([['f1', 'f2']]);
      const passing = await lastPassingRun(store, test);
      expect({ runId: passing?.runId, commit: passing?.commit }).toEqual({ runId: 'f4', commit: 'z' });
      expect(await lastPassingRun(store, { project: '', file: 'test/a.test.ts', fullName: 'never ran' })).toBeNull();
      expect(await lastRunsOfTest(store, test, { branch: 'other' })).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('fits the duration trend and says when the test crosses its limit', async () => {
    const store = await open();
    try {
      // 4.50 s rising 40 ms a day toward a 5 s limit, with one slow outlier the trend must ignore.
      const runs = dailyRuns(20, NOW - DAY_MS, (i) => (i === 7 ? 9000 : 4500 + 40 * i));
      for (const r of runs) await ingestRunRecord(store, r, ctx);
      const report = computeHistoryReport(await readHistoryInput(store, filter(), query({ top: 1 })));
      const tracker = report.tests.find((t) => t.fullName === 'tracker > reloads')!;
      expect(tracker.listedFor).toEqual(['near-limit']);
      expect(tracker.trendMsPerDay).toBeCloseTo(40, 5);
      expect(tracker.trendMsPerRun).toBeCloseTo(40, 5);
      // Level 4.50 + 19 * 0.04 = 5.26 s: over already. Ask with a higher limit in the next test.
      expect(tracker.daysToLimit).toBe(0);
      expect(tracker.nearLimit).toBe('over');
      expect(tracker.durationMs!.median).toBeGreaterThan(4800);
      expect(tracker.platforms[0]!.points).toHaveLength(20);
      expect(report.tests.some((t) => t.fullName === 'steady > adds')).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('lists tests whose figures tie in the same order on every store: by project, file and name', async () => {
    const store = await open();
    try {
      // 40 tests, each flaky once in two runs on two platforms alike, stored in a scrambled order
      // (the store's ids are not the names' order): which 10 are listed, and in what order, rests on the tie-break.
      const names = Array.from({ length: 40 }, (_, i) => `case ${String((i * 17) % 40).padStart(2, '0')}`);
      for (const [r, platform] of [
        [0, 'linux'],
        [1, 'linux'],
        [2, 'darwin'],
        [3, 'darwin'],
      ] as const) {
        const tests = names.map((name, i) => ({ file: `test/t${i % 3}.test.ts`, name, flaky: r % 2 === 0 }));
        const startedAt = new Date(NOW - (r + 1) * DAY_MS).toISOString();
        await ingestRunRecord(store, makeRecord({ runId: `tie-${r}`, startedAt, platform, tests }), ctx);
      }
      const report = computeHistoryReport(await readHistoryInput(store, filter(), query({ top: 10 })));
      const listed = report.tests.map((t) => `${t.file} ${t.fullName}`);
      const byName = names.map((name, i) => `test/t${i % 3}.test.ts ${name}`).sort();
      expect(listed).toEqual(byName.slice(0, 10));
      expect(report.tests[0]!.platforms.map((p) => p.platform)).toEqual(['darwin', 'linux']);
    } finally {
      await store.close();
    }
  });

  it('prunes runs older than the cutoff and the tests left without runs', async () => {
    const store = await open();
    try {
      await ingestRunRecord(
        store,
        makeRecord({ runId: 'old', startedAt: '2026-01-01T00:00:00Z', tests: [{ name: 'gone' }, { name: 'kept' }] }),
        ctx,
      );
      await ingestRunRecord(
        store,
        makeRecord({ runId: 'new', startedAt: '2026-11-29T00:00:00Z', tests: [{ name: 'kept' }] }),
        ctx,
      );
      expect(await pruneHistory(store, NOW - 90 * DAY_MS, true)).toEqual({ runs: 1, tests: 0 });
      expect(await pruneHistory(store, NOW - 90 * DAY_MS)).toEqual({ runs: 1, tests: 1 });
      const names = await store.query<{ name: string }>('SELECT name FROM flakeguard_tests ORDER BY name');
      expect(names).toEqual([{ name: 'kept' }]);
    } finally {
      await store.close();
    }
  });
}
