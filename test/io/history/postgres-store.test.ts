import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestRunRecord } from '../../../src/io/history/history-ingest.js';
import { pruneHistory } from '../../../src/io/history/history-query.js';
import { openHistoryStore } from '../../../src/io/history/history-store.js';
import { makeRecord } from '../../core/history/history-factories.js';
import { calibrationContract } from './calibration-contract.js';
import { EMPTY_STORE_SQL } from './empty-store.js';
import { type PostgresServer, startPostgres } from './postgres-server.mjs';
import { runDurationsContract } from './run-durations-contract.js';
import { storeContract } from './store-contract.js';
import { summaryContract } from './summary-contract.js';

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => server?.stop());

describe('PostgreSQL store', () => {
  it('runs on a real engine', () => {
    console.log(`engine: ${server.engine}`);
    expect(['postgresql', 'pglite-socket']).toContain(server.engine);
  });
  storeContract(() => openHistoryStore({ kind: 'postgres', url: server.url }));
  summaryContract(() => openHistoryStore({ kind: 'postgres', url: server.url }));
  calibrationContract(() => openHistoryStore({ kind: 'postgres', url: server.url }));
  runDurationsContract(() => openHistoryStore({ kind: 'postgres', url: server.url }));

  it('prunes in batches, each its own transaction: another writer stores runs between them', async () => {
    const pruner = await openHistoryStore({ kind: 'postgres', url: server.url });
    const writer = await openHistoryStore({ kind: 'postgres', url: server.url });
    try {
      await pruner.query(EMPTY_STORE_SQL);
      const run = (id: string, startedAt: string) =>
        makeRecord({ runId: id, startedAt, tests: [{ name: 'kept' }, { name: `only ${id}` }] });
      for (let i = 1; i <= 6; i += 1)
        await ingestRunRecord(pruner, run(`old-${i}`, `2026-01-0${i}T10:00:00Z`), { branch: 'main', job: null });
      // Each batch's transaction is committed before the next: an ingest awaited in between would
      // wait forever (and time out) if the prune held the ingest lock across batches.
      const between: string[] = [];
      const pruned = await pruneHistory(pruner, Date.parse('2026-11-01T00:00:00Z'), false, {
        batchRuns: 2,
        afterBatch: async () => {
          const id = `new-${between.length + 1}`;
          between.push(
            await ingestRunRecord(writer, run(id, `2026-11-2${between.length + 1}T10:00:00Z`), {
              branch: 'main',
              job: null,
            }),
          );
        },
      });
      expect(pruned).toEqual({ runs: 6, tests: 6 });
      expect(between).toEqual(['stored', 'stored', 'stored']);
      const runs = await pruner.query<{ run_id: string }>('SELECT run_id FROM flakeguard_runs ORDER BY run_id');
      expect(runs.map((r) => r.run_id)).toEqual(['new-1', 'new-2', 'new-3']);
    } finally {
      await pruner.close();
      await writer.close();
    }
  });

  it('says which server it could not reach', async () => {
    const url = server.url.replace(/:(\d+)\//, ':1/');
    await expect(openHistoryStore({ kind: 'postgres', url })).rejects.toThrow(
      /cannot connect to postgres:\/\/\S+@127\.0\.0\.1:1\/postgres/,
    );
  });
});
