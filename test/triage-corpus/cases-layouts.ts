/**
 * Corpus cases from real layouts and artifacts (issue 11): a workspace package whose Vitest is
 * hoisted to the workspace root, a pnpm install, a plain JSON report with allowances in the
 * checkout, a coverage collector that lost its temp folder (an unhandled rejection), and a worker
 * killed when its heap ran out. Data; test/e2e/triage-corpus.test.ts builds and scores them.
 */
import type { CorpusCase } from './corpus.js';

const PASSING = `import { it, expect } from 'vitest';
it('passes', () => { expect(1).toBe(1); });
`;

const TAX = `import { describe, it, expect } from 'vitest';
describe('totals', () => {
  it('adds tax [20%] (\`$(date)\`)', () => { expect(0.2 * 100).toBe(25); });
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

const SLOW_PAIR = `import { it } from 'vitest';
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
it('renders the chart', async () => { await wait(450); });
it('exports the csv', async () => { await wait(450); });
it('is quick', () => {});
`;

const CHART_ALLOWANCE = `- id: 5eed0001
  test: renders the chart
  file: test/chart.test.ts
  budget: 2s
  reason: draws 10,000 points with the canvas renderer
  added: 2026-11-01
`;

// A coverage collector flushing into its temp folder after each test, without awaiting (as a
// collector's flush does); a test that cleans build output removes the folder first.
const COVERAGE_COLLECTOR = `import { afterEach } from 'vitest';
import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
const dir = path.resolve('coverage/.tmp');
mkdirSync(dir, { recursive: true });
let n = 0;
afterEach(() => { void writeFile(path.join(dir, \`coverage-\${n++}.json\`), '{"result":[]}'); });
`;

const CLEANS_OUTPUT = `import { it } from 'vitest';
import { rmSync } from 'node:fs';
it('cleans the build output', () => { rmSync('coverage', { recursive: true, force: true }); });
it('renders the report', async () => { await new Promise((resolve) => setTimeout(resolve, 60)); });
`;

const HEAP_HOG = `import { it } from 'vitest';
it('loads the big fixture', () => {
  const rows = [];
  for (;;) rows.push(new Array(1e5).fill(1));
});
`;

const config = (extra: string): string => `import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { include: ['test/**/*.test.ts'], reporters: ['default', 'json', 'junit'], outputFile: { json: 'out/report.json', junit: 'out/junit.xml' }, maxWorkers: 1, ${extra} } });
`;

export const LAYOUT_CASES: readonly CorpusCase[] = [
  {
    id: 'workspace-hoisted-rerun',
    fault:
      'an npm workspace package (packages/app, no node_modules of its own: Vitest hoisted to the workspace root) run with a config Vitest would not find by itself; an escape and a first-run flake, re-run once each with --config (n re-runs: the cases of cases-tests.ts)',
    files: {
      'package.json': JSON.stringify({ name: 'ws', private: true, type: 'module', workspaces: ['packages/*'] }),
      'packages/app/package.json': JSON.stringify({ name: 'app', private: true, type: 'module' }),
      'packages/app/test/totals.test.ts': TAX,
      'packages/app/test/cache.test.ts': FIRST_RUN_FAILS,
    },
    project: 'packages/app',
    configFile: 'vitest.ci.config.ts',
    vitestArgs: ['--config', 'vitest.ci.config.ts'],
    triageArgs: ['--rerun', '1', '--config', 'packages/app/vitest.ci.config.ts'],
    labels: [
      {
        class: 'escape',
        file: 'test/totals.test.ts',
        test: 'totals > adds tax [20%] (`$(date)`)',
        measured: true,
        rule: 'rerun-failed',
      },
      {
        class: 'flake',
        file: 'test/cache.test.ts',
        test: 'reads the cache once warm',
        measured: true,
        rule: 'rerun-passed',
      },
    ],
  },
  {
    id: 'pnpm-layout-rerun',
    fault:
      'a pnpm install (node_modules/vitest a link into node_modules/.pnpm, no hoisted copy) with an assertion failure, re-run once',
    files: {
      'app/package.json': JSON.stringify({ name: 'app', private: true, type: 'module' }),
      'app/test/totals.test.ts': TAX,
      'app/test/ok.test.ts': PASSING,
    },
    project: 'app',
    layout: 'pnpm',
    triageArgs: ['--rerun', '1'],
    labels: [
      {
        class: 'escape',
        file: 'test/totals.test.ts',
        test: 'totals > adds tax [20%] (`$(date)`)',
        measured: true,
        rule: 'rerun-failed',
      },
    ],
  },
  {
    id: 'report-allowances-in-checkout',
    fault:
      'a plain JSON report (no reporter) of a green run with two 450ms tests; flakeguard.yaml budget 250ms, and one of them has a 2s allowance in the checkout',
    files: {
      'test/chart.test.ts': SLOW_PAIR,
      'flakeguard.yaml': 'budget:\n  test: 250ms\n',
      'allowances/test/chart.test.ts.yaml': CHART_ALLOWANCE,
    },
    inputs: ['report', 'exit'],
    labels: [
      { class: 'budget', file: 'test/chart.test.ts', test: 'exports the csv', measured: true, rule: 'budget-test' },
    ],
  },
  {
    id: 'coverage-temp-lost',
    fault:
      "a coverage collector's flush rejects with ENOENT after a test removed its temp folder (an unhandled rejection while the file still runs)",
    files: { 'test/report.test.ts': CLEANS_OUTPUT, 'test/coverage-collector.ts': COVERAGE_COLLECTOR },
    vitestConfig: config(`setupFiles: ['./test/coverage-collector.ts']`),
    labels: [{ class: 'infrastructure', file: 'test/report.test.ts', test: null, rule: 'coverage-enoent' }],
  },
  {
    id: 'worker-heap-oom',
    fault:
      "a test fills its worker's heap (workers run with --max-old-space-size=32): V8 aborts the worker, the log has the heap error and the worker's exit, the report leaves its test pending",
    files: { 'test/big.test.ts': HEAP_HOG, 'test/ok.test.ts': PASSING },
    vitestConfig: config(`execArgv: ['--max-old-space-size=32']`),
    labels: [{ class: 'infrastructure', file: 'test/big.test.ts', test: null, rule: 'heap-out-of-memory' }],
  },
];
