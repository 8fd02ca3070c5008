import { describe, expect, it } from 'vitest';
import { formatBudgetReport } from '../../../src/core/budget/budget-format.js';
import {
  escapeAnnotationData,
  escapeAnnotationProperty,
  formatGithubAnnotations,
  formatStepSummary,
} from '../../../src/core/budget/budget-github.js';
import { computeBudgetReport } from '../../../src/core/budget/budget-report.js';
import { makeInput, makeTest } from './budget-factories.js';

describe('GitHub output of the budget report', () => {
  it('escapes workflow-command data and properties', () => {
    expect(escapeAnnotationData('50%\nnext\r')).toBe('50%25%0Anext%0D');
    expect(escapeAnnotationProperty('a,b:c')).toBe('a%2Cb%3Ac');
  });

  it('annotates a violation as an error at the file and line, a near-budget test as a warning', () => {
    const report = computeBudgetReport(
      makeInput({ tests: [makeTest({ durationMs: 5310 }), makeTest({ fullName: 'near', line: 7, durationMs: 4500 })] }),
    );
    const lines = formatGithubAnnotations(report).trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^::error file=test\/hub\/tracker\.test\.ts,line=42,title=flakeguard%3A over duration budget::over budget {2}tracker > reloads journal {2}5\.31s > 5\.00s \(linux budget\)%0ATo allow it: flakeguard allowances add /,
    );
    expect(lines[1]).toBe(
      '::warning file=test/hub/tracker.test.ts,line=7,title=flakeguard%3A near duration budget::near budget  near  4.50s of 5.00s (90%25, linux budget)',
    );
  });

  it('names the Vitest project of a test two projects run, in the text, the annotations and the summary', () => {
    const edge = makeTest({ project: 'edge', durationMs: 5310 });
    const report = computeBudgetReport(makeInput({ tests: [makeTest({ project: 'node', durationMs: 12 }), edge] }));
    expect(report.violations.map((v) => v.project)).toEqual(['edge']);
    expect(formatBudgetReport(report)).toMatch(
      /over budget {2}test\/hub\/tracker\.test\.ts:42 \[edge\] {2}tracker > reloads journal/,
    );
    expect(formatGithubAnnotations(report)).toMatch(/::over budget {2}tracker > reloads journal \[edge\] {2}5\.31s/);
    expect(formatStepSummary(report)).toContain('test/hub/tracker.test.ts:42 [edge]');
    // One unnamed project reads as before: no tag.
    const single = computeBudgetReport(makeInput({ tests: [makeTest({ project: '', durationMs: 5310 })] }));
    expect(formatBudgetReport(single)).toMatch(/over budget {2}test\/hub\/tracker\.test\.ts:42 {2}tracker/);
  });

  it('adds an error without a file that says why a run is red with no failing test', () => {
    const report = computeBudgetReport(
      makeInput({
        unhandledErrors: [{ message: 'boom', type: 'Unhandled Rejection', file: 'a.test.ts', fullName: null }],
      }),
    );
    expect(formatGithubAnnotations(report)).toBe(
      '::error title=flakeguard%3A why the run is red::flakeguard: run failed with no failing test: 1 unhandled error (Unhandled Rejection from a.test.ts)\n',
    );
  });

  it('writes a Markdown table with escaped cells', () => {
    const report = computeBudgetReport(makeInput({ tests: [makeTest({ fullName: 'a | b', durationMs: 6000 })] }));
    const md = formatStepSummary(report);
    expect(md).toContain('| 🔴 over budget | a \\| b | `test/hub/tracker.test.ts:42` | 6.00s | 5.00s | linux budget |');
    expect(md).toContain(
      '```sh\nflakeguard allowances add --file "test/hub/tracker.test.ts" --test \'a | b\' --budget 7.5s',
    );
  });

  it('prints nothing for a clean run', () => {
    expect(formatGithubAnnotations(computeBudgetReport(makeInput({ tests: [makeTest()] })))).toBe('');
  });
});
