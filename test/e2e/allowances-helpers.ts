/**
 * Shared by the allowance e2e tests: a run of the real Vitest with flakeguard's reporter (and the
 * JSON one, for durations and lines), and the engine fed with what Vitest reported.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { parseConfig } from '../../src/core/config.js';
import { extractTests } from '../../src/core/source/test-source.js';
import { loadAllowancesForRun } from '../../src/io/allowances/allowances-for-run.js';
import { type Fixture, REPORTER_BUILT, type RunResult } from '../helpers/fixture.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';

export interface VitestTest {
  file: string;
  fullName: string;
  line: number | null;
  durationMs: number;
}
export interface ListedRow {
  id: string;
  match: string;
  current: { fullName: string; file: string } | null;
  limitMs: number | null;
}

/** Runs Vitest, expects `exitCode` and returns the tests as the reporter sees them. */
export async function vitestTests(fx: Fixture, exitCode = 0): Promise<VitestTest[] & { output: string }> {
  const run = await fx.vitest([
    '--reporter=default',
    `--reporter=${REPORTER_BUILT}`,
    '--reporter=json',
    '--outputFile.json=vitest.json',
    '--includeTaskLocation',
  ]);
  expect(run.exitCode, run.output).toBe(exitCode);
  const json = JSON.parse(readFileSync(path.join(fx.root, 'vitest.json'), 'utf8')) as {
    testResults: {
      name: string;
      assertionResults: { ancestorTitles: string[]; title: string; duration?: number; location?: { line: number } }[];
    }[];
  };
  const tests = json.testResults.flatMap((f) =>
    f.assertionResults.map((a) => ({
      file: path.relative(fx.root, f.name).split(path.sep).join('/'),
      fullName: [...a.ancestorTitles, a.title].join(' > '),
      line: a.location?.line ?? null,
      durationMs: a.duration ?? 0,
    })),
  );
  return Object.assign(tests, { output: run.output });
}

/**
 * The engine as the reporter calls it, on `tests`. With `testFiles`, the project's test files are
 * that list, as the reporter passes its running Vitest's (else the engine asks the project's Vitest,
 * a listing process).
 */
export function seam(
  fx: Fixture,
  config: string,
  tests: readonly Omit<VitestTest, 'durationMs'>[],
  testFiles?: readonly string[],
) {
  return loadAllowancesForRun({
    root: fx.root,
    config: parseConfig(config, 'flakeguard.yaml'),
    tests,
    platform: process.platform,
    today: '2026-11-30',
    ...(testFiles ? { testFiles: async () => testFiles } : {}),
  });
}

/** The fixture's test files under test/ (`*.test.ts`, sorted): what its Vitest's default include takes there. */
function sourceTestFiles(fx: Fixture): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(`${fx.root}/${dir}`, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(`${dir}/${e.name}`) : e.name.endsWith('.test.ts') ? [`${dir}/${e.name}`] : [],
    );
  return walk('test').sort();
}

/** The fixture's tests read from the source (file, full name, line), as the gate reads them: no Vitest run. */
export function sourceTests(fx: Fixture): { file: string; fullName: string; line: number }[] {
  return sourceTestFiles(fx)
    .flatMap((file) => extractTests(readFileSync(`${fx.root}/${file}`, 'utf8'), file))
    .map((t) => ({ file: t.file, fullName: t.fullName, line: t.line }));
}

export async function listed(fx: Fixture): Promise<ListedRow[]> {
  const result = await flakeguardInProcess(fx, ['allowances', 'list', '--json']);
  expect(result.exitCode, result.output).toBe(0);
  return (JSON.parse(result.stdout) as { allowances: ListedRow[] }).allowances;
}

export async function commit(fx: Fixture, message: string): Promise<void> {
  await fx.git(['add', '-A']);
  await fx.git(['commit', '-qm', message]);
}

/** The fixtures' test file, where every allowance e2e test keeps its tracker tests. */
const TRACKER_FILE = 'test/hub/tracker.test.ts';

/** `flakeguard allowances add` for `test` (full name) in `file`, with `--budget` and `--reason`. */
export function addAllowance(
  fx: Fixture,
  allowance: { test: string; budget: string; reason: string; file?: string; platform?: string },
  /** More options after the usual ones, e.g. `--replace`, `--expires 2099-01-31`. */
  more: readonly string[] = [],
): Promise<RunResult> {
  const { test, budget, reason, file = TRACKER_FILE, platform } = allowance;
  const where = platform === undefined ? [] : ['--platform', platform];
  return flakeguardInProcess(fx, [
    'allowances',
    'add',
    '--file',
    file,
    '--test',
    test,
    '--budget',
    budget,
    ...where,
    '--reason',
    reason,
    ...more,
  ]);
}

/**
 * Commits the working tree, runs Vitest (expecting `exitCode`) and feeds the engine what it
 * reported: the tests, and the allowances as the reporter applies them to those tests.
 */
export async function commitAndRun(fx: Fixture, message: string, config: string, exitCode = 0) {
  await commit(fx, message);
  const tests = await vitestTests(fx, exitCode);
  return { tests, result: await seam(fx, config, tests) };
}
