/** Which store triage asks, and why it did not: off, forced off, a missing store, a bad URL. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveProjectPlaces } from '../../../src/io/places/project-places.js';
import { branchName, readTriageHistory, type TriageHistoryRequest } from '../../../src/io/triage/triage-history.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-th-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const request = (over: Partial<TriageHistoryRequest> = {}): TriageHistoryRequest => ({
  places: resolveProjectPlaces(root, { records: '.flakeguard/runs' }, {}),
  config: { kind: 'off' },
  force: undefined,
  branch: 'main',
  tests: [{ project: '', file: 'test/a.test.ts', fullName: 't' }],
  excludeRunIds: new Set(),
  env: {},
  ...over,
});

describe('readTriageHistory', () => {
  it('is off when nothing configures history, and when --no-history says so', async () => {
    expect(await readTriageHistory(request())).toEqual({ kind: 'off' });
    expect(await readTriageHistory(request({ config: { kind: 'embedded' }, force: false }))).toEqual({ kind: 'off' });
    expect(
      await readTriageHistory(
        request({ force: false, env: { FLAKEGUARD_HISTORY_URL: 'postgres://x@127.0.0.1:1/db' } }),
      ),
    ).toEqual({ kind: 'off' });
  });

  it('--history with no store yet: not used, and says where and how to fill one', async () => {
    const outcome = await readTriageHistory(request({ force: true }));
    expect(outcome).toMatchObject({ kind: 'not-used', where: path.join(root, '.flakeguard/runs/history') });
    expect(outcome.kind === 'not-used' && outcome.reason).toMatch(
      /^no history yet at .*: run the tests with history: true/,
    );
  });

  it('a checkout without a default branch and no --branch: not used, and names --branch', async () => {
    const outcome = await readTriageHistory(request({ config: { kind: 'embedded' }, branch: undefined }));
    expect(outcome).toMatchObject({ kind: 'not-used' });
    expect(outcome.kind === 'not-used' && outcome.reason).toContain('pass --branch <name>');
  });

  it('a FLAKEGUARD_HISTORY_URL that is not PostgreSQL is bad input (thrown: exit 2)', async () => {
    await expect(readTriageHistory(request({ env: { FLAKEGUARD_HISTORY_URL: 'mysql://db/x' } }))).rejects.toThrow(
      /is not a PostgreSQL URL/,
    );
  });

  it('a remote-tracking default branch is looked up by its branch name', () => {
    expect(branchName('origin/main')).toBe('main');
    expect(branchName('upstream/release/1.x')).toBe('release/1.x');
    expect(branchName('master')).toBe('master');
  });
});
