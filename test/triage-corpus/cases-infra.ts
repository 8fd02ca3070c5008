/**
 * Corpus cases whose fault is in the environment or tooling: missing modules and packages, a
 * killed worker, a broken config, steps before the tests, unreachable services, a cut report, and
 * runs that mix two classes. Every output in the logs is real (the commands really ran).
 * Not made real (documented in docs/triage.md): ENOSPC (needs a full disk), coverage ENOENT (no
 * coverage provider installed), Vitest's "Timeout calling onTaskUpdate" (needs an overloaded RPC).
 */
import type { CorpusCase } from './corpus.js';

const PASSING = `import { it, expect } from 'vitest';
it('passes', () => { expect(1).toBe(1); });
`;

const ASSERTION = `import { describe, it, expect } from 'vitest';
describe('math', () => {
  it('adds [1+1] (edge)', () => { expect(1 + 1).toBe(3); });
});
`;

const MISSING_MODULE = `import { it } from 'vitest';
import { helper } from './helpers/not-generated.js';
it('uses the generated helper', () => { helper(); });
`;

const MISSING_PACKAGE = `import { it } from 'vitest';
import pad from 'left-pad-not-installed';
it('pads', () => { void pad; });
`;

const WORKER_KILL = `import { it } from 'vitest';
it('starts', () => {});
it('spawns the native addon', () => { process.kill(process.pid, 'SIGKILL'); });
`;

const CONNECT = `import { it } from 'vitest';
import net from 'node:net';
it('talks to the database', async () => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => { socket.end(); resolve(); });
    socket.on('error', reject);
  });
});
`;

const PORT_TAKEN = `import { it } from 'vitest';
import net from 'node:net';
it('starts the mock server', async () => {
  const first = net.createServer();
  await new Promise<void>((resolve) => first.listen(0, '127.0.0.1', () => resolve()));
  const port = (first.address() as net.AddressInfo).port;
  try {
    await new Promise<void>((resolve, reject) => {
      const second = net.createServer();
      second.on('error', reject);
      second.listen(port, '127.0.0.1', () => resolve());
    });
  } finally {
    first.close();
  }
});
`;

const TIMEOUT = `import { it } from 'vitest';
it('waits for the server', async () => { await new Promise((resolve) => setTimeout(resolve, 400)); }, 100);
`;

function manyTests(count: number, failAt: number): string {
  const lines = [`import { describe, it, expect } from 'vitest';`, `describe('big', () => {`];
  for (let i = 0; i < count; i += 1) {
    lines.push(
      i === failAt
        ? `  it('fails early', () => { expect('a').toBe('b'); });`
        : `  it('case ${i}', () => { expect(${i}).toBe(${i}); });`,
    );
  }
  lines.push('});', '');
  return lines.join('\n');
}

const OOM_STEP = `node --max-old-space-size=16 -e "const a = []; for (;;) a.push(new Array(1e5).fill(1))"`;

