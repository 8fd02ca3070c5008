/**
 * `triage --rerun <n>`: re-runs each failure n times in the checkout with the project's own Vitest.
 * - A failed test: the gate's runTestsRepeatedly (src/io/vitest/vitest-runs.ts) runs its file once with the
 *   test repeated n times in one Vitest process, and reports each try.
 * - A failure that is not one test (a file that did not load, a hook or suite error, an unhandled
 *   error from a file): the whole file, n separate `vitest run <file>` processes; a run failed when
 *   Vitest exited non-zero. Each process is its own group and is killed with its workers on abort.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FlakeguardError, interruptedError } from '../../core/errors.js';
import { spawnGuarded } from '../process/spawn-guarded.js';
import { resolveProjectVitest } from './resolve-vitest.js';
import { stripAnsi } from '../../core/triage/log-matcher.js';
import { parseFailLine } from '../../core/triage/log-vitest.js';
import type { RerunResult, RerunTarget } from '../../core/triage/triage-types.js';
import { runTestsRepeatedly } from './vitest-runs.js';


export interface RerunOptions {
  readonly root: string;
  readonly targets: readonly RerunTarget[];
  readonly runs: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (text: string) => void;
}

const vitestEntry = (root: string): string => resolveProjectVitest(root).entry;

async function rerunTests(options: RerunOptions, targets: readonly RerunTarget[]): Promise<RerunResult[]> {
  if (targets.length === 0) return [];
  try {
    const outcome = await runTestsRepeatedly({
      root: options.root,
      tests: targets.map((t) => ({ file: t.file, fullName: t.name ?? '', line: t.line })),
      runs: options.runs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return targets.map((t) => {
      const tries = outcome.tests.find((o) => o.file === t.file && o.fullName === t.name);
      const moduleError = outcome.moduleErrors.find((m) => m.file === t.file)?.message ?? null;
      if (!tries || !tries.found) {
        return { file: t.file, name: t.name, runs: options.runs, failed: 0, notRun: options.runs, firstError: moduleError ?? 'the test was not found in the checkout (renamed, removed or not collected)' };
      }
      const ran = tries.tries.filter((x) => x.state !== 'skipped');
      const failed = ran.filter((x) => x.state === 'failed');
      return { file: t.file, name: t.name, runs: options.runs, failed: failed.length, notRun: options.runs - ran.length, firstError: failed[0]?.error ?? tries.errors[0]?.split('\n')[0] ?? null };
    });
  } catch (error) {
    if (error instanceof FlakeguardError && error.code === 'INTERRUPTED') throw error;
    const message = (error as Error).message.split('\n')[0] ?? 'Vitest failed';
    return targets.map((t) => ({ file: t.file, name: t.name, runs: options.runs, failed: 0, notRun: options.runs, firstError: message }));
  }
}

/** The error line of the target's failure in a whole-file run's output (the line after its header). */
function firstErrorOf(target: RerunTarget, output: string): string | null {
  const lines = output.split('\n').map((l) => stripAnsi(l).trim());
  const header =
    target.check === 'unhandled'
      ? lines.findIndex((l) => /Unhandled (?:Rejection|Error)\s*⎯/.test(l))
      : target.check === 'suite'
        ? lines.findIndex((l) => parseFailLine(l)?.name === target.name)
        : lines.findIndex((l) => /^FAIL\s/.test(l));
  const after = header === -1 ? lines : lines.slice(header + 1);
  return after.find((l) => l !== '' && !l.startsWith('⎯')) ?? lines.find((l) => /Error/.test(l)) ?? null;
}

/** Did this whole-file run fail the way the target failed? */
function failedAgain(target: RerunTarget, exitCode: number | undefined, output: string): boolean {
  switch (target.check) {
    case 'unhandled':
      return /Unhandled (?:Rejection|Error)\s*⎯/.test(output);
    case 'suite':
      return output.split('\n').some((l) => {
        const parsed = parseFailLine(l);
        return parsed !== null && parsed.name === target.name;
      });
    case 'file':
    case 'test':
      return exitCode !== 0;
    default: {
      const never: never = target.check;
      return never;
    }
  }
}

async function runFileOnce(options: RerunOptions, entry: string, target: RerunTarget, tmp: string, i: number): Promise<{ ran: boolean; failed: boolean; error: string | null }> {
  const file = target.file;
  const out = path.join(tmp, `run-${i}.json`);
  const child = spawnGuarded(process.execPath, [entry, 'run', file, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], {
    cwd: options.root,
    all: true,
    env: { CI: 'true', NO_COLOR: '1' },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  try {
    const result = await child.result;
    if (options.signal?.aborted) throw interruptedError('the re-runs were');
    const text = String(result.all ?? '');
    const error = firstErrorOf(target, text);
    if (!existsSync(out)) return { ran: false, failed: false, error: error ?? `vitest exited ${result.exitCode ?? result.signal} without a report` };
    const report = JSON.parse(readFileSync(out, 'utf8')) as { numTotalTests?: number; testResults?: unknown[] };
    const ran = (report.testResults?.length ?? 0) > 0;
    const failed = failedAgain(target, result.exitCode, text);
    return { ran, failed, error: failed ? error : null };
  } finally {
    child.stop();
  }
}

async function rerunFiles(options: RerunOptions, targets: readonly RerunTarget[]): Promise<RerunResult[]> {
  if (targets.length === 0) return [];
  const entry = vitestEntry(options.root);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-rerun-'));
  const results: RerunResult[] = [];
  try {
    for (const t of targets) {
      if (!existsSync(path.join(options.root, t.file))) {
        results.push({ file: t.file, name: t.name, runs: options.runs, failed: 0, notRun: options.runs, firstError: `${t.file} is not in the checkout under --root` });
        continue;
      }
      let failed = 0;
      let notRun = 0;
      let firstError: string | null = null;
      for (let i = 0; i < options.runs; i += 1) {
        options.onProgress?.(`re-running ${t.file} (${i + 1}/${options.runs})`);
        const r = await runFileOnce(options, entry, t, tmp, results.length * options.runs + i);
        if (!r.ran) notRun += 1;
        else if (r.failed) failed += 1;
        firstError ??= r.error;
      }
      results.push({ file: t.file, name: t.name, runs: options.runs, failed, notRun, firstError });
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return results;
}

export async function rerunFailures(options: RerunOptions): Promise<RerunResult[]> {
  vitestEntry(options.root);
  const tests = options.targets.filter((t) => !t.wholeFile && t.name !== null);
  const files = options.targets.filter((t) => t.wholeFile || t.name === null);
  options.onProgress?.(`re-running ${tests.length} failed test${tests.length === 1 ? '' : 's'} and ${files.length} file${files.length === 1 ? '' : 's'} ${options.runs} times each`);
  const fromTests = await rerunTests(options, tests);
  // A name that is not a test here (a suite whose hook failed, known only from the log): whole file.
  const missed = fromTests.filter((r) => r.notRun === r.runs && r.firstError?.startsWith('the test was not found'));
  const again = tests.filter((t) => missed.some((m) => m.file === t.file && m.name === t.name)).map((t) => ({ ...t, wholeFile: true }));
  const kept = fromTests.filter((r) => !missed.includes(r));
  return [...kept, ...(await rerunFiles(options, [...files, ...again]))];
}
