/**
 * `triage --rerun <n>`: re-runs each failure n times in the checkout with the project's own Vitest
 * (resolved the way Node resolves it from --root: hoisted workspaces, pnpm links) and the project's
 * own config (`--config <file>`, `--project <name>` passed through as Vitest takes them). Each re-run
 * is its own `vitest run` process (independent runs: a retry in the same worker is not), started
 * through spawnGuarded so it dies with its workers on Ctrl-C.
 * - A failed test: `vitest run <file>:<line>` (Vitest's own filter by place; never a name pattern),
 *   judged by that test's entry in the run's JSON report.
 * - A failure that is not one test (a file that did not load, a hook or suite error, an unhandled
 *   error from a file): `vitest run <file>`, judged by the same failure showing again.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { interruptedError } from '../../core/errors.js';
import { projectTag } from '../../core/test-id.js';
import { stripAnsi } from '../../core/triage/log-matcher.js';
import { parseFailLine } from '../../core/triage/log-vitest.js';
import type { RerunResult, RerunTarget } from '../../core/triage/triage-types.js';
import { readVitestJsonReport } from '../../core/triage/triage-vitest-json.js';
import { spawnGuarded } from '../process/spawn-guarded.js';
import { resolveProjectVitest } from '../vitest/resolve-vitest.js';

interface ProjectVitestOptions {
  /** `--config <file>` as Vitest takes it (absolute, or relative to the root), or null for Vitest's own lookup. */
  readonly config: string | null;
  /** `--project <name>`, repeated. */
  readonly projects: readonly string[];
}

export interface RerunOptions {
  readonly root: string;
  readonly targets: readonly RerunTarget[];
  readonly runs: number;
  readonly vitest?: ProjectVitestOptions;
  readonly signal?: AbortSignal;
  readonly onProgress?: (text: string) => void;
}

interface OneRun {
  readonly ran: boolean;
  readonly failed: boolean;
  readonly error: string | null;
}

/** The error line of the target's failure in a whole-file run's output (the line after its header). */
function firstErrorOf(target: RerunTarget, output: string): string | null {
  const lines = output.split('\n').map((l) => stripAnsi(l).trim());
  const header =
    target.check === 'unhandled'
      ? lines.findIndex((l) => /Unhandled (?:Rejection|Error)\s*⎯/.test(l))
      : target.check === 'suite'
        ? lines.findIndex((l) => parseFailLine(l)?.fullName === target.fullName)
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
      return output.split('\n').some((l) => parseFailLine(l)?.fullName === target.fullName);
    case 'file':
    case 'test':
      return exitCode !== 0;
    default: {
      const never: never = target.check;
      return never;
    }
  }
}

/** A test re-run: its own entry in the report decides (not found or skipped: it did not run). */
function judgeTest(target: RerunTarget, report: unknown, root: string): OneRun {
  const toRel = (p: string): string => path.relative(root, path.resolve(root, p)).split(path.sep).join('/');
  const { tests } = readVitestJsonReport(report, new Set(), 're-run', toRel);
  const own = tests.find((t) => t.kind === 'test' && t.file === target.file && t.fullName === target.fullName);
  if (!own || (own.state !== 'passed' && own.state !== 'failed')) {
    const fileError = tests.find((t) => t.kind === 'file' && t.file === target.file && t.errors.length > 0)?.errors[0];
    return {
      ran: false,
      failed: false,
      error: fileError?.split('\n')[0] ?? `the test was not found in the checkout (renamed, removed or not collected)`,
    };
  }
  return {
    ran: true,
    failed: own.state === 'failed',
    error: own.state === 'failed' ? (own.errors[0]?.split('\n')[0] ?? null) : null,
  };
}

async function runOnce(options: RerunOptions, entry: string, target: RerunTarget, out: string): Promise<OneRun> {
  const byTest = !target.wholeFile && target.fullName !== null;
  const filter = byTest && target.line !== null ? `${target.file}:${target.line}` : target.file;
  const own = options.vitest ?? { config: null, projects: [] };
  // A failure whose project an input named re-runs in that project only (the other may pass it).
  const projects = target.project !== null && target.project !== '' ? [target.project] : own.projects;
  const args = [
    entry,
    'run',
    filter,
    ...(own.config === null ? [] : ['--config', own.config]),
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ];
  // The run's temp folder (it holds `out`) is also Vitest's TMPDIR, removed by the guard if flakeguard is killed.
  const child = spawnGuarded(process.execPath, args, {
    cwd: options.root,
    all: true,
    env: { CI: 'true', NO_COLOR: '1' },
    tempFolder: path.dirname(out),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  try {
    const result = await child.result;
    if (options.signal?.aborted) throw interruptedError('the re-runs were');
    const text = String(result.all ?? '');
    if (!existsSync(out))
      return {
        ran: false,
        failed: false,
        error: firstErrorOf(target, text) ?? `vitest exited ${result.exitCode ?? result.signal} without a report`,
      };
    const report = JSON.parse(readFileSync(out, 'utf8')) as { testResults?: unknown[] };
    rmSync(out, { force: true });
    if (byTest) return judgeTest(target, report, options.root);
    const failed = failedAgain(target, result.exitCode, text);
    return { ran: (report.testResults?.length ?? 0) > 0, failed, error: failed ? firstErrorOf(target, text) : null };
  } finally {
    child.stop();
  }
}

async function rerunTarget(
  options: RerunOptions,
  entry: string,
  target: RerunTarget,
  tmp: string,
): Promise<RerunResult> {
  const base = { project: target.project, file: target.file, fullName: target.fullName, runs: options.runs };
  if (!existsSync(path.join(options.root, target.file)))
    return {
      ...base,
      failed: 0,
      notRun: options.runs,
      firstError: `${target.file} is not in the checkout under --root`,
    };
  let failed = 0;
  let notRun = 0;
  let firstError: string | null = null;
  for (let i = 0; i < options.runs; i += 1) {
    options.onProgress?.(
      `re-running ${target.file}${projectTag(target.project)}${target.fullName === null || target.wholeFile ? '' : ` > ${target.fullName}`} (${i + 1}/${options.runs})`,
    );
    const r = await runOnce(options, entry, target, path.join(tmp, 'run.json'));
    if (!r.ran) notRun += 1;
    else if (r.failed) failed += 1;
    if (r.failed || !r.ran) firstError ??= r.error;
  }
  return { ...base, failed, notRun, firstError };
}

export async function rerunFailures(options: RerunOptions): Promise<RerunResult[]> {
  const entry = resolveProjectVitest(options.root).entry;
  options.onProgress?.(
    `re-running ${options.targets.length} failure${options.targets.length === 1 ? '' : 's'} ${options.runs} times each`,
  );
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-rerun-'));
  const results: RerunResult[] = [];
  try {
    for (const target of options.targets) {
      let result = await rerunTarget(options, entry, target, tmp);
      // A name that is not a test here (a suite whose hook failed, known only from the log): the whole file.
      if (
        !target.wholeFile &&
        result.notRun === result.runs &&
        result.firstError?.startsWith('the test was not found')
      ) {
        result = await rerunTarget(options, entry, { ...target, wholeFile: true }, tmp);
      }
      results.push(result);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return results;
}