export const INFRA_CASES: readonly CorpusCase[] = [
  {
    id: 'missing-module',
    fault: 'a test file imports a module that was never generated',
    files: { 'test/gen.test.ts': MISSING_MODULE, 'test/ok.test.ts': PASSING },
    labels: [{ class: 'infrastructure', file: 'test/gen.test.ts', test: null, rule: 'cannot-find-module' }],
  },
  {
    id: 'missing-package',
    fault: 'a test file imports a package that is not installed',
    files: { 'test/pad.test.ts': MISSING_PACKAGE },
    colors: true,
    labels: [{ class: 'infrastructure', file: 'test/pad.test.ts', test: null, rule: 'cannot-find-package' }],
  },
  {
    id: 'worker-killed',
    fault: "a test kills its worker with SIGKILL (the JSON report says success, tests 'pending')",
    files: { 'test/addon.test.ts': WORKER_KILL, 'test/ok.test.ts': PASSING },
    labels: [{ class: 'infrastructure', file: 'test/addon.test.ts', rule: 'worker-crash' }],
  },
  {
    id: 'worker-killed-report-only',
    fault:
      'the killed worker with only the JSON report and the exit code (tests "pending"; the file "passed" in Vitest 4, "failed" with no message in Vitest 5)',
    files: { 'test/addon.test.ts': WORKER_KILL, 'test/ok.test.ts': PASSING },
    inputs: ['report', 'exit'],
    labels: [{ class: 'infrastructure', file: 'test/addon.test.ts', test: null, rule: 'unfinished-file' }],
  },
  {
    id: 'worker-killed-junit-only',
    fault:
      'the killed worker with only JUnit and the exit code (Vitest 5 writes the worker error and its file into JUnit; Vitest 4 shows the tests passed)',
    files: { 'test/addon.test.ts': WORKER_KILL, 'test/ok.test.ts': PASSING },
    inputs: ['junit', 'exit'],
    labels: [{ class: 'infrastructure', file: null, test: null, rule: 'unexplained-exit' }],
    labelsV5: [{ class: 'infrastructure', file: 'test/addon.test.ts', test: null, rule: 'worker-crash' }],
  },
  {
    id: 'broken-config',
    fault: 'vitest.config.ts throws: Vitest does not start and writes no report',
    files: { 'test/ok.test.ts': PASSING },
    vitestConfig: `import { defineConfig } from 'vitest/config';\nthrow new Error('config boom: VITE_API_URL is not set');\nexport default defineConfig({});\n`,
    labels: [{ class: 'infrastructure', file: null, test: null, rule: 'failed-to-load-config' }],
  },
  {
    id: 'missing-reporter',
    fault: 'the Vitest config names a reporter file that does not exist',
    files: { 'test/ok.test.ts': PASSING },
    vitestConfig: `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { include: ['test/**/*.test.ts'], reporters: ['default', './reporters/missing.ts'] } });\n`,
    labels: [{ class: 'infrastructure', file: null, rule: 'reporter-load' }],
  },
  {
    id: 'typecheck-without-compiler',
    fault: 'the typecheck step runs tsc, which is not on PATH',
    files: { 'test/ok.test.ts': PASSING },
    before: ['tsc --noEmit -p tsconfig.json'],
    labels: [{ class: 'infrastructure', file: null, test: null, rule: 'tsc-missing' }],
  },
  {
    id: 'lint-command-not-found',
    fault: 'a step before the tests calls a command that is not installed',
    files: { 'test/ok.test.ts': PASSING },
    before: ['echo "checking format"', 'prettier-not-installed --check .'],
    labels: [{ class: 'infrastructure', file: null, rule: 'command-not-found' }],
  },
  {
    id: 'shallow-clone',
    fault: 'a step diffs against HEAD~5 in a one-commit (shallow) history',
    files: { 'test/ok.test.ts': PASSING },
    git: true,
    before: ['git diff --stat HEAD~5'],
    labels: [{ class: 'infrastructure', file: null, rule: 'shallow-clone' }],
  },
  {
    id: 'dirty-tree',
    fault: "the bundling step's clean-tree check fails on a generated file",
    files: { 'test/ok.test.ts': PASSING },
    git: true,
    before: [
      'echo built > build-info.txt',
      'test -z "$(git status --porcelain)" || { git status --short; echo "error: working tree is dirty; refusing to bundle" >&2; exit 1; }',
    ],
    labels: [{ class: 'infrastructure', file: null, rule: 'dirty-tree' }],
  },
  {
    id: 'heap-out-of-memory',
    fault: 'a build step runs out of heap (real V8 OOM, exit 134)',
    files: { 'test/ok.test.ts': PASSING },
    before: [OOM_STEP],
    labels: [{ class: 'infrastructure', file: null, rule: 'heap-out-of-memory' }],
  },
  {
    id: 'killed-137',
    fault: 'a step is killed with SIGKILL (exit 137, no OOM message)',
    files: { 'test/ok.test.ts': PASSING },
    before: [`node -e "process.kill(process.pid, 'SIGKILL')"`],
    labels: [{ class: 'infrastructure', file: null, rule: 'exit-137' }],
  },
  {
    id: 'no-test-files',
    fault: 'the test step filters on a folder that has no tests',
    files: { 'test/ok.test.ts': PASSING },
    vitestArgs: ['integration/'],
    labels: [{ class: 'infrastructure', file: null, rule: 'no-test-files' }],
  },
  {
    id: 'service-refused',
    fault: 'a test connects to a localhost port nobody listens on (ECONNREFUSED)',
    files: { 'test/db.test.ts': CONNECT },
    labels: [{ class: 'infrastructure', file: 'test/db.test.ts', test: 'talks to the database', rule: 'econnrefused' }],
  },
  {
    id: 'port-in-use',
    fault: 'a test listens on a port that is already taken (EADDRINUSE)',
    files: { 'test/mock.test.ts': PORT_TAKEN },
    labels: [
      { class: 'infrastructure', file: 'test/mock.test.ts', test: 'starts the mock server', rule: 'eaddrinuse' },
    ],
  },
  {
    id: 'truncated-report',
    fault: 'the JSON report is cut off after the failing entry (an artifact size limit)',
    files: { 'test/big.test.ts': manyTests(40, 3) },
    truncateReport: { after: '"title":"case 20"', extra: 0 },
    labels: [
      { class: 'infrastructure', file: null, rule: 'report-truncated' },
      { class: 'escape', file: 'test/big.test.ts', test: 'big > fails early' },
    ],
  },
  {
    id: 'mix-missing-module-and-escape',
    fault: 'one file cannot load its helper, another has a failing assertion',
    files: { 'test/gen.test.ts': MISSING_MODULE, 'test/math.test.ts': ASSERTION },
    labels: [
      { class: 'infrastructure', file: 'test/gen.test.ts', rule: 'cannot-find-module' },
      { class: 'escape', file: 'test/math.test.ts', test: 'math > adds [1+1] (edge)' },
    ],
  },
  {
    id: 'mix-worker-killed-and-escape',
    fault: 'a worker is killed in one file, an assertion fails in another',
    files: { 'test/addon.test.ts': WORKER_KILL, 'test/math.test.ts': ASSERTION },
    labels: [
      { class: 'infrastructure', file: 'test/addon.test.ts', rule: 'worker-crash' },
      { class: 'escape', file: 'test/math.test.ts', test: 'math > adds [1+1] (edge)' },
    ],
  },
  {
    id: 'mix-refused-and-timeout',
    fault: 'a service is unreachable in one file, a test times out in another',
    files: { 'test/db.test.ts': CONNECT, 'test/server.test.ts': TIMEOUT },
    reporter: true,
    labels: [
      { class: 'infrastructure', file: 'test/db.test.ts', rule: 'econnrefused' },
      { class: 'escape', file: 'test/server.test.ts', test: 'waits for the server' },
    ],
  },
];
