import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runContextFromEnv, runContextOf, toHistoryRows } from '../../../src/core/history/history-rows.js';
import { readCiContext } from '../../../src/core/record/ci-context.js';
import { makeRecord } from './history-factories.js';

describe('toHistoryRows', () => {
  it('keeps run facts, the context and one result per test, sorted', () => {
    const record = makeRecord({
      runId: 'r',
      startedAt: '2026-11-30T10:00:00Z',
      tests: [{ name: 'b', state: 'failed', error: 'x'.repeat(900) }, { name: 'a' }, { name: 'a' }],
    });
    const rows = toHistoryRows(record, { branch: 'main', job: 'j' });
    expect(rows.run).toMatchObject({
      runId: 'r',
      branch: 'main',
      job: 'j',
      commit: 'c0ffee',
      red: true,
      testCount: 2,
      platform: 'linux',
    });
    expect(rows.results.name).toEqual(['a', 'b']);
    expect(rows.results.firstError[1]).toHaveLength(500);
    expect(rows.results.firstError[0]).toBeNull();
  });

  it('property: every column has one entry per distinct test, in sorted order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ file: fc.constantFrom('a.ts', 'b.ts'), name: fc.string({ maxLength: 4 }) }), {
          maxLength: 30,
        }),
        (tests) => {
          const rows = toHistoryRows(makeRecord({ runId: 'r', startedAt: '2026-11-30T10:00:00Z', tests }), {
            branch: null,
            job: null,
          });
          const keys = rows.results.file.map((f, i) => `${f}\u0000${rows.results.name[i]}`);
          expect(new Set(keys).size).toBe(keys.length);
          expect(keys).toEqual([...keys].sort());
          expect(keys.length).toBe(new Set(tests.map((t) => `${t.file}\u0000${t.name}`)).size);
          for (const column of Object.values(rows.results)) expect(column).toHaveLength(keys.length);
        },
      ),
    );
  });
});

describe('runContextFromEnv', () => {
  it('reads the pull request branch and the job under GitHub Actions', () => {
    expect(
      runContextFromEnv({
        GITHUB_HEAD_REF: 'feat',
        GITHUB_REF_NAME: '12/merge',
        GITHUB_RUN_ID: '99',
        GITHUB_RUN_ATTEMPT: '2',
        GITHUB_JOB: 'test',
      }),
    ).toEqual({
      branch: 'feat',
      job: '99-2/test',
    });
    expect(runContextFromEnv({ GITHUB_HEAD_REF: '', GITHUB_REF_NAME: 'main' }).branch).toBe('main');
  });
  it('lets FLAKEGUARD_BRANCH and FLAKEGUARD_JOB win, and is empty outside CI', () => {
    expect(
      runContextFromEnv({ FLAKEGUARD_BRANCH: 'x', CI_COMMIT_REF_NAME: 'y', FLAKEGUARD_JOB: 'k', CI_JOB_ID: '7' }),
    ).toEqual({ branch: 'x', job: 'k' });
    expect(runContextFromEnv({})).toEqual({ branch: null, job: null });
  });
});

describe('runContextOf', () => {
  const ci = readCiContext(
    { GITLAB_CI: 'true', CI_PIPELINE_ID: '555', CI_JOB_NAME: 'unit', CI_COMMIT_BRANCH: 'feat' },
    null,
  );
  it("takes the record's CI context over the variables of the process that stores it", () => {
    expect(
      runContextOf(
        { ci },
        { GITHUB_ACTIONS: 'true', GITHUB_REF_NAME: 'main', GITHUB_RUN_ID: '1', GITHUB_JOB: 'ingest' },
      ),
    ).toEqual({ branch: 'feat', job: '555/unit' });
  });
  it('falls back to the ingest-time guess for records without one, and lets FLAKEGUARD_BRANCH / FLAKEGUARD_JOB win', () => {
    expect(runContextOf({}, { GITHUB_REF_NAME: 'main', GITHUB_RUN_ID: '1', GITHUB_JOB: 'ingest' })).toEqual({
      branch: 'main',
      job: '1-1/ingest',
    });
    expect(runContextOf({ ci }, { FLAKEGUARD_BRANCH: 'pinned', FLAKEGUARD_JOB: 'k' })).toEqual({
      branch: 'pinned',
      job: 'k',
    });
  });
  it('stores the CI context in the run row', () => {
    const record = { ...makeRecord({ runId: 'r', startedAt: '2026-11-30T10:00:00Z', tests: [{ name: 'a' }] }), ci };
    expect(toHistoryRows(record, { branch: null, job: null }).run.ci).toEqual(ci);
  });
});
