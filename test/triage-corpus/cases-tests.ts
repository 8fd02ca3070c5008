/**
 * Corpus cases whose fault is in a test: escapes, flakes, timeouts, hook errors, unhandled errors
 * and budgets. Fixture sources and labels are data; test/e2e/triage-corpus.test.ts builds and scores them.
 */
import type { CorpusCase } from './corpus.js';

const PASSING = `import { it, expect } from 'vitest';
it('passes', () => { expect(1).toBe(1); });
`;

const ASSERTION = `import { describe, it, expect } from 'vitest';
describe('math', () => {
  it('multiplies', () => { expect(2 * 3).toBe(6); });
  it('adds [1+1] (edge)', () => { expect(1 + 1).toBe(3); });
});
`;

// Fails the first time it ever runs in this checkout, passes afterwards (a counter file).
const FIRST_RUN_FAILS = `import { it, expect } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
it('reads the cache once warm', () => {
  const n = existsSync('.attempts') ? Number(readFileSync('.attempts', 'utf8')) : 0;
  writeFileSync('.attempts', String(n + 1));
  expect(n, 'cold cache on the first run').toBeGreaterThan(0);
});
`;

// Fails on the first attempt in a process, passes on the retry.
const RETRY_FLAKE = `import { it, expect } from 'vitest';
let attempts = 0;
it('polls the queue', () => {
  attempts += 1;
  expect(attempts, 'message not there yet').toBeGreaterThan(1);
});
`;

// Runs three times in one process (repeats: 2) and fails only on the second (the 1st repeat).
const REPEAT_FLAKE = `import { it, expect } from 'vitest';
let runs = 0;
it('settles the ledger', { repeats: 2 }, () => {
  runs += 1;
  expect(runs, 'ledger not settled on the second run').not.toBe(2);
});
`;

const TIMEOUT = `import { it } from 'vitest';
it('waits for the server', async () => {
  await new Promise((resolve) => setTimeout(resolve, 400));
}, 100);
`;

const BEFORE_ALL = `import { describe, it, beforeAll, expect } from 'vitest';
describe('db', () => {
  beforeAll(() => { throw new Error('seed failed: table users missing'); });
  it('reads a user', () => { expect(true).toBe(true); });
});
`;

const LATE_REJECTION = `import { it } from 'vitest';
it('starts the job', async () => {
  setTimeout(() => { void Promise.reject(new Error('job rejected after start')); }, 5);
  await new Promise((resolve) => setTimeout(resolve, 40));
});
it('checks the job', async () => { await new Promise((resolve) => setTimeout(resolve, 20)); });
`;

const SLOW = `import { it } from 'vitest';
it('renders the report', async () => { await new Promise((resolve) => setTimeout(resolve, 450)); });
it('is quick', () => {});
`;

const SLOW_FILE = `import { it } from 'vitest';
const wait = () => new Promise((resolve) => setTimeout(resolve, 160));
it('step one', wait);
it('step two', wait);
it('step three', wait);
`;

const BUDGET_YAML = `budget:\n  test: 250ms\n`;
const FILE_BUDGET_YAML = `budget:\n  test: 5s\n  file: 300ms\n`;

