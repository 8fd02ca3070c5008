import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowanceKey } from '../../../src/core/allowances/allowance-match.js';
import { formatBudgetReport } from '../../../src/core/budget/budget-format.js';
import { computeBudgetReport } from '../../../src/core/budget/budget-report.js';
import { formatVerdictLine, shellQuote } from '../../../src/core/budget/budget-text.js';
import { makeConfig, makeFile, makeInput, makeTest } from './budget-factories.js';

describe('computeBudgetReport', () => {
  it('a passed test over its limit is a violation with its figures; the run fails on it', () => {
    const report = computeBudgetReport(makeInput({ tests: [makeTest({ durationMs: 5310 })], files: [makeFile()] }));
    expect(report.violations).toEqual([
      {
        kind: 'test',
        project: '',
        file: 'test/hub/tracker.test.ts',
        fullName: 'tracker > reloads journal',
        line: 42,
        durationMs: 5310,
        limitMs: 5000,
        limitSource: 'budget',
        platformKey: 'all',
      },
    ]);
    expect(report.verdict).toEqual({
      red: true,
      failedByFlakeguard: true,
      causes: [{ kind: 'budget', tests: 1, files: 0 }],
    });
  });

  it('a failed or skipped test is never a budget violation', () => {
    const report = computeBudgetReport(
      makeInput({
        tests: [
          makeTest({ state: 'failed', durationMs: 9000, errors: [{ message: 'boom', frame: null }] }),
          makeTest({ fullName: 's', state: 'skipped', durationMs: null }),
        ],
      }),
    );
    expect(report.violations).toEqual([]);
    expect(report.failing).toHaveLength(1);
    expect(report.verdict.failedByFlakeguard).toBe(false);
    expect(report.verdict.causes).toEqual([{ kind: 'failing-tests', count: 1 }]);
  });

  it('keeps the same file and name in two Vitest projects apart; their allowance applies in both', () => {
    const allowances = new Map([
      [
        allowanceKey({ file: 'test/hub/tracker.test.ts', fullName: 'tracker > reloads journal' }),
        { id: 'a1', budget: { kind: 'single' as const, value: 8000 } },
      ],
    ]);
    const report = computeBudgetReport(
      makeInput({
        tests: [makeTest({ project: 'node', durationMs: 5310 }), makeTest({ project: 'edge', durationMs: 5310 })],
        allowances,
      }),
    );
    expect(new Set(report.tests.map((t) => t.key)).size).toBe(2);
    expect(report.tests.map((t) => [t.project, t.allowanceId])).toEqual([
      ['node', 'a1'],
      ['edge', 'a1'],
    ]);
  });

  it('an allowance raises the limit for its test only', () => {
    const allowances = new Map([
      [
        allowanceKey({ file: 'test/hub/tracker.test.ts', fullName: 'tracker > reloads journal' }),
        { id: 'a1', budget: { kind: 'single' as const, value: 8000 } },
      ],
    ]);
    const report = computeBudgetReport(
      makeInput({
        tests: [makeTest({ durationMs: 5310 }), makeTest({ fullName: 'other', durationMs: 5310 })],
        allowances,
      }),
    );
    expect(report.violations.map((v) => v.fullName)).toEqual(['other']);
    expect(report.tests[0]).toMatchObject({
      limitMs: 8000,
      limitSource: 'allowance',
      allowanceId: 'a1',
      status: 'within',
    });
  });

  it('near budget at warnAt of the limit is a warning, not a failure', () => {
    const report = computeBudgetReport(makeInput({ tests: [makeTest({ durationMs: 4900 })] }));
    expect(report.near).toHaveLength(1);
    expect(report.verdict).toEqual({ red: false, failedByFlakeguard: false, causes: [] });
  });

  it('a file over its file budget is a violation even with every test within', () => {
    const config = makeConfig({ file: { kind: 'single', value: 60_000 } });
    const report = computeBudgetReport(
      makeInput({ config, tests: [makeTest({ durationMs: 100 })], files: [makeFile({ durationMs: 63_200 })] }),
    );
    expect(report.violations).toEqual([
      expect.objectContaining({ kind: 'file', file: 'test/hub/tracker.test.ts', durationMs: 63_200, limitMs: 60_000 }),
    ]);
  });

  it('lists a test that passed after a retry as flaky with its first error', () => {
    const first = { message: 'expected 1 to be 2', frame: 'test/a.test.ts:3:5', type: 'AssertionError' };
    const report = computeBudgetReport(makeInput({ tests: [makeTest({ retries: 1, flaky: true, errors: [first] })] }));
    expect(report.flaky).toEqual([
      {
        project: '',
        file: 'test/hub/tracker.test.ts',
        fullName: 'tracker > reloads journal',
        line: 42,
        retries: 1,
        firstError: first,
      },
    ]);
  });

  it('explains a red run with no failing test: unhandled errors, load errors, hooks, a crashed worker', () => {
    const report = computeBudgetReport(
      makeInput({
        files: [
          makeFile({
            file: 'a.test.ts',
            state: 'failed',
            errors: [{ message: "Cannot find module './x'", frame: null }],
          }),
          makeFile({ file: 'b.test.ts', state: 'failed', hookErrors: [{ message: 'beforeAll boom', frame: null }] }),
          makeFile({ file: 'c.test.ts', state: 'pending' }),
        ],
        unhandledErrors: [
          { message: 'late', type: 'Unhandled Rejection', file: 'd.test.ts', fullName: null },
          {
            message: '[vitest-pool]: Worker forks emitted error.',
            type: 'Unhandled Error',
            file: null,
            fullName: null,
          },
        ],
        reason: 'passed',
        vitestExitCode: 1,
      }),
    );
    expect(report.verdict.causes.map((c) => c.kind)).toEqual([
      'unhandled-errors',
      'load-errors',
      'hook-errors',
      'crashed-worker',
    ]);
    expect(formatVerdictLine(report)).toBe(
      "flakeguard: run failed with no failing test: 1 unhandled error (Unhandled Rejection from d.test.ts); 1 file failed to load (a.test.ts: Cannot find module './x'); a beforeAll/afterAll hook failed in b.test.ts: beforeAll boom; a test worker crashed while running c.test.ts ([vitest-pool]: Worker forks emitted error.)",
    );
  });

  it('says so when Vitest failed the run for a reason a reporter cannot see', () => {
    const report = computeBudgetReport(makeInput({ files: [makeFile()], tests: [makeTest()], vitestExitCode: 1 }));
    expect(report.verdict.causes).toEqual([{ kind: 'unknown', exitCode: 1 }]);
  });

  it('property: every passed test over its limit is listed once; the run fails exactly when one is', () => {
    const testArb = fc.record({
      fullName: fc.string({ minLength: 1, maxLength: 8 }),
      state: fc.constantFrom('passed' as const, 'failed' as const, 'skipped' as const),
      durationMs: fc.double({ min: 0, max: 20_000, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(testArb, { selector: (t) => t.fullName, maxLength: 30 }), (specs) => {
        const tests = specs.map((s) => makeTest(s));
        const report = computeBudgetReport(makeInput({ tests }));
        const over = specs
          .filter((s) => s.state === 'passed' && s.durationMs > 5000)
          .map((s) => s.fullName)
          .sort();
        expect(report.violations.map((v) => v.fullName ?? '').sort()).toEqual(over);
        expect(report.verdict.failedByFlakeguard).toBe(over.length > 0);
      }),
    );
  });
});

describe('formatBudgetReport', () => {
  it('prints the line of the issue, the allowance command and a last line with the count', () => {
    const text = formatBudgetReport(computeBudgetReport(makeInput({ tests: [makeTest({ durationMs: 5310 })] })));
    const lines = text.trimEnd().split('\n');
    expect(lines).toContain(
      '  over budget  test/hub/tracker.test.ts:42  tracker > reloads journal  5.31s > 5.00s (linux budget)',
    );
    expect(lines).toContain(
      '    flakeguard allowances add --file "test/hub/tracker.test.ts" --test "tracker > reloads journal" --budget 6.5s --reason "<why it needs more time>"',
    );
    expect(lines.at(-1)).toBe('flakeguard: run failed on duration budgets: 1 test over budget (no test failed)');
  });

  it('shows figures that differ when rounding would make them look equal', () => {
    const text = formatBudgetReport(computeBudgetReport(makeInput({ tests: [makeTest({ durationMs: 5001 })] })));
    expect(text).toContain('5.001s > 5.000s (linux budget)');
  });

  it('ends a green run with the count of tests checked', () => {
    const text = formatBudgetReport(
      computeBudgetReport(makeInput({ tests: [makeTest(), makeTest({ fullName: 'b' })] })),
    );
    expect(text).toBe('flakeguard: 2 tests within duration budgets\n');
  });
});

describe('shellQuote', () => {
  it('keeps a plain name in double quotes and single-quotes anything a shell would expand', () => {
    expect(shellQuote('tracker > reloads journal')).toBe('"tracker > reloads journal"');
    expect(shellQuote('costs $5 and "quotes"')).toBe(`'costs $5 and "quotes"'`);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

/** What a shell makes of a `$'...'` word (the escapes dollarQuote writes), for the property below. */
function decodeDollarQuote(word: string): string {
  expect(word.startsWith("$'") && word.endsWith("'")).toBe(true);
  return word.slice(2, -1).replace(/\\(x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}|[nrt\\'])/g, (_, e: string) => {
    if (e === 'n') return '\n';
    if (e === 'r') return '\r';
    if (e === 't') return '\t';
    if (e === '\\' || e === "'") return e;
    return String.fromCodePoint(Number.parseInt(e.slice(1), 16));
  });
}

describe('shellQuote for names with a line break or ESC (issue 48, finding 13)', () => {
  it('dollar-single quotes, with the characters as escapes a shell turns back', () => {
    expect(shellQuote('line one\nline two')).toBe("$'line one\\nline two'");
    expect(shellQuote("red \u001b[31m it's \\ \u202e")).toBe("$'red \\x1b[31m it\\'s \\\\ \\u202e'");
  });

  it('the quoted text has no unsafe character and decodes to the name (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (name) => {
        const quoted = shellQuote(name);
        expect(quoted).not.toMatch(/[\u0000-\u001f\u007f]/);
        if (quoted.startsWith("$'")) expect(decodeDollarQuote(quoted)).toBe(name);
      }),
    );
  });
});
