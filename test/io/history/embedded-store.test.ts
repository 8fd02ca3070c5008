import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_SCHEMA_VERSION } from '../../../src/core/history/history-schema.js';
import { migrateHistoryStore } from '../../../src/io/history/history-migrate.js';
import { type HistoryStore, type HistoryTarget, openHistoryStore } from '../../../src/io/history/history-store.js';
import { seedHistoryStore } from '../../helpers/history-template.js';
import { calibrationContract } from './calibration-contract.js';
import { runDurationsContract } from './run-durations-contract.js';
import { storeContract } from './store-contract.js';
import { summaryContract } from './summary-contract.js';

const base = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-hist-'));
const target: HistoryTarget = { kind: 'embedded', folder: path.join(base, '.flakeguard/runs', 'history') };
// A copy of the run's migrated template store (PGlite's initdb costs seconds; the creation of a store
// is the subject of test/e2e/history.test.ts and test/e2e/bad-input/stores-locks.test.ts); every
// test then reopens it.
beforeAll(() => seedHistoryStore(base));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('embedded store (PGlite)', () => {
  describe('the store contract', () => {
    // The contract's tests ask the store questions: they share one open store (each open is a PGlite
    // start, about a second of CPU), closed after them; opening it is the subject of the tests below.
    let shared: Promise<HistoryStore> | undefined;
    afterAll(async () => {
      await (await shared)?.close();
    });
    storeContract(async () => {
      shared ??= openHistoryStore(target);
      return { ...(await shared), close: async () => {} };
    });
    summaryContract(async () => {
      shared ??= openHistoryStore(target);
      return { ...(await shared), close: async () => {} };
    });
    calibrationContract(async () => {
      shared ??= openHistoryStore(target);
      return { ...(await shared), close: async () => {} };
    });
    runDurationsContract(async () => {
      shared ??= openHistoryStore(target);
      return { ...(await shared), close: async () => {} };
    });
  });

  it('lets one process in at a time and waits for the other to close', async () => {
    const first = await openHistoryStore(target);
    await expect(openHistoryStore(target, { lockTimeoutMs: 200 })).rejects.toThrow(
      /is in use by another process .*history\.lock/,
    );
    const second = openHistoryStore(target, { lockTimeoutMs: 30_000 });
    await first.close();
    await (await second).close();
  });

  it('refuses a store written by a newer flakeguard, naming both versions', async () => {
    const store = await openHistoryStore(target);
    try {
      await store.query(
        `UPDATE flakeguard_meta SET value = '${HISTORY_SCHEMA_VERSION + 1}' WHERE key = 'schema_version'`,
      );
    } finally {
      await store.close();
    }
    await expect(openHistoryStore(target)).rejects.toThrow(
      new RegExp(
        `schema version ${HISTORY_SCHEMA_VERSION + 1}, written by a newer flakeguard \\(this one reads up to ${HISTORY_SCHEMA_VERSION}\\); upgrade flakeguard`,
      ),
    );
    // Put it back for the other tests (the migration runner refuses; write the row directly).
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create(target.folder);
    await db.query(`UPDATE flakeguard_meta SET value = '${HISTORY_SCHEMA_VERSION}' WHERE key = 'schema_version'`);
    await db.close();
  });

  it('runs the pending migrations in order and records the version', async () => {
    const store = await openHistoryStore(target);
    try {
      const migrations = [
        { version: HISTORY_SCHEMA_VERSION + 2, statements: ['ALTER TABLE flakeguard_scratch ADD COLUMN b text'] },
        { version: HISTORY_SCHEMA_VERSION + 1, statements: ['CREATE TABLE flakeguard_scratch (a int)'] },
      ];
      expect(await migrateHistoryStore(store, migrations, HISTORY_SCHEMA_VERSION + 2)).toBe(HISTORY_SCHEMA_VERSION + 2);
      expect(await migrateHistoryStore(store, migrations, HISTORY_SCHEMA_VERSION + 2)).toBe(HISTORY_SCHEMA_VERSION + 2);
      const columns = await store.query<{ column_name: string }>(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'flakeguard_scratch' ORDER BY column_name",
      );
      expect(columns.map((c) => c.column_name)).toEqual(['a', 'b']);
      await store.query('DROP TABLE flakeguard_scratch');
      await store.query(`UPDATE flakeguard_meta SET value = '${HISTORY_SCHEMA_VERSION}' WHERE key = 'schema_version'`);
    } finally {
      await store.close();
    }
  });
});
