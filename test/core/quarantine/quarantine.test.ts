import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Document, LineCounter, type Node, parseDocument } from 'yaml';
import { allowanceKey } from '../../../src/core/allowances/allowance-match.js';
import { parseQuarantineTerms, quarantineTermsToYaml } from '../../../src/core/allowances/quarantine-terms.js';
import { formatBudgetReport } from '../../../src/core/budget/budget-format.js';
import { formatGithubAnnotations } from '../../../src/core/budget/budget-github.js';
import { computeBudgetReport } from '../../../src/core/budget/budget-report.js';
import {
  formatRecentFailures,
  type RunQuarantine,
  recentFailuresOf,
} from '../../../src/core/quarantine/run-quarantine.js';
import { makeFile, makeInput, makeTest } from '../budget/budget-factories.js';

const KEY = allowanceKey({ file: 'test/hub/tracker.test.ts', fullName: 'tracker > reloads journal' });
const active: RunQuarantine = {
  id: 'q1a2',
  reason: 'flaky on CI (T-19)',
  link: 'https://t/19',
  expires: '2999-01-01',
  expired: false,
};
const failedTest = makeTest({ state: 'failed', errors: [{ message: 'boom', frame: 'test/hub/tracker.test.ts:44:5' }] });
const failedFile = makeFile({ state: 'failed' });

function terms(yamlText: string): { value: ReturnType<typeof parseQuarantineTerms>; problems: string[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter });
  const where = (n: Node | null | undefined): string => {
    const p = lineCounter.linePos(n?.range?.[0] ?? 0);
    return `q.yaml:${p.line}:${p.col}`;
  };
  const problems: string[] = [];
  return { value: parseQuarantineTerms(doc.contents, where, (m) => problems.push(m)), problems };
}

describe('a quarantine in the run', () => {
  it("a failure under an applying quarantine is listed, not counted; Vitest's red is excused", () => {
    const report = computeBudgetReport(
      makeInput({
        tests: [failedTest],
        files: [failedFile],
        quarantine: new Map([[KEY, active]]),
        reason: 'failed',
        vitestExitCode: 1,
      }),
    );
    expect(report.failing).toEqual([]);
    expect(report.quarantined).toHaveLength(1);
    expect(report.verdict).toEqual({ red: false, excusedByQuarantine: true, failedByFlakeguard: false, causes: [] });
    const text = formatBudgetReport(report);
    expect(text).toContain(
      'quarantined  test/hub/tracker.test.ts:42  tracker > reloads journal  failed under quarantine q1a2 until 2999-01-01: flaky on CI (T-19) https://t/19; boom',
    );
    expect(text).toContain('1 quarantined test failed (not counted)');
    expect(formatGithubAnnotations(report)).toContain(
      '::warning file=test/hub/tracker.test.ts,line=42,title=flakeguard%3A quarantined test failed::',
    );
  });

  it('another failure keeps the run red; a passing quarantined test changes nothing', () => {
    const other = makeTest({ fullName: 'other', state: 'failed', errors: [{ message: 'x', frame: null }] });
    const red = computeBudgetReport(
      makeInput({
        tests: [failedTest, other],
        files: [failedFile],
        quarantine: new Map([[KEY, active]]),
        reason: 'failed',
        vitestExitCode: 1,
      }),
    );
    expect(red.verdict).toEqual({
      red: true,
      failedByFlakeguard: false,
      causes: [{ kind: 'failing-tests', count: 1 }],
    });
    const green = computeBudgetReport(makeInput({ tests: [makeTest()], quarantine: new Map([[KEY, active]]) }));
    expect(green.verdict).toEqual({ red: false, failedByFlakeguard: false, causes: [] });
  });

  it('an expired quarantine fails the run and says since when', () => {
    const expired = { ...active, expires: '2020-01-31', expired: true };
    const report = computeBudgetReport(
      makeInput({
        tests: [failedTest],
        files: [failedFile],
        quarantine: new Map([[KEY, expired]]),
        reason: 'failed',
        vitestExitCode: 1,
      }),
    );
    expect(report.failing).toHaveLength(1);
    expect(report.verdict.red).toBe(true);
    expect(formatBudgetReport(report)).toContain(
      '(its quarantine q1a2 expired on 2020-01-31: flaky on CI (T-19) https://t/19; it fails the run again)',
    );
    expect(formatGithubAnnotations(report)).toContain(
      '::error file=test/hub/tracker.test.ts,line=42,title=flakeguard%3A quarantine expired::',
    );
  });

  it('a quarantine never turns a run with a crash, a budget violation or no failure at all green by itself', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.boolean(), (failed, over, crash) => {
        const test = makeTest({
          state: failed ? 'failed' : 'passed',
          durationMs: over ? 9000 : 10,
          errors: failed ? [{ message: 'e', frame: null }] : [],
        });
        const unhandled = crash
          ? [
              {
                message: '[vitest-pool]: Worker forks emitted error.',
                type: 'Unhandled Error',
                file: null,
                fullName: null,
              },
            ]
          : [];
        const report = computeBudgetReport(
          makeInput({
            tests: [test],
            files: [failedFile],
            unhandledErrors: unhandled,
            quarantine: new Map([[KEY, active]]),
            reason: failed || crash ? 'failed' : 'passed',
            vitestExitCode: failed || crash ? 1 : null,
          }),
        );
        // Only a failure (a failed test is never over budget) with nothing else wrong is excused.
        expect(report.verdict.excusedByQuarantine === true).toBe(failed && !crash);
        if (crash) expect(report.verdict.red).toBe(true);
        if (over && !failed) expect(report.verdict.red).toBe(true);
      }),
    );
  });
});

