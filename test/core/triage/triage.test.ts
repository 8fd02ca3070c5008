import { describe, expect, it } from 'vitest';
import { formatCounts, formatTriage, toTriageJson } from '../../../src/core/triage/triage-format.js';
import { formatTriageMarkdown } from '../../../src/core/triage/triage-markdown.js';
import type { LogScan, RerunResult } from '../../../src/core/triage/triage-types.js';
import { makeLogScan, makeRerun, makeObservedTest as makeTest, triageOf as triage } from './triage-factories.js';

const makeLog = (events: LogScan['events'], tail: LogScan['tail'] = []): LogScan => makeLogScan(events, { tail });

describe('computeTriage', () => {
  it('a failed test without re-run is an escape, inferred, and says so', () => {
    const r = triage({ tests: [makeTest()] });
    expect(r.findings).toMatchObject([
      { class: 'escape', fullName: 'grp > t', file: 'test/a.test.ts', measured: false },
    ]);
    expect(r.findings[0]?.cause).toMatch(/^escape \(inferred: not re-run\)/);
    expect(r.findings[0]?.action).toContain('--rerun');
  });

  it('re-runs decide: every re-run failed is a measured escape, some passed is a measured flake', () => {
    const rerun = (failed: number): RerunResult => makeRerun(failed, 5);
    expect(triage({ tests: [makeTest()], reruns: [rerun(5)], rerunCount: 5 }).findings[0]).toMatchObject({
      class: 'escape',
      measured: true,
    });
    const flake = triage({ tests: [makeTest()], reruns: [rerun(2)], rerunCount: 5 }).findings[0];
    expect(flake).toMatchObject({ class: 'flake', measured: true });
    expect(flake?.evidence.at(-1)).toBe('re-ran test/a.test.ts > grp > t 5 times: 2/5 failed');
    const notRun = triage({
      tests: [makeTest()],
      reruns: [{ ...rerun(0), notRun: 5, firstError: 'not found' }],
      rerunCount: 5,
    }).findings[0];
    expect(notRun).toMatchObject({ class: 'escape', measured: false });
    expect(notRun?.cause).toContain('re-run not possible');
  });

  it('a pass after a retry in the run is a measured flake; a run it does not make red stays green', () => {
    const r = triage({ tests: [makeTest({ state: 'passed', errors: ['Error: flaky once'] })], exitCode: 0 });
    expect(r.verdict).toBe('green');
    expect(r.findings).toMatchObject([{ class: 'flake', measured: true, rule: 'retry-pass' }]);
  });

  it('an infrastructure signature in a failure decides its class', () => {
    const r = triage({ tests: [makeTest({ errors: ['Error: connect ECONNREFUSED 127.0.0.1:5432'] })] });
    expect(r.findings).toMatchObject([{ class: 'infrastructure', fullName: 'grp > t', rule: 'econnrefused' }]);
  });

  it('exit 137 alone is a SIGKILL, not out of memory; with an OOM line it joins that finding', () => {
    const alone = triage({ exitCode: 137 });
    expect(alone.findings).toHaveLength(1);
    expect(alone.findings[0]?.cause).toBe(
      'killed by SIGKILL (exit 137): out-of-memory killer or a timeout kill; no OOM message seen',
    );
    const oom = triage({
      exitCode: 137,
      logs: [
        makeLog([{ line: 7, id: 'heap-out-of-memory', text: 'FATAL ERROR: JavaScript heap out of memory', after: [] }]),
      ],
    });
    expect(oom.findings).toHaveLength(1);
    expect(oom.findings[0]).toMatchObject({ class: 'infrastructure', rule: 'heap-out-of-memory' });
    expect(oom.findings[0]?.evidence).toEqual([
      'ci.log:7: FATAL ERROR: JavaScript heap out of memory',
      'exit code 137 (--exit-code)',
    ]);
  });

  it('never leaves a red exit unexplained: the end of the log is the evidence', () => {
    const r = triage({ exitCode: 2, logs: [makeLog([], [{ line: 99, text: 'make: *** [deploy] Error 2' }])] });
    expect(r.verdict).toBe('red');
    expect(r.findings).toMatchObject([{ class: 'infrastructure', rule: 'unexplained-exit', measured: false }]);
    expect(r.findings[0]?.evidence).toContain('ci.log:99: make: *** [deploy] Error 2');
  });

  it('budget: an excess of a passed test is a finding, of a failed test it is not', () => {
    const excess = {
      kind: 'test' as const,
      project: null,
      file: 'test/a.test.ts',
      fullName: 'grp > t',
      durationMs: 5310,
      limitMs: 5000,
      origin: 'record',
    };
    expect(triage({ tests: [makeTest({ state: 'passed', errors: [] })], excesses: [excess] }).findings).toMatchObject([
      { class: 'budget', measured: true },
    ]);
    expect(triage({ tests: [makeTest({ state: 'passed', errors: [] })], excesses: [excess] }).findings[0]?.cause).toBe(
      'test took 5.31s, over its 5.00s limit by 310ms; its assertions passed',
    );
    expect(triage({ tests: [makeTest()], excesses: [excess] }).findings.map((f) => f.class)).toEqual(['escape']);
  });

  it('a cut report is an infrastructure finding that names the byte', () => {
    const r = triage({
      problems: [{ input: 'r.json', kind: 'truncated', cutAtByte: 163840, salvaged: 12, detail: 'd' }],
      tests: [makeTest()],
    });
    expect(r.findings.map((f) => f.class)).toEqual(['infrastructure', 'escape']);
    expect(r.findings[0]?.cause).toBe(
      'the report r.json was cut off at byte 163840; salvaged 12 complete test entries',
    );
  });

  it('the same failure from several inputs is one finding with every origin as evidence', () => {
    const r = triage({
      tests: [
        makeTest(),
        makeTest({ source: 'junit', origin: 'junit.xml: testcase' }),
        makeTest({ source: 'log', origin: 'ci.log:12: FAIL', file: 'test/a.test.ts' }),
      ],
    });
    expect(r.findings).toHaveLength(1);
    expect(r.findings[0]?.evidence.slice(0, 3)).toEqual(['r.json: entry', 'junit.xml: testcase', 'ci.log:12: FAIL']);
  });

  it('a run-level log signature becomes one finding with numbered lines; npm noise only when nothing else explains', () => {
    const logs = [
      makeLog([
        { line: 3, id: 'command-not-found', text: 'sh: 1: prettier: not found', after: [] },
        { line: 4, id: 'npm-failed', text: 'npm error code 127', after: [] },
      ]),
    ];
    const r = triage({ logs, exitCode: 127 });
    expect(r.findings).toMatchObject([
      { class: 'infrastructure', rule: 'command-not-found', evidence: ['ci.log:3: sh: 1: prettier: not found'] },
    ]);
    const npmOnly = triage({ logs: [makeLog([{ line: 4, id: 'npm-failed', text: 'npm error code 1', after: [] }])] });
    expect(npmOnly.findings).toMatchObject([{ rule: 'npm-failed' }]);
  });

  it('formats a table of counts, findings with evidence and action, Markdown and the JSON document', () => {
    const r = triage({ tests: [makeTest(), makeTest({ fullName: 'other', state: 'passed', errors: ['flaky'] })] });
    expect(formatCounts(r)).toBe('infrastructure 0, escape 1, flake 1, budget 0');
    const text = formatTriage(r);
    expect(text).toContain('1. escape (inferred) test/a.test.ts > grp > t');
    expect(text).toContain('   action: confirm with flakeguard triage --rerun 5');
    expect(formatTriageMarkdown(r)).toContain('| escape | 1 |');
    const json = toTriageJson(r);
    expect(Object.keys(json.findings[0] ?? {})).toEqual([
      'class',
      'project',
      'fullName',
      'file',
      'cause',
      'evidence',
      'measured',
      'action',
      'rule',
      'owners',
      'caughtBy',
      'seenBy',
      'replay',
    ]);
    expect(JSON.parse(JSON.stringify(json))).toMatchObject({ version: 2, verdict: 'red' });
  });
});

