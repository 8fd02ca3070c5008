/**
 * One event, one finding: an unhandled error whose text matches an infrastructure signature is that
 * finding; a worker crash seen in the log, the report and the exit code is one finding with all
 * three as evidence; and the order the inputs come in (shards, flags) changes no finding.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testKey } from '../../../src/core/test-id.js';
import { computeTriage, planTriage } from '../../../src/core/triage/triage.js';
import { historyQuestions } from '../../../src/core/triage/triage-history.js';
import { BUILT_IN_SIGNATURES } from '../../../src/core/triage/triage-signatures.js';
import type {
  LogEvent,
  LogScan,
  ObservedTest,
  ObservedUnhandled,
  TriageInputs,
} from '../../../src/core/triage/triage-types.js';
import {
  makeTriageInputs as makeInputs,
  makeLogScan,
  makeObservedTest,
  triageOf as triage,
} from './triage-factories.js';

const log = (input: string, events: readonly LogEvent[]): LogScan => makeLogScan(events, { input, lines: 200 });

const pending = (name: string, origin: string): ObservedTest =>
  makeObservedTest({
    file: 'test/big.test.ts',
    fullName: name,
    line: null,
    state: 'pending',
    durationMs: null,
    errors: [],
    origin,
  });

/** The test a crashed worker was running, pending in the report. */
const BIG_PENDING = pending(
  'loads the big fixture',
  'out/report.json: testResults[0] (test/big.test.ts) "loads the big fixture" pending',
);

/** Vitest's error for a worker that died, seen at `origin`, with the `cause` it printed. */
const workerError = (origin: string, cause: string): ObservedUnhandled => ({
  type: 'Unhandled Error',
  message: '[vitest-pool]: Worker forks emitted error.',
  file: null,
  fullName: null,
  origin,
  cause,
});

describe('one event, one finding', () => {
  it('a coverage collector losing its temp folder (an unhandled rejection) is one infrastructure finding, not also an escape', () => {
    const message = "ENOENT: no such file or directory, open '/w/app/coverage/.tmp/coverage-0.json'";
    const r = triage({
      unhandled: [
        {
          type: 'Unhandled Rejection',
          message: `Error: ${message}`,
          file: 'test/report.test.ts',
          fullName: 'writes',
          origin: 'ci.log:40: Unhandled Rejection',
        },
      ],
      logs: [log('ci.log', [{ line: 41, text: `Error: ${message}`, id: 'coverage-enoent', after: [] }])],
    });
    expect(r.findings).toMatchObject([
      { class: 'infrastructure', file: 'test/report.test.ts', rule: 'coverage-enoent' },
    ]);
    expect(r.findings[0]?.evidence).toContain(`ci.log:41: Error: ${message}`);
  });

  it('a worker killed when the heap ran out, seen in the log, the report and the exit code, is one finding with the three as evidence', () => {
    const r = triage({
      tests: [BIG_PENDING],
      unhandled: [
        workerError(
          'ci.log:30: Unhandled Error: [vitest-pool]: Worker forks emitted error.',
          'Error: Worker exited unexpectedly',
        ),
      ],
      logs: [
        log('ci.log', [
          {
            line: 12,
            text: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
            id: 'heap-out-of-memory',
            after: [],
          },
          { line: 31, text: 'Caused by: Error: Worker exited unexpectedly', id: 'worker-crash', after: [] },
        ]),
      ],
      exitCode: 1,
    });
    expect(r.findings).toMatchObject([
      { class: 'infrastructure', file: 'test/big.test.ts', fullName: null, rule: 'heap-out-of-memory' },
    ]);
    const evidence = r.findings[0]?.evidence ?? [];
    expect(evidence.some((e) => e.startsWith('ci.log:12: FATAL ERROR'))).toBe(true);
    expect(evidence.some((e) => e.startsWith('out/report.json: testResults[0]'))).toBe(true);
    expect(evidence).toContain('exit code 1 (--exit-code)');
  });
});

describe('one event, one finding: the kernel OOM killer', () => {
  it("a worker the OOM killer stopped, seen as Vitest's worker error and the kernel's line, is one finding on the file with the OOM cause", () => {
    const r = triage({
      tests: [BIG_PENDING],
      unhandled: [
        workerError(
          'ci.log:30',
          'Error: Worker exited unexpectedly with signal SIGKILL during started state while running test file /w/test/big.test.ts',
        ),
      ],
      logs: [
        log('ci.log', [
          {
            line: 52,
            text: 'Out of memory: Killed process 4242 (node) total-vm:4097000kB',
            id: 'oom-killer',
            after: [],
          },
        ]),
      ],
    });
    expect(r.findings).toMatchObject([
      { class: 'infrastructure', file: 'test/big.test.ts', fullName: null, rule: 'oom-killer' },
    ]);
    expect(r.findings[0]?.evidence).toContain(
      'ci.log:52: Out of memory: Killed process 4242 (node) total-vm:4097000kB',
    );
  });
});

const unhandledArb: fc.Arbitrary<ObservedUnhandled> = fc.record({
  type: fc.constantFrom('Unhandled Rejection', 'Unhandled Error'),
  message: fc.constantFrom(
    'Error: job rejected',
    'job rejected',
    "ENOENT: no such file or directory, open '/w/coverage/.tmp/coverage-1.json'",
    '[vitest-pool]: Worker forks emitted error.',
  ),
  file: fc.constantFrom(null, 'test/a.test.ts', 'test/b.test.ts'),
  fullName: fc.constantFrom(null, 'starts'),
  origin: fc.constantFrom('run.json: unhandled', 'ci.log:9', 'junit.xml: testcase'),
});

