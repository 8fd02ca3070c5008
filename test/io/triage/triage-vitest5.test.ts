/**
 * Vitest 5 output, as vitest 5.1.2 on Node 22 really wrote it (test/triage-corpus/vitest5-samples,
 * captured from the corpus fixtures and a probe with --retry/--repeats), read through the same path
 * `flakeguard triage` takes: the log scanner, the JUnit and JSON readers, and computeTriage.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLogMatcher } from '../../../src/core/triage/log-matcher.js';
import { parseWorkerExit, readLogFailures, readLogUnhandled } from '../../../src/core/triage/log-vitest.js';
import { computeTriage } from '../../../src/core/triage/triage.js';
import { mergeSignatures } from '../../../src/core/triage/triage-signatures.js';
import { readJunitFile } from '../../../src/io/triage/junit-read.js';
import { scanLog } from '../../../src/io/triage/log-scan.js';
import { gatherTriageInputs, type TriageSources } from '../../../src/io/triage/triage-inputs.js';
import { readVitestJsonFile } from '../../../src/io/triage/vitest-json-read.js';
import { makeTriageSources } from './triage-sources.js';

const SAMPLES = path.resolve(import.meta.dirname, '../../triage-corpus/vitest5-samples');
const sample = (name: string): string => path.join(SAMPLES, name);
const signatures = mergeSignatures([]);
let root: string;

beforeAll(() => {
  // The checkout the artifacts are triaged in: the runner's paths map onto it.
  root = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-v5-'));
  for (const f of ['test/addon.test.ts', 'test/ok.test.ts', 'test/job.test.ts']) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    writeFileSync(path.join(root, f), '');
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sources = (over: Partial<TriageSources>): TriageSources => makeTriageSources(root, { exitCode: 1, ...over });

describe('Vitest 5 log', () => {
  it('reads the worker exit: signal, state and the file the worker was running', async () => {
    const line =
      'Caused by: Error: Worker exited unexpectedly with signal SIGKILL during started state while running test file /tmp/flakeguard-fx-Mga7BY/test/addon.test.ts';
    expect(parseWorkerExit(line)).toEqual({
      exitCode: null,
      signal: 'SIGKILL',
      state: 'started',
      files: ['/tmp/flakeguard-fx-Mga7BY/test/addon.test.ts'],
    });
    expect(parseWorkerExit('Caused by: Error: Worker exited unexpectedly')).toBeNull();
    const scan = await scanLog(sample('worker-killed.log'), compileLogMatcher(signatures), 'ci.log');
    expect(scan.events.filter((e) => e.line === 19).map((e) => e.id)).toEqual(['vitest:worker-exit', 'worker-crash']);
    expect(readLogUnhandled(scan)).toMatchObject([
      {
        type: 'Unhandled Error',
        message: 'Error: [vitest-pool]: Worker forks emitted error.',
        file: '/tmp/flakeguard-fx-Mga7BY/test/addon.test.ts',
        cause: line.replace('Caused by: ', ''),
      },
    ]);
  });

  it('reads the unhandled rejection with its file and "The last test to run before this error was"', async () => {
    const scan = await scanLog(sample('unhandled-rejection.log'), compileLogMatcher(signatures), 'ci.log');
    expect(readLogUnhandled(scan)).toMatchObject([
      {
        type: 'Unhandled Rejection',
        message: 'Error: job rejected after start',
        file: 'test/job.test.ts',
        fullName: 'starts the job',
        line: 11,
      },
    ]);
  });

  it('merges the FAIL blocks of one test and keeps their attempts', async () => {
    const scan = await scanLog(sample('repeats.log'), compileLogMatcher(signatures), 'ci.log');
    expect(readLogFailures(scan).map((f) => [f.fullName, f.attempts])).toEqual([
      ['fails on the second run only', [{ repeat: 1, retry: 0 }]],
      [
        'fails twice the same',
        [
          { repeat: 0, retry: 0 },
          { repeat: 2, retry: 0 },
        ],
      ],
      [
        'fails differently',
        [
          { repeat: 0, retry: 0 },
          { repeat: 1, retry: 0 },
        ],
      ],
    ]);
  });
});

describe('Vitest 5 JUnit', () => {
  it('reads the "vitest unhandled errors" testcase as an unhandled error from its file, not as a test', () => {
    const read = readJunitFile(sample('unhandled-rejection.junit.xml'), 'junit.xml', (p) => p);
    expect(read.tests.map((t) => t.fullName)).toEqual(['starts the job', 'checks the job']);
    expect(read.unhandled).toEqual([
      {
        type: 'Unhandled Rejection',
        message: 'job rejected after start',
        file: 'test/job.test.ts',
        fullName: 'starts the job',
        origin:
          'junit.xml: testcase classname="vitest unhandled errors" name="Unhandled Rejection: job rejected after start" <error>',
      },
    ]);
  });

  it('reads the worker crash with the file from its cause', () => {
    const read = readJunitFile(sample('worker-killed.junit.xml'), 'junit.xml', (p) => p);
    expect(read.tests.every((t) => t.file !== 'vitest unhandled errors')).toBe(true);
    expect(read.unhandled).toMatchObject([
      {
        type: 'Unhandled Error',
        message: '[vitest-pool]: Worker forks emitted error.',
        file: '/tmp/flakeguard-fx-Mga7BY/test/addon.test.ts',
        fullName: null,
        cause:
          'Error: Worker exited unexpectedly with signal SIGKILL during started state while running test file /tmp/flakeguard-fx-Mga7BY/test/addon.test.ts',
      },
    ]);
  });
});

describe('Vitest 5 JSON report', () => {
  it('a file that never finished ("failed", empty message, tests "pending") is unfinished, as in Vitest 4 ("passed")', () => {
    for (const name of ['worker-killed.report.json', 'worker-killed.v4.report.json']) {
      const read = readVitestJsonFile(sample(name), 'report.json', (p) => p.replace(/^\/tmp\/flakeguard-fx-\w+\//, ''));
      const addon = read.observations?.tests.filter((t) => t.file === 'test/addon.test.ts') ?? [];
      expect(
        addon.map((t) => t.state),
        name,
      ).toEqual(name.includes('v4') ? ['pending', 'pending'] : ['pending', 'pending', 'pending']);
      expect(
        addon.some((t) => t.state === 'failed'),
        name,
      ).toBe(false);
    }
  });

  it('keeps the timeout message Vitest 5 writes (Vitest 4 wrote "Error: STACK_TRACE_ERROR")', () => {
    const read = readVitestJsonFile(sample('timeout.report.json'), 'report.json', (p) => p);
    expect(read.observations?.tests[0]?.errors[0]).toMatch(/^TestTimeoutError: Test timed out in 100ms\./);
  });
});

describe('triage of the Vitest 5 samples', () => {
  it('the worker crash from log, JUnit and JSON report is one infrastructure finding on its file, with the signal', async () => {
    const inputs = await gatherTriageInputs(
      sources({
        logs: [sample('worker-killed.log')],
        junit: [sample('worker-killed.junit.xml')],
        reports: [sample('worker-killed.report.json')],
      }),
      signatures,
    );
    const report = computeTriage(inputs, signatures);
    expect(report.findings).toMatchObject([
      { class: 'infrastructure', file: 'test/addon.test.ts', fullName: null, rule: 'worker-crash' },
    ]);
    expect(report.findings[0]?.cause).toBe(
      'a Vitest worker process died (killed by a signal, crashed or out of memory): Error: Worker exited unexpectedly with signal SIGKILL during started state',
    );
  });

  it('the report alone names the unfinished file', async () => {
    const inputs = await gatherTriageInputs(sources({ reports: [sample('worker-killed.report.json')] }), signatures);
    expect(computeTriage(inputs, signatures).findings).toMatchObject([
      { class: 'infrastructure', file: 'test/addon.test.ts', rule: 'unfinished-file' },
    ]);
  });

  it('the unhandled rejection from JUnit alone is an escape from its file', async () => {
    const inputs = await gatherTriageInputs(sources({ junit: [sample('unhandled-rejection.junit.xml')] }), signatures);
    expect(computeTriage(inputs, signatures).findings).toMatchObject([
      { class: 'escape', file: 'test/job.test.ts', fullName: null, measured: false },
    ]);
  });

  it('a test that failed only on later repeats is a measured flake; one that failed every attempt stays an inferred escape', async () => {
    const inputs = await gatherTriageInputs(sources({ logs: [sample('retry-repeat.log')] }), signatures);
    const findings = computeTriage(inputs, signatures).findings;
    expect(findings.map((f) => [f.class, f.fullName, f.measured, f.rule])).toEqual([
      ['escape', 'fails always', false, 'failed-not-rerun'],
      ['flake', 'passes only the first run', true, 'attempt-pass'],
    ]);
    expect(findings[0]?.evidence).toContain(
      'failed on all 4 attempts the run made (initial run, 1st retry, 1st repeat, 1st retry of 1st repeat); retries in the same worker are not independent re-runs',
    );
    expect(findings[1]?.cause).toMatch(
      /^failed on 1st repeat, 1st retry of 1st repeat but passed on initial run in the same run: Error: later boom/,
    );
  });
});
