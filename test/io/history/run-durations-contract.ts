/**
 * Schema 7 (core/history/history-schema-run-durations.ts): each run's passed durations in one row.
 * Ingest writes it with the run's results, prune deletes it with them, and the migration from
 * schema 6 fills it from the results alike: the CI speed calibration reads these rows only.
 */
import { expect, it } from 'vitest';
import { RUN_DURATIONS } from '../../../src/core/history/history-schema-run-durations.js';
import { ingestRunRecord } from '../../../src/io/history/history-ingest.js';
import { migrateHistoryStore } from '../../../src/io/history/history-migrate.js';
import { pruneHistory } from '../../../src/io/history/history-query.js';
import type { HistoryStore } from '../../../src/io/history/history-store.js';
import { makeRecord } from '../../core/history/history-factories.js';
import { openEmpty } from './empty-store.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const DAY_MS = 86_400_000;
const ctx = { branch: 'main', job: 'ci-1' };

/** Each run's row as sorted (test id, duration) pairs, by run id. */
async function rowsOf(store: HistoryStore): Promise<{ runId: string; pairs: [number, number][] }[]> {
  const rows = await store.query<{ runId: string; tests: number[]; durations: number[] }>(
    `SELECT u.run_id AS "runId", d.tests, d.durations FROM flakeguard_run_durations d
      JOIN flakeguard_runs u ON u.id = d.run_id ORDER BY u.run_id`,
  );
  return rows.map((r) => ({
    runId: r.runId,
    pairs: r.tests.map((t, i): [number, number] => [t, r.durations[i] as number]).sort((a, b) => a[0] - b[0]),
  }));
}

/** `connect` opens the store under test (the same one each time); each test starts from an empty store. */
export function runDurationsContract(connect: () => Promise<HistoryStore>): void {
  const open = (): Promise<HistoryStore> => openEmpty(connect);

  it("keeps each run's passed durations in one row, deletes it with the run, and migrates a store of schema 6 to the same rows", async () => {
    const store = await open();
    try {
      const at = (d: number) => new Date(NOW - d * DAY_MS).toISOString();
      const runs = [
        makeRecord({
          runId: 'old',
          startedAt: at(200),
          tests: [
            { name: 'a', durationMs: 12.5 },
            { name: 'b', state: 'failed' },
            { name: 'c', durationMs: 3 },
          ],
        }),
        makeRecord({
          runId: 'new',
          startedAt: at(1),
          tests: [
            { name: 'a', durationMs: 11 },
            { name: 'c', state: 'skipped' },
            { name: 'd', durationMs: null },
          ],
        }),
        makeRecord({ runId: 'none', startedAt: at(2), tests: [{ name: 'b', state: 'failed' }] }),
      ];
      for (const r of runs) await ingestRunRecord(store, r, ctx);
      const ids = new Map(
        (await store.query<{ id: number; name: string }>('SELECT id, name FROM flakeguard_tests')).map((t) => [
          t.name,
          t.id,
        ]),
      );
      const written = await rowsOf(store);
      // Passed tests with a duration only; a run with none has no row.
      expect(written).toEqual([
        { runId: 'new', pairs: [[ids.get('a'), 11]] },
        {
          runId: 'old',
          pairs: [
            [ids.get('a'), 12.5],
            [ids.get('c'), 3],
          ].sort((x, y) => (x[0] as number) - (y[0] as number)),
        },
      ]);
      // A store of schema 6 (no such table) migrates to the rows ingest writes.
      await store.query('DROP TABLE flakeguard_run_durations');
      await store.query("UPDATE flakeguard_meta SET value = '6' WHERE key = 'schema_version'");
      expect(await migrateHistoryStore(store)).toBe(RUN_DURATIONS.version);
      expect(await rowsOf(store)).toEqual(written);
      // Prune deletes a run's row with its results.
      expect(await pruneHistory(store, NOW - 90 * DAY_MS)).toMatchObject({ runs: 1 });
      expect((await rowsOf(store)).map((r) => r.runId)).toEqual(['new']);
    } finally {
      await store.close();
    }
  });
}