const testArb: fc.Arbitrary<ObservedTest> = fc.record({
  kind: fc.constantFrom('test' as const, 'suite' as const, 'file' as const),
  project: fc.constantFrom(null, '', 'node', 'edge'),
  file: fc.constantFrom(null, 'test/a.test.ts', 'test/b.test.ts'),
  fullName: fc.constantFrom('', 'grp', 'grp > t', 'grp > u [1+1] (edge)'),
  line: fc.constantFrom(null, 3, 7),
  state: fc.constantFrom('passed' as const, 'failed' as const, 'skipped' as const, 'pending' as const),
  durationMs: fc.constantFrom(null, 12, 900),
  errors: fc.subarray([
    'AssertionError: expected 1 to be 2',
    'Error: connect ECONNREFUSED 127.0.0.1:5432',
    'Error: Test timed out in 100ms.',
  ]),
  limitMs: fc.constant(null),
  source: fc.constantFrom('record' as const, 'report' as const, 'junit' as const, 'log' as const),
  origin: fc.constantFrom('r.json: entry', 'ci.log:4', 'junit.xml: testcase', 'run.json: test'),
});

const eventArb: fc.Arbitrary<LogEvent> = fc.record({
  line: fc.nat({ max: 50 }),
  text: fc.constantFrom(
    'FATAL ERROR: JavaScript heap out of memory',
    'Error: Worker exited unexpectedly',
    'npm error code E404',
    'Startup Error',
    'failed to load config from /w/vitest.config.ts',
  ),
  id: fc.constantFrom('heap-out-of-memory', 'worker-crash', 'npm-install', 'startup-error', 'failed-to-load-config'),
  after: fc.constant([]),
});

const inputsArb = fc.record({
  tests: fc.array(testArb, { maxLength: 6 }),
  unhandled: fc.array(unhandledArb, { maxLength: 4 }),
  logs: fc
    .array(fc.array(eventArb, { maxLength: 3 }), { maxLength: 2 })
    .map((scans) => scans.map((events, i) => log(`ci-${i}.log`, events))),
  exitCode: fc.constantFrom(null, 0, 1, 134, 137),
  problems: fc.subarray([
    { input: 'r.json', kind: 'truncated' as const, cutAtByte: 100, salvaged: 2, detail: 'cut' },
    {
      input: 'old.json',
      kind: 'missing-report' as const,
      cutAtByte: null,
      salvaged: 0,
      detail: 'old.json does not exist',
    },
  ]),
});

/** A permutation of a list from a list of random keys. */
function permute<T>(items: readonly T[], keys: readonly number[]): T[] {
  return items
    .map((item, i) => ({ item, k: keys[i % Math.max(keys.length, 1)] ?? 0, i }))
    .sort((a, b) => a.k - b.k || b.i - a.i)
    .map((x) => x.item);
}

describe('the order of the inputs', () => {
  it('permuting every input list gives the same findings, with the same evidence', () => {
    fc.assert(
      fc.property(inputsArb, fc.array(fc.integer(), { minLength: 1, maxLength: 12 }), (raw, keys) => {
        const base = makeInputs({ ...raw, exitCodeOrigin: raw.exitCode === null ? null : '--exit-code' });
        const shuffled: TriageInputs = {
          ...base,
          tests: permute(base.tests, keys),
          unhandled: permute(base.unhandled, keys),
          logs: permute(base.logs, keys),
          problems: permute(base.problems, keys),
        };
        expect(computeTriage(shuffled, BUILT_IN_SIGNATURES)).toEqual(computeTriage(base, BUILT_IN_SIGNATURES));
      }),
      { numRuns: 300 },
    );
  });

  it('the plan gathered before the one decision asks for every re-run and history question the decision uses', () => {
    fc.assert(
      fc.property(inputsArb, (raw) => {
        const inputs = makeInputs({
          ...raw,
          exitCodeOrigin: raw.exitCode === null ? null : '--exit-code',
          rerunCount: 2,
        });
        const plan = planTriage(inputs, BUILT_IN_SIGNATURES);
        const r = computeTriage(inputs, BUILT_IN_SIGNATURES);
        const planned = new Set(plan.rerunTargets.map(testKey));
        for (const f of r.findings) if (f.rerunTarget) expect(planned).toContain(testKey(f.rerunTarget));
        const asked = new Set(plan.historyQuestions.map(testKey));
        for (const q of historyQuestions(r.findings)) expect(asked).toContain(testKey(q));
      }),
      { numRuns: 200 },
    );
  });

  it('every finding has a class and evidence, and a red exit code always has a finding', () => {
    fc.assert(
      fc.property(inputsArb, (raw) => {
        const r = computeTriage(
          makeInputs({ ...raw, exitCodeOrigin: raw.exitCode === null ? null : '--exit-code' }),
          BUILT_IN_SIGNATURES,
        );
        for (const f of r.findings) expect(f.evidence.length).toBeGreaterThan(0);
        if (raw.exitCode !== null && raw.exitCode !== 0) expect(r.findings.length).toBeGreaterThan(0);
        expect(Object.values(r.counts).reduce((a, b) => a + b, 0)).toBe(r.findings.length);
      }),
      { numRuns: 200 },
    );
  });
});
