import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatBudgetReport } from '../../../src/core/budget/budget-format.js';
import { formatGithubAnnotations, formatStepSummary } from '../../../src/core/budget/budget-github.js';
import { placeKey, testsNamedWithoutLine, withReportPlaces } from '../../../src/core/budget/budget-places.js';
import { computeBudgetReport } from '../../../src/core/budget/budget-report.js';
import { makeInput, makeTest } from './budget-factories.js';

describe('a budget report computed once, lines added after', () => {
  it('gives the same report as computing again with the lines (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            name: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
            durationMs: fc.integer({ min: 0, max: 9000 }),
            failed: fc.boolean(),
            line: fc.option(fc.integer({ min: 1, max: 90 })),
          }),
          { maxLength: 8 },
        ),
        (specs) => {
          const unique = [...new Map(specs.map((s) => [s.name, s])).values()];
          const tests = unique.map((s) =>
            makeTest({
              fullName: s.name,
              durationMs: s.durationMs,
              line: s.line,
              state: s.failed ? 'failed' : 'passed',
              errors: s.failed ? [{ message: 'x', frame: null }] : [],
            }),
          );
          const once = computeBudgetReport(makeInput({ tests }));
          const named = testsNamedWithoutLine(once);
          const places = new Map(named.map((t, i) => [placeKey(t), { line: 100 + i, column: 3 }]));
          const placedTests = tests.map((t) =>
            t.line === null && places.has(placeKey(t)) ? { ...t, line: places.get(placeKey(t))!.line, column: 3 } : t,
          );
          expect(withReportPlaces(once, places)).toEqual(computeBudgetReport(makeInput({ tests: placedTests })));
        },
      ),
    );
  });
});

describe('owners in the reporter output', () => {
  const ownersOf = (file: string): string[] => (file.startsWith('test/hub/') ? ['@org/hub', '@ana'] : []);

  it('names the owners on the budget lines and the annotations', () => {
    const report = computeBudgetReport(
      makeInput({
        tests: [makeTest({ durationMs: 5310 }), makeTest({ fullName: 'near', durationMs: 4800 })],
        ownersOf,
      }),
    );
    const text = formatBudgetReport(report);
    expect(text).toMatch(
      /over budget {2}test\/hub\/tracker\.test\.ts:42 {2}tracker > reloads journal {2}5\.31s > 5\.00s \(linux budget\) {2}\(owners: @org\/hub @ana\)/,
    );
    expect(text).toMatch(/near budget .*near .*\(owners: @org\/hub @ana\)/);
    expect(formatGithubAnnotations(report)).toContain('(owners: @org/hub @ana)%0ATo allow it');
    expect(formatStepSummary(report)).toContain(
      '| 🔴 over budget | tracker > reloads journal  (owners: @org/hub @ana) |',
    );
  });

  it('without CODEOWNERS the lines stay as they were', () => {
    const plain = computeBudgetReport(makeInput({ tests: [makeTest({ durationMs: 5310 })] }));
    const none = computeBudgetReport(makeInput({ tests: [makeTest({ durationMs: 5310 })], ownersOf: () => [] }));
    expect(formatBudgetReport(none)).toBe(formatBudgetReport(plain));
    expect(formatGithubAnnotations(none)).toBe(formatGithubAnnotations(plain));
    expect(formatStepSummary(none)).toBe(formatStepSummary(plain));
  });
});
