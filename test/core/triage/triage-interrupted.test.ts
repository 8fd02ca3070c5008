/** A red run the records say was interrupted: --bail after a quarantined failure (issue 48, finding 12). */
import { describe, expect, it } from 'vitest';
import { computeTriage } from '../../../src/core/triage/triage.js';
import { BUILT_IN_SIGNATURES } from '../../../src/core/triage/triage-signatures.js';
import { makeObservedTest, makeTriageInputs } from './triage-factories.js';

const INTERRUPTED = 'r.json: Vitest ended the run as interrupted (stopped before its end)';

describe('an interrupted run with no failing test', () => {
  it('after a quarantined failure: --bail named as the cause, with the quarantined test and the pending ones', () => {
    const report = computeTriage(
      makeTriageInputs({
        tests: [
          makeObservedTest({ fullName: 'flaky', state: 'failed', errors: ['boom'], quarantined: true }),
          makeObservedTest({ fullName: 'later', state: 'pending', errors: [] }),
        ],
        exitCode: 1,
        exitCodeOrigin: 'run record',
        interrupted: [INTERRUPTED],
      }),
      BUILT_IN_SIGNATURES,
    );
    expect(report.findings).toHaveLength(1);
    expect(report.findings[0]).toMatchObject({
      class: 'infrastructure',
      rule: 'interrupted-run',
      cause:
        "exit code 1: the run was interrupted after a quarantined test failed: Vitest's --bail counts a quarantined failure toward its limit and stopped the run",
      evidence: [
        INTERRUPTED,
        'failed under quarantine before the stop: "flaky" (test/a.test.ts)',
        '1 test left pending (not run)',
      ],
    });
    expect(report.findings[0]?.cause).not.toContain('no test explains');
  });

  it('without a quarantined failure: interrupted, --bail or a cancel', () => {
    const report = computeTriage(
      makeTriageInputs({ tests: [], exitCode: 1, exitCodeOrigin: 'run record', interrupted: [INTERRUPTED] }),
      BUILT_IN_SIGNATURES,
    );
    expect(report.findings[0]?.cause).toBe(
      "exit code 1: the run was interrupted before its end (Vitest's --bail, or the run was cancelled)",
    );
  });

  it('a run not interrupted is still the exit code that no test explains', () => {
    const report = computeTriage(
      makeTriageInputs({ tests: [], exitCode: 1, exitCodeOrigin: 'run record' }),
      BUILT_IN_SIGNATURES,
    );
    expect(report.findings[0]?.rule).toBe('unexplained-exit');
  });
});
