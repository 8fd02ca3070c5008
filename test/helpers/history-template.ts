/**
 * One embedded history store per test run: test/helpers/history-template-setup.ts (the e2e tier's
 * global setup) runs PGlite's initdb and flakeguard's migrations once into a template folder; a
 * fixture that needs a store copies it where the product looks for it (`seedHistoryStore`), so the
 * reporter and the CLI open an existing store instead of creating one. A test whose subject is the
 * creation of a store (a first run, a damaged or newer store, the lock of a store being made) does
 * not seed: it keeps a real creation.
 */
import { cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { CACHE_FOLDER, EMBEDDED_FOLDER } from '../../src/io/places/project-places.js';
import { makeRecord, type RecordSpec } from '../core/history/history-factories.js';
import type { Fixture } from './fixture.js';
import { flakeguardInProcess } from './in-process-cli.js';
import { countProcess } from './process-budget.js';
import './provided.js';

/**
 * Copies the template store to `<root>/<records>/history`, where the reporter and the CLI open the
 * embedded store of a project whose flakeguard.yaml has `records: <records>` (default
 * .flakeguard/runs; src/io/places/project-places.ts), and makes the cache folder beside the records
 * folder, where the store's lock file goes.
 */
export function seedHistoryStore(root: string, records = '.flakeguard/runs'): void {
  const template = inject('historyTemplate');
  if (!template)
    throw new Error(
      'no history store template: seedHistoryStore runs in the e2e tier, whose global setup (test/helpers/history-template-setup.ts) makes it',
    );
  const recordsFolder = path.resolve(root, records);
  mkdirSync(path.join(path.dirname(recordsFolder), CACHE_FOLDER), { recursive: true });
  cpSync(template, path.join(recordsFolder, EMBEDDED_FOLDER), { recursive: true });
  countProcess('storeCopy');
}

/**
 * Turns history on in the fixture's flakeguard.yaml (`yaml`, written whole) and stores the run
 * records in `folder` (those of real Vitest runs made with history off) in its seeded store with
 * `flakeguard history ingest`, in this process: the records the reporter writes, stored the way the
 * reporter stores them (both call ingestRunRecord), without a PGlite start in every Vitest run
 * (about a second of CPU each). test/e2e/history.test.ts keeps the reporter storing real runs.
 */
export async function ingestRunRecords(fx: Fixture, yaml: string, folder = '.flakeguard/runs'): Promise<void> {
  fx.write('flakeguard.yaml', yaml);
  const ingest = await flakeguardInProcess(fx, ['history', 'ingest', folder]);
  if (ingest.exitCode !== 0) throw new Error(`history ingest ${folder} exited ${ingest.exitCode}:\n${ingest.output}`);
}

/**
 * Stores `count` earlier runs of `tests` (records as the reporter builds them: the record factory),
 * a minute apart an hour ago, in the fixture's seeded store with `flakeguard history ingest`, in this
 * process: a history for a test whose subject is what the reporter or the gate reads back, without
 * a real run (and its store open) per earlier run.
 */
export async function ingestEarlierRuns(fx: Fixture, tests: RecordSpec['tests'], count = 2): Promise<void> {
  const start = Date.now() - 3_600_000;
  for (let n = 1; n <= count; n++) {
    const record = makeRecord({ runId: `earlier-${n}`, startedAt: new Date(start + n * 60_000).toISOString(), tests });
    fx.write(`.flakeguard/earlier/${record.runId}.json`, JSON.stringify(record));
  }
  const ingest = await flakeguardInProcess(fx, ['history', 'ingest', '.flakeguard/earlier']);
  if (!ingest.stdout.includes(`${count} run records read, ${count} stored`))
    throw new Error(`history ingest .flakeguard/earlier exited ${ingest.exitCode}:\n${ingest.output}`);
}
