/**
 * The e2e tier's global setup for embedded history stores: PGlite's initdb and flakeguard's
 * migrations run once per test run, into a template folder that test/helpers/history-template.ts
 * copies into the fixtures (initdb is seconds per store, 2-5x more under load; a copy is a few MB of
 * files, see bench/history-store-template.mjs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openHistoryStore } from '../../src/io/history/history-store.js';
import { EMBEDDED_FOLDER } from '../../src/io/places/project-places.js';
import { sharePerRun } from './per-run.js';
import './provided.js';

/** Makes an empty, migrated embedded store in `folder` (its lock file beside it), then closes it. */
export async function createHistoryStore(folder: string): Promise<void> {
  const store = await openHistoryStore({ kind: 'embedded', folder, lock: `${folder}.lock` });
  await store.close();
}

/**
 * Vitest calls this before the first e2e file, once per e2e project: the template, made once per run
 * (per-run.ts) and removed when the run ends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = await sharePerRun('history-template', async () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-store-template-'));
    const folder = path.join(scratch, EMBEDDED_FOLDER);
    await createHistoryStore(folder);
    return { value: folder, dispose: () => rmSync(scratch, { recursive: true, force: true }) };
  });
  project.provide('historyTemplate', template.value);
  return template.release;
}