describe('quarantine terms', () => {
  it('reads reason, link and expires; names each problem with its place', () => {
    expect(terms('reason: flaky\nlink: https://t/1\nexpires: 2027-01-15\n')).toEqual({
      value: { reason: 'flaky', link: 'https://t/1', expires: '2027-01-15' },
      problems: [],
    });
    const bad = terms('reason: ""\nexpires: 2027-02-30\nowner: me\n');
    expect(bad.value).toBeNull();
    expect(bad.problems).toEqual([
      'q.yaml:3:1: unknown key "quarantine.owner"; a quarantine has reason, link, expires, owners',
      'q.yaml:1:9: quarantine.reason is missing or empty; say why the test is quarantined and who owns the fix',
      'q.yaml:2:10: quarantine.expires "2027-02-30" is not a date; write YYYY-MM-DD',
    ]);
    expect(terms('flaky\n').problems[0]).toContain('quarantine must be a map');
  });

  it('reads the owners recorded at add time, and writes them back on one line', () => {
    expect(terms('reason: flaky\nowners: "@org/web @dana"\n').value).toEqual({
      reason: 'flaky',
      link: null,
      expires: null,
      owners: ['@org/web', '@dana'],
    });
    expect(quarantineTermsToYaml({ reason: 'r', link: null, expires: null, owners: ['@a', '@b'] })).toEqual({
      reason: 'r',
      owners: '@a @b',
    });
    expect(quarantineTermsToYaml({ reason: 'r', link: null, expires: null, owners: [] })).toEqual({ reason: 'r' });
  });

  it('round-trips through YAML for any reason and link text', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''),
        fc.option(fc.string({ minLength: 1 }).filter((s) => s.trim() !== '' && s === s.trim())),
        (reason, link) => {
          const back = terms(
            String(new Document(quarantineTermsToYaml({ reason: reason.trim(), link, expires: '2027-01-15' }))),
          );
          expect(back.problems).toEqual([]);
          expect(back.value).toEqual({ reason: reason.trim(), link, expires: '2027-01-15' });
        },
      ),
    );
  });
});

describe("the quarantine block's recent runs from history", () => {
  const stored = (states: readonly string[], durationAt: (i: number) => number) =>
    states
      .map((state, i) => ({
        startedAt: new Date(Date.UTC(2026, 10, 1) + i * 3_600_000).toISOString(),
        platform: 'linux',
        state,
        durationMs: durationAt(i),
        limitMs: 5000,
      }))
      .reverse();

  it('counts this run as a failure and adds the trend under the history report rule', () => {
    const few = recentFailuresOf(stored(['passed', 'failed', 'passed', 'passed'], (i) => 100 + 50 * i));
    expect(few).toMatchObject({ failures: 2, runs: 5 });
    expect(formatRecentFailures(few)).toBe(
      '2nd failure in the last 5 runs; durations +50ms a run (95% CI unbounded with 3 runs): not enough runs to project (3 of 10)',
    );
    const many = recentFailuresOf(
      stored(
        Array.from({ length: 19 }, (_, i) => (i === 4 ? 'failed' : 'passed')),
        (i) => 3000 + 100 * i,
      ),
    );
    expect(formatRecentFailures(many)).toBe(
      '2nd failure in the last 20 runs; durations +100ms a run (95% CI +100ms to +100ms): crosses in about 2 runs',
    );
    expect(formatRecentFailures(recentFailuresOf(stored(['failed', 'failed'], () => 10)))).toBe(
      '3rd failure in the last 3 runs',
    );
    // The first runs with history (test/e2e/quarantine.test.ts shows the third from a real store).
    expect(formatRecentFailures(recentFailuresOf(stored([], () => 10)))).toBe('1st failure in the last 1 run');
    expect(formatRecentFailures(recentFailuresOf(stored(['failed'], () => 10)))).toBe('2nd failure in the last 2 runs');
  });
});
