/** Triage with history, on plain facts (no store): known flake, escape since its last green run, budget trend. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTriage, toTriageJson } from '../../../src/core/triage/triage-format.js';
import {
  historyQuestions,
  type TestHistoryFacts,
  type TriageHistory,
} from '../../../src/core/triage/triage-history.js';
import type { RerunResult, TriageInputs } from '../../../src/core/triage/triage-types.js';
import {
  FILE,
  makeHistoryFacts as makeFacts,
  makeRerun,
  makeObservedTest as makeTest,
  NAME,
  triageOf,
} from './triage-factories.js';

const history = (...tests: TestHistoryFacts[]): TriageHistory => ({ branch: 'main', window: 200, tests });
const triage = (over: Partial<TriageInputs>) => triageOf({ tests: [makeTest()], ...over });
const rerun = (failed: number): RerunResult => makeRerun(failed, 3);
const run = (commit: string, startedAt: string) => ({ commit, startedAt });

/** `n` passed runs on linux, one a day from 2026-11-01, `first` ms then `step` ms longer each day (limit 5 s). */
const dailyDurations = (n: number, first: number, step: number): TestHistoryFacts['durations'] =>
  Array.from({ length: n }, (_, i) => ({
    atMs: Date.UTC(2026, 10, 1) + i * 86_400_000,
    durationMs: first + step * i,
    limitMs: 5000,
    platform: 'linux',
  }));

/** Triage of `grp > t` over its 5 s limit (5.1 s), with these durations in its history. */
const overLimitWithHistory = (durations: TestHistoryFacts['durations']) =>
  triage({
    tests: [],
    excesses: [
      {
        kind: 'test',
        project: null,
        file: FILE,
        fullName: NAME,
        durationMs: 5100,
        limitMs: 5000,
        origin: 'record r.json',
      },
    ],
    history: history(makeFacts({ durations })),
  });

