/** Which check caught a finding, which checks saw it, and what triage gathers before deciding once. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderTriageHtml } from '../../../src/core/html/html-triage.js';
import { computeTriage, planTriage } from '../../../src/core/triage/triage.js';
import { checkOfRecord, describeCheck, UNKNOWN_CHECK } from '../../../src/core/triage/triage-caught-by.js';
import { formatTriage, toTriageJson } from '../../../src/core/triage/triage-format.js';
import type { TestHistoryFacts } from '../../../src/core/triage/triage-history.js';
import { formatTriageMarkdown } from '../../../src/core/triage/triage-markdown.js';
import { BUILT_IN_SIGNATURES } from '../../../src/core/triage/triage-signatures.js';
import type { CaughtBy, ObservedTest, TriageInputs } from '../../../src/core/triage/triage-types.js';
import { makeHistoryFacts, makeObservedTest, makeTriageInputs } from './triage-factories.js';

const FILE = 'test/cart.test.ts';
const NAME = 'cart > totals';
const LINUX: CaughtBy = {
  provider: 'github-actions',
  workflow: 'CI',
  job: 'test-linux',
  shard: { index: 1, count: 2 },
  runUrl: 'https://github.com/acme/shop/actions/runs/7',
};
const MAC: CaughtBy = {
  provider: 'github-actions',
  workflow: 'CI',
  job: 'test-macos',
  shard: null,
  runUrl: 'https://github.com/acme/shop/actions/runs/7',
};

const makeTest = (over: Partial<ObservedTest> = {}): ObservedTest =>
  makeObservedTest({
    file: FILE,
    fullName: NAME,
    errors: ['AssertionError: expected 3 to be 4'],
    limitMs: 5000,
    source: 'record',
    origin: 'linux.json: test failed',
    ...over,
  });
const makeInputs = (over: Partial<TriageInputs> = {}): TriageInputs =>
  makeTriageInputs({ exitCodeOrigin: 'run record', ...over });

const triage = (over: Partial<TriageInputs>) => computeTriage(makeInputs(over), BUILT_IN_SIGNATURES);

describe('caughtBy and seenBy', () => {
  it('one test failing in project edge on one job and in project node on another: each finding names only its job', () => {
    const r = triage({
      tests: [
        makeTest({ project: 'edge', check: LINUX }),
        makeTest({ project: 'node', check: MAC, origin: 'mac.json: test failed' }),
      ],
    });
    expect(r.findings.map((f) => [f.project, f.seenBy?.map((c) => c.job)])).toEqual([
      ['edge', ['test-linux']],
      ['node', ['test-macos']],
    ]);
  });

  it("two jobs' records that saw the same failure: one finding naming both checks, the first as caughtBy", () => {
    const r = triage({
      tests: [makeTest({ check: MAC, origin: 'mac.json: test failed' }), makeTest({ check: LINUX })],
    });
    expect(r.findings).toHaveLength(1);
    expect(r.findings[0]).toMatchObject({ class: 'escape', caughtBy: LINUX, seenBy: [LINUX, MAC] });
    const text = formatTriage(r);
    expect(text).toContain(
      '   caught by: GitHub Actions CI / test-linux (shard 1/2) https://github.com/acme/shop/actions/runs/7',
    );
    expect(text).toContain(
      '   seen by 2 checks: GitHub Actions CI / test-linux (shard 1/2); GitHub Actions CI / test-macos',
    );
    expect(formatTriageMarkdown(r)).toContain('caught by: GitHub Actions CI / test-linux (shard 1/2)');
    expect(toTriageJson(r).findings[0]).toMatchObject({ caughtBy: LINUX, seenBy: [LINUX, MAC] });
    expect(renderTriageHtml(toTriageJson(r))).toContain('caught by: GitHub Actions CI / test-linux (shard 1/2)');
  });

  it('a failure only one job saw names only that job, even when another job is triaged with it', () => {
    const r = triage({
      tests: [
        makeTest({ check: LINUX }),
        makeTest({ fullName: 'cart > other', state: 'passed', errors: [], check: MAC }),
      ],
    });
    expect(r.findings[0]).toMatchObject({ caughtBy: LINUX, seenBy: [LINUX] });
  });

  it("with one check among the inputs, a run-level finding is that check's; unknown inputs give null fields and print nothing", () => {
    const budget = triage({
      tests: [makeTest({ state: 'passed', errors: [], check: LINUX })],
      excesses: [
        {
          kind: 'file',
          project: null,
          file: FILE,
          fullName: null,
          durationMs: 9000,
          limitMs: 1000,
          origin: 'x',
          check: LINUX,
        },
      ],
    });
    expect(budget.findings[0]).toMatchObject({ class: 'budget', caughtBy: LINUX });
    const unknown = triage({ tests: [makeTest({ source: 'report', origin: 'r.json' })] });
    expect(unknown.findings[0]).toMatchObject({ caughtBy: UNKNOWN_CHECK, seenBy: [] });
    expect(formatTriage(unknown)).not.toContain('caught by');
    expect(toTriageJson(unknown).findings[0]?.caughtBy).toEqual({
      provider: null,
      workflow: null,
      job: null,
      shard: null,
      runUrl: null,
    });
  });

  it('property: the order of the inputs does not change caughtBy or seenBy', () => {
    const tests = [
      makeTest({ check: LINUX }),
      makeTest({ check: MAC, origin: 'mac.json' }),
      makeTest({ fullName: 'b', check: MAC, origin: 'mac.json b' }),
    ];
    fc.assert(
      fc.property(fc.shuffledSubarray(tests, { minLength: tests.length, maxLength: tests.length }), (shuffled) => {
        const a = triage({ tests }).findings.map((f) => [f.caughtBy, f.seenBy]);
        expect(triage({ tests: shuffled }).findings.map((f) => [f.caughtBy, f.seenBy])).toEqual(a);
      }),
    );
  });

  it("a record's check: its CI context with Vitest's shard, or the shard alone, or nothing", () => {
    const ci = {
      provider: 'gitlab-ci' as const,
      workflow: null,
      job: 'unit',
      runId: '5',
      attempt: null,
      runUrl: 'https://gitlab.com/j/1',
      branch: 'main',
      commit: 'abc',
      runnerOs: 'linux',
      shard: { index: 2, count: 3 },
    };
    expect(checkOfRecord({ ci, shard: { index: 2, count: 3 } })).toEqual({
      provider: 'gitlab-ci',
      workflow: null,
      job: 'unit',
      shard: { index: 2, count: 3 },
      runUrl: 'https://gitlab.com/j/1',
    });
    expect(checkOfRecord({ shard: { index: 1, count: 2 } })).toEqual({
      ...UNKNOWN_CHECK,
      shard: { index: 1, count: 2 },
    });
    expect(checkOfRecord({ ci: null, shard: null })).toBeUndefined();
    expect(describeCheck({ ...UNKNOWN_CHECK, shard: { index: 1, count: 2 } })).toBe('(shard 1/2)');
  });
});

describe('an escape in history', () => {
  const lastPass = {
    commit: 'a1b2c3d4e5f6a7b8',
    startedAt: '2026-11-29T10:15:00.000Z',
    job: '40-1/test',
    check: { ...MAC, job: 'test' },
  };
  const facts = (over: Partial<TestHistoryFacts>): TestHistoryFacts =>
    makeHistoryFacts({ file: FILE, fullName: NAME, lastPass, ...over });
  const rerun = { project: null, file: FILE, fullName: NAME, runs: 3, failed: 3, notRun: 0, firstError: null };

  it('says which check caught it first since it last passed, and the job of that last pass', () => {
    const firstFailure = {
      commit: 'ffff0000aaaa1111',
      startedAt: '2026-11-30T09:00:00.000Z',
      job: '41-1/test-linux',
      check: LINUX,
    };
    const r = triage({
      tests: [makeTest({ check: LINUX })],
      reruns: [rerun],
      rerunCount: 3,
      history: { branch: 'main', window: 200, tests: [facts({ failedRuns: 2, firstFailure })] },
    });
    expect(r.findings[0]?.class).toBe('escape');
    expect(r.findings[0]?.evidence).toContain(
      'history (measured): first caught on main in the run of ffff0000aaaa (2026-11-30 09:00 UTC), job GitHub Actions CI / test-linux (shard 1/2) https://github.com/acme/shop/actions/runs/7',
    );
    expect(r.findings[0]?.evidence).toContain(
      'history (measured): last passed on main in the run of a1b2c3d4e5f6 (2026-11-29 10:15 UTC), job GitHub Actions CI / test https://github.com/acme/shop/actions/runs/7',
    );
  });

  it('without an earlier failure, this run is the first to catch it; an old run without a CI context names its stored job', () => {
    const r = triage({
      tests: [makeTest({ check: LINUX })],
      reruns: [rerun],
      rerunCount: 3,
      history: { branch: 'main', window: 200, tests: [facts({ lastPass: { ...lastPass, check: null } })] },
    });
    expect(r.findings[0]?.evidence).toContain(
      "history (measured): no earlier failure on main since it last passed: this run's check is the first to catch it",
    );
    expect(r.findings[0]?.evidence).toContain(
      'history (measured): never failed in its last 40 recorded runs on main; last passed in the run of a1b2c3d4e5f6 (2026-11-29 10:15 UTC), job 40-1/test',
    );
  });
});

describe('planTriage', () => {
  it('names the tests to ask history about and the failures to re-run, once each, before the one computeTriage', () => {
    const inputs = makeInputs({
      tests: [
        makeTest(),
        makeTest({ origin: 'other.json' }),
        makeTest({ fullName: 'slow', state: 'passed', errors: [] }),
      ],
      excesses: [
        { kind: 'test', project: null, file: FILE, fullName: 'slow', durationMs: 6000, limitMs: 5000, origin: 'v' },
      ],
      unhandled: [
        { type: 'Unhandled Rejection', message: 'boom', file: 'test/u.test.ts', fullName: null, origin: 'u' },
      ],
      rerunCount: 2,
    });
    const plan = planTriage(inputs, BUILT_IN_SIGNATURES);
    expect(plan.historyQuestions).toEqual(
      expect.arrayContaining([
        { project: null, file: FILE, fullName: NAME },
        { project: null, file: FILE, fullName: 'slow' },
      ]),
    );
    expect(plan.historyQuestions).toHaveLength(2);
    expect(plan.rerunTargets.map((t) => [t.file, t.fullName, t.check])).toEqual(
      expect.arrayContaining([
        [FILE, NAME, 'test'],
        ['test/u.test.ts', null, 'unhandled'],
      ]),
    );
    expect(plan.rerunTargets).toHaveLength(2);
  });
});
