import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHistoryStore } from '../../../src/io/history/history-store.js';
import { type PostgresServer, startPostgres } from './postgres-server.mjs';
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

  it('says which server it could not reach', async () => {
    const url = server.url.replace(/:(\d+)\//, ':1/');
    await expect(openHistoryStore({ kind: 'postgres', url })).rejects.toThrow(
      /cannot connect to postgres:\/\/\S+@127\.0\.0\.1:1\/postgres/,
    );
  });
});