describe('computeTriage with Vitest 5 inputs', () => {
  it('one unhandled error seen by the record (no file), the log and JUnit (with the file) is one finding on that file', () => {
    const unhandled = [
      {
        type: 'Unhandled Error',
        message: '[vitest-pool]: Worker forks emitted error.',
        file: null,
        fullName: null,
        origin: 'run.json: unhandled',
      },
      {
        type: 'Unhandled Error',
        message: 'Error: [vitest-pool]: Worker forks emitted error.',
        file: 'test/addon.test.ts',
        fullName: null,
        origin: 'ci.log:11',
        cause:
          'Error: Worker exited unexpectedly with signal SIGKILL during started state while running test file /w/test/addon.test.ts',
      },
      {
        type: 'Unhandled Error',
        message: '[vitest-pool]: Worker forks emitted error.',
        file: 'test/addon.test.ts',
        fullName: null,
        origin: 'junit.xml: testcase',
      },
    ];
    const r = triage({ unhandled });
    expect(r.findings).toMatchObject([{ class: 'infrastructure', file: 'test/addon.test.ts', rule: 'worker-crash' }]);
    // Every input's copy is evidence (in the canonical order of the inputs: the order they were given changes nothing).
    expect([...(r.findings[0]?.evidence.slice(0, 3) ?? [])].sort()).toEqual([
      'ci.log:11',
      'junit.xml: testcase',
      'run.json: unhandled',
    ]);
  });

  it('the same message from two files stays two findings', () => {
    const u = (file: string) => ({
      type: 'Unhandled Rejection',
      message: 'Error: boom',
      file,
      fullName: null,
      origin: `ci.log: ${file}`,
    });
    expect(triage({ unhandled: [u('test/a.test.ts'), u('test/b.test.ts')] }).findings.map((f) => f.file)).toEqual([
      'test/a.test.ts',
      'test/b.test.ts',
    ]);
  });

  it('an unfinished file joins the finding that explains the stop, else is its own', () => {
    const pending = makeTest({
      kind: 'file',
      fullName: '',
      state: 'pending',
      errors: [],
      origin: 'r.json: testResults[0] unfinished',
    });
    const killed = triage({ tests: [pending], exitCode: 137 });
    expect(killed.findings).toMatchObject([{ rule: 'exit-137', file: null }]);
    expect(killed.findings[0]?.evidence).toContain(
      'tests left pending (the worker never reported them) in test/a.test.ts',
    );
    expect(triage({ tests: [pending] }).findings).toMatchObject([
      {
        class: 'infrastructure',
        file: 'test/a.test.ts',
        rule: 'unfinished-file',
        evidence: [
          'tests left pending (the worker never reported them) in test/a.test.ts',
          'r.json: testResults[0] unfinished',
        ],
      },
    ]);
  });

  it('failed attempts named by the log decide: a passed attempt is a measured flake', () => {
    const log = makeTest({ source: 'log', origin: 'ci.log:9: FAIL', failedAttempts: [{ repeat: 1, retry: 0 }] });
    expect(triage({ tests: [makeTest(), log] }).findings).toMatchObject([
      { class: 'flake', fullName: 'grp > t', measured: true, rule: 'attempt-pass' },
    ]);
    const every = makeTest({
      source: 'log',
      origin: 'ci.log:9: FAIL',
      failedAttempts: [
        { repeat: 0, retry: 0 },
        { repeat: 0, retry: 1 },
      ],
    });
    expect(triage({ tests: [makeTest(), every] }).findings).toMatchObject([
      { class: 'escape', measured: false, rule: 'failed-not-rerun' },
    ]);
  });
});