export const TEST_CASES: readonly CorpusCase[] = [
  {
    id: 'escape-assertion-rerun',
    fault: 'an assertion fails (name with regex characters); triage re-runs it twice',
    files: { 'test/math.test.ts': ASSERTION, 'test/ok.test.ts': PASSING },
    triageArgs: ['--rerun', '2'],
    labels: [{ class: 'escape', file: 'test/math.test.ts', test: 'math > adds [1+1] (edge)', measured: true }],
  },
  {
    id: 'escape-assertion-inferred',
    fault: 'an assertion fails; no re-run, coloured log',
    files: { 'test/math.test.ts': ASSERTION },
    colors: true,
    labels: [
      {
        class: 'escape',
        file: 'test/math.test.ts',
        test: 'math > adds [1+1] (edge)',
        measured: false,
        rule: 'failed-not-rerun',
      },
    ],
  },
  {
    id: 'escape-assertion-junit-only',
    fault:
      'an assertion fails; only JUnit and the exit code (the coloured run of escape-assertion-inferred: the log is not read)',
    files: { 'test/math.test.ts': ASSERTION },
    colors: true,
    inputs: ['junit', 'exit'],
    labels: [{ class: 'escape', file: 'test/math.test.ts', test: 'math > adds [1+1] (edge)', measured: false }],
  },
  {
    id: 'flake-rerun',
    fault: 'a test fails the first time it runs and passes after; triage re-runs it twice',
    files: { 'test/cache.test.ts': FIRST_RUN_FAILS },
    triageArgs: ['--rerun', '2'],
    labels: [{ class: 'flake', file: 'test/cache.test.ts', test: 'reads the cache once warm', measured: true }],
  },
  {
    id: 'timeout-inferred',
    fault: 'a test times out (the JSON report only says STACK_TRACE_ERROR)',
    files: { 'test/server.test.ts': TIMEOUT },
    labels: [
      {
        class: 'escape',
        file: 'test/server.test.ts',
        test: 'waits for the server',
        measured: false,
        rule: 'test-timeout',
      },
    ],
  },
  {
    id: 'timeout-rerun',
    fault: 'a test times out every time; triage re-runs it twice',
    files: { 'test/server.test.ts': TIMEOUT },
    triageArgs: ['--rerun', '2'],
    labels: [{ class: 'escape', file: 'test/server.test.ts', test: 'waits for the server', measured: true }],
  },
  {
    id: 'before-all-error',
    fault: 'beforeAll throws (the JSON report keeps no error; log and JUnit do)',
    files: { 'test/db.test.ts': BEFORE_ALL },
    labels: [{ class: 'escape', file: 'test/db.test.ts', test: 'db', measured: false }],
  },
  {
    id: 'before-all-error-record-rerun',
    fault: 'beforeAll throws; the run record has the hook error; triage re-runs the file twice',
    files: { 'test/db.test.ts': BEFORE_ALL },
    reporter: true,
    triageArgs: ['--rerun', '2'],
    labels: [{ class: 'escape', file: 'test/db.test.ts', measured: true }],
  },
  {
    id: 'unhandled-rejection',
    fault: 'a rejection nobody awaits while the file runs; every test passes, exit 1',
    files: { 'test/job.test.ts': LATE_REJECTION },
    labels: [{ class: 'escape', file: 'test/job.test.ts', test: null, measured: false }],
  },
  {
    id: 'unhandled-rejection-record-rerun',
    fault: 'the same unhandled rejection, with the run record; triage re-runs the file twice',
    files: { 'test/job.test.ts': LATE_REJECTION },
    reporter: true,
    triageArgs: ['--rerun', '2'],
    labels: [{ class: 'escape', file: 'test/job.test.ts', test: null, measured: true }],
  },
  {
    id: 'unhandled-rejection-junit-only',
    fault:
      'the unhandled rejection with only JUnit and the exit code (Vitest 5 writes it into JUnit; Vitest 4 does not)',
    files: { 'test/job.test.ts': LATE_REJECTION },
    inputs: ['junit', 'exit'],
    labels: [{ class: 'infrastructure', file: null, test: null, rule: 'unexplained-exit' }],
    labelsV5: [{ class: 'escape', file: 'test/job.test.ts', test: null, measured: false, rule: 'failed-not-rerun' }],
  },
  {
    id: 'budget-test-record',
    fault: 'a test over the 250ms budget; the reporter fails the run with no failing test',
    files: { 'test/report.test.ts': SLOW, 'flakeguard.yaml': BUDGET_YAML },
    reporter: true,
    labels: [
      { class: 'budget', file: 'test/report.test.ts', test: 'renders the report', measured: true, rule: 'budget-test' },
    ],
  },
  {
    id: 'budget-test-flag',
    fault: 'a test over budget, no reporter: the JSON report durations against --budget 250ms',
    files: { 'test/report.test.ts': SLOW },
    inputs: ['report', 'log', 'exit'],
    triageArgs: ['--budget', '250ms'],
    labels: [{ class: 'budget', file: 'test/report.test.ts', test: 'renders the report', measured: true }],
  },
  {
    id: 'budget-file-record',
    fault: 'a file over its 300ms file budget; the reporter fails the run',
    files: { 'test/steps.test.ts': SLOW_FILE, 'flakeguard.yaml': FILE_BUDGET_YAML },
    reporter: true,
    labels: [{ class: 'budget', file: 'test/steps.test.ts', test: null, rule: 'budget-file' }],
  },
  {
    id: 'budget-file-flag',
    fault: 'a file over --file-budget 300ms, from the JSON report',
    files: { 'test/steps.test.ts': SLOW_FILE },
    inputs: ['report', 'exit'],
    triageArgs: ['--file-budget', '300ms'],
    labels: [{ class: 'budget', file: 'test/steps.test.ts', test: null, rule: 'budget-file' }],
  },
  {
    id: 'mix-flake-retry-and-escape',
    fault: 'one test passes on --retry=1, another fails',
    files: { 'test/queue.test.ts': RETRY_FLAKE, 'test/math.test.ts': ASSERTION },
    vitestArgs: ['--retry=1'],
    labels: [
      { class: 'flake', file: 'test/queue.test.ts', test: 'polls the queue', measured: true, rule: 'retry-pass' },
      { class: 'escape', file: 'test/math.test.ts', test: 'math > adds [1+1] (edge)', measured: false },
    ],
  },
  {
    id: 'flake-repeat-attempts',
    fault:
      'a test with repeats: 2 fails only on its second run (Vitest 5 names the failed attempt on the FAIL line; Vitest 4 does not)',
    files: { 'test/ledger.test.ts': REPEAT_FLAKE, 'test/ok.test.ts': PASSING },
    labels: [
      {
        class: 'escape',
        file: 'test/ledger.test.ts',
        test: 'settles the ledger',
        measured: false,
        rule: 'failed-not-rerun',
      },
    ],
    labelsV5: [
      { class: 'flake', file: 'test/ledger.test.ts', test: 'settles the ledger', measured: true, rule: 'attempt-pass' },
    ],
  },
  {
    id: 'mix-budget-and-flake-record',
    fault: 'a test over budget and a test that passes on retry; the reporter fails the run',
    files: { 'test/report.test.ts': SLOW, 'test/queue.test.ts': RETRY_FLAKE, 'flakeguard.yaml': BUDGET_YAML },
    reporter: true,
    vitestArgs: ['--retry=1'],
    labels: [
      { class: 'budget', file: 'test/report.test.ts', test: 'renders the report' },
      { class: 'flake', file: 'test/queue.test.ts', test: 'polls the queue', measured: true },
    ],
  },
];