describe('triage with history facts', () => {
  it('a failure that failed and then passed on a re-run of the same commit before is a measured flake without --rerun', () => {
    const facts = makeFacts({
      runs: 200,
      failedRuns: 4,
      rerunPassed: [
        run('c4', '2026-11-30T08:00:00.000Z'),
        run('c3', '2026-11-20T08:00:00.000Z'),
        run('c2', '2026-11-10T08:00:00.000Z'),
        run('c1', '2026-11-01T08:00:00.000Z'),
      ],
    });
    const r = triage({ history: history(facts) });
    expect(r.findings).toMatchObject([
      { class: 'flake', measured: true, rule: 'history-flake', fullName: NAME, file: FILE },
    ]);
    expect(r.findings[0]?.cause).toMatch(/^a known flake: .* on main .*now: AssertionError: expected 1 to be 2$/);
    expect(r.findings[0]?.evidence).toContain(
      'history (measured): failed 4 of the last 200 runs on main, each passed on a re-run of the same commit (latest c4 (2026-11-30 08:00 UTC))',
    );
    expect(r.counts).toMatchObject({ escape: 0, flake: 1 });
    expect(r.verdict).toBe('red');
    expect(toTriageJson(r).history).toEqual({ branch: 'main', window: 200, tests: 1 });
    expect(formatTriage(r)).toContain(
      'history: branch main, the last 200 runs of each failed or slow test (1 known to the store)',
    );
  });

  it('a pass only on a retry in an earlier run counts as failed-then-passed too', () => {
    const r = triage({ history: history(makeFacts({ retried: [run('c9', '2026-11-28T00:00:00.000Z')] })) });
    expect(r.findings[0]).toMatchObject({ class: 'flake', rule: 'history-flake' });
    expect(r.findings[0]?.evidence).toContain(
      'history (measured): never failed a whole run in the last 40 runs on main; 1 run passed only on a retry (latest c9 (2026-11-28 00:00 UTC))',
    );
  });

  it('a test that never failed in its recorded runs and fails every re-run is an escape naming its last green run and the range', () => {
    const r = triage({ reruns: [rerun(3)], rerunCount: 3, history: history(makeFacts()) });
    const f = r.findings[0];
    expect(f).toMatchObject({ class: 'escape', measured: true, rule: 'rerun-failed' });
    expect(f?.cause).toContain(
      'it never failed in its 40 recorded runs on main and last passed at a1b2c3d4e5f6 (2026-11-29 10:15 UTC)',
    );
    expect(f?.action).toContain('the change that broke it is in a1b2c3d4e5f6..HEAD');
    expect(f?.evidence).toContain(
      'history (measured): never failed in its last 40 recorded runs on main; last passed in the run of a1b2c3d4e5f6 (2026-11-29 10:15 UTC)',
    );
  });

  it('without re-runs and without a flake in history the escape stays inferred, with its last green run as evidence', () => {
    const f = triage({ history: history(makeFacts()) }).findings[0];
    expect(f).toMatchObject({ class: 'escape', measured: false, rule: 'failed-not-rerun' });
    expect(f?.evidence).toContain(
      'history (measured): never failed in its last 40 recorded runs on main; last passed in the run of a1b2c3d4e5f6 (2026-11-29 10:15 UTC)',
    );
  });

  it('re-runs still decide when they ran: a known flake that fails every re-run now is an escape with its flake history as evidence', () => {
    const facts = makeFacts({ failedRuns: 1, rerunPassed: [run('c1', '2026-11-01T08:00:00.000Z')] });
    const f = triage({ reruns: [rerun(3)], rerunCount: 3, history: history(facts) }).findings[0];
    expect(f).toMatchObject({ class: 'escape', rule: 'rerun-failed' });
    expect(
      f?.evidence.some((e) => e.startsWith('history (measured): failed 1 of the last 40 runs on main, each passed')),
    ).toBe(true);
    expect(f?.cause).not.toContain('never failed');
  });

  it('a test over its limit names its duration trend from history', () => {
    const r = overLimitWithHistory(dailyDurations(10, 4540, 40));
    expect(r.findings).toMatchObject([{ class: 'budget', rule: 'budget-test' }]);
    expect(r.findings[0]?.evidence).toContain(
      'history (measured): 4.90s of 5.00s (linux, 10 passed runs on main), +40ms a day (95% CI +40ms to +40ms; +40ms a run): crosses in about 2.5 days, about 2.5 runs',
    );
  });

  it("three runs give the slope with its (unbounded) interval and no projection, under the history report's rule", () => {
    const r = overLimitWithHistory(dailyDurations(3, 4500, 150));
    const line = r.findings[0]?.evidence.find((e) => e.includes('passed runs on main'));
    expect(line).toBe(
      'history (measured): 4.80s of 5.00s (linux, 3 passed runs on main), +150ms a day (95% CI unbounded with 3 runs; +150ms a run): not enough runs to project (3 of 10)',
    );
  });

  it('facts about other tests, or with no recorded run, change nothing; no history gives the same findings as before', () => {
    const without = triage({});
    expect(triage({ history: history(makeFacts({ fullName: 'other' })) }).findings).toEqual(without.findings);
    expect(triage({ history: history(makeFacts({ runs: 0, lastPass: null })) }).findings).toEqual(without.findings);
    expect(without.history).toBeNull();
  });

  it('asks about failed and slow tests, never about run-level or infrastructure findings', () => {
    const r = triage({
      tests: [makeTest(), makeTest({ fullName: 'db', errors: ['Error: connect ECONNREFUSED 127.0.0.1:5432'] })],
      excesses: [{ kind: 'test', project: null, file: FILE, fullName: 'slow', durationMs: 9, limitMs: 5, origin: 'x' }],
    });
    expect(historyQuestions(r.findings)).toEqual(
      expect.arrayContaining([
        { project: null, file: FILE, fullName: NAME },
        { project: null, file: FILE, fullName: 'slow' },
      ]),
    );
    expect(historyQuestions(r.findings)).toHaveLength(2);
  });

  it('property: the class is flake exactly when history shows a failed-then-passed run (no re-runs, no signature)', () => {
    fc.assert(
      fc.property(fc.nat(5), fc.nat(5), fc.nat(5), (retried, rerunPassed, extraFailed) => {
        const facts = makeFacts({
          runs: 50,
          failedRuns: rerunPassed + extraFailed,
          retried: Array.from({ length: retried }, () => run('r', '2026-11-01T00:00:00.000Z')),
          rerunPassed: Array.from({ length: rerunPassed }, () => run('p', '2026-11-01T00:00:00.000Z')),
        });
        const f = triage({ history: history(facts) }).findings[0];
        expect(f?.class).toBe(retried + rerunPassed > 0 ? 'flake' : 'escape');
        expect(f?.measured).toBe(retried + rerunPassed > 0);
      }),
    );
  });
});
