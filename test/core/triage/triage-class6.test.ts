/** Issue 19, class 6 in triage's core: quarantine as the reporter applies it; another tool's JUnit. */
import { describe, expect, it } from 'vitest';
import { computeTriage } from '../../../src/core/triage/triage.js';
import { readJunitReport } from '../../../src/core/triage/triage-junit.js';
import { BUILT_IN_SIGNATURES } from '../../../src/core/triage/triage-signatures.js';
import type { ObservedTest, TriageInputs } from '../../../src/core/triage/triage-types.js';
import { makeObservedTest, makeTriageInputs } from './triage-factories.js';

const makeTest = (over: Partial<ObservedTest> = {}): ObservedTest =>
  makeObservedTest({
    file: 'test/q.test.ts',
    fullName: 'bad',
    line: 2,
    durationMs: 3,
    source: 'record',
    origin: 'run.json: test "bad" failed',
    ...over,
  });
const inputs = (over: Partial<TriageInputs>): TriageInputs =>
  makeTriageInputs({ exitCode: 0, exitCodeOrigin: 'run.json', ...over });

describe('triage applies quarantine as the reporter does', () => {
  it('a green run whose only failure is under an applying quarantine is green, with no finding', () => {
    const r = computeTriage(
      inputs({ tests: [makeTest({ quarantined: true }), makeTest({ fullName: 'ok', state: 'passed', errors: [] })] }),
      BUILT_IN_SIGNATURES,
    );
    expect(r).toMatchObject({ verdict: 'green', findings: [] });
  });

  it('a failure without an applying quarantine is still a finding', () => {
    const r = computeTriage(
      inputs({ tests: [makeTest({ quarantined: true }), makeTest({ fullName: 'other' })], exitCode: 1 }),
      BUILT_IN_SIGNATURES,
    );
    expect(r.verdict).toBe('red');
    expect(r.findings.map((f) => f.fullName)).toEqual(['other']);
  });
});

describe('a JUnit file another tool wrote', () => {
  const jest =
    '<testsuites name="jest tests" tests="1" failures="1"><testsuite name="math"><testcase classname="math adds" name="math adds" time="0.002"><failure>Error: expected 3</failure></testcase></testsuite></testsuites>';

  it('is marked with its tool, and its finding gives no Vitest command and no re-run target', () => {
    const { tests } = readJunitReport(jest, 'jest.xml', (p) => p);
    expect(tests.map((t) => t.foreign)).toEqual(['jest tests']);
    const r = computeTriage(inputs({ tests, exitCode: 1 }), BUILT_IN_SIGNATURES);
    expect(r.findings).toHaveLength(1);
    expect(r.findings[0]?.action).not.toContain('vitest run');
    expect(r.findings[0]?.action).toContain(
      'the file is from "jest tests", not Vitest: no Vitest re-run command can be given',
    );
    expect(r.findings[0]?.rerunTarget).toBeUndefined();
  });

  it('Vitest\'s own JUnit ("vitest tests") keeps its reproduce command', () => {
    const { tests } = readJunitReport(
      jest.replace('jest tests', 'vitest tests').replace(/math adds" name/, 'test/m.test.ts" name'),
      'v.xml',
      (p) => p,
    );
    expect(tests[0]?.foreign).toBeUndefined();
    expect(computeTriage(inputs({ tests, exitCode: 1 }), BUILT_IN_SIGNATURES).findings[0]?.action).toContain(
      'npx vitest run',
    );
  });
});
