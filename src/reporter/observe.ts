/**
 * Adapts Vitest's reported objects (TestModule, TestCase, unhandled errors) to the plain core
 * types: paths relative to the project root with `/`, durations from Vitest's own diagnostic.
 */
import path from 'node:path';
import type { TestCase, TestModule } from 'vitest/node';
import type { ObservedFile, ObservedTest } from '../core/budget/budget-report.js';
import type { FileState, RecordedError, RecordedUnhandledError, TestState } from '../core/record/run-record.js';
import { readSeedMeta, testSeedsOf } from '../core/replay/ci-seed.js';

interface ErrorLike {
  readonly message?: unknown;
  readonly name?: unknown;
  readonly type?: unknown;
  readonly stack?: unknown;
  readonly stacks?: readonly { readonly file: string; readonly line: number; readonly column: number }[];
  readonly [key: string]: unknown;
}

export function toRelative(root: string, file: string): string {
  const rel = path.isAbsolute(file) ? path.relative(root, file) : file;
  return rel.split(path.sep).join('/');
}

const STACK_LINE = /\(?((?:[A-Za-z]:)?[^\s():]+):(\d+):(\d+)\)?\s*$/;

/** First frame in the user's code (inside the root, outside node_modules), `file:line:column`. */
function firstUserFrame(error: ErrorLike, root: string): string | null {
  const frames =
    error.stacks && error.stacks.length > 0
      ? error.stacks.map((s) => ({ file: s.file, line: s.line, column: s.column }))
      : String(error.stack ?? '')
          .split('\n')
          .slice(1)
          .map((l) => STACK_LINE.exec(l.trim()))
          .filter((m): m is RegExpExecArray => m !== null)
          .map((m) => ({ file: (m[1] ?? '').replace(/^file:\/\//, ''), line: Number(m[2]), column: Number(m[3]) }));
  const user = frames.find(
    (f) =>
      !f.file.includes('node_modules') &&
      !f.file.startsWith('node:') &&
      path.isAbsolute(f.file) &&
      !path.relative(root, f.file).startsWith('..'),
  );
  return user ? `${toRelative(root, user.file)}:${user.line}:${user.column}` : null;
}

function toRecordedError(error: ErrorLike, root: string): RecordedError {
  const type = typeof error.name === 'string' && error.name !== '' ? error.name : undefined;
  return {
    message: typeof error.message === 'string' ? error.message : String(error.message ?? error),
    frame: firstUserFrame(error, root),
    ...(type === undefined ? {} : { type }),
  };
}

interface AttemptLike {
  readonly state: string;
  readonly duration: number;
}

/** Vitest 5's per-attempt results (retries and repeats, each with its hooks); absent on 4.1. */
function observeAttempts(test: TestCase): ObservedTest['attempts'] {
  const attempts = (test as unknown as { attempts?: () => readonly AttemptLike[] }).attempts;
  if (typeof attempts !== 'function') return undefined;
  return attempts
    .call(test)
    .filter((a) => a.state === 'passed' || a.state === 'failed')
    .map((a) => ({ durationMs: a.duration, state: a.state as 'passed' | 'failed' }));
}

/** The seeds the flakeguard/seed setup file left in the test's meta (core/replay/ci-seed.ts), or none. */
function observeSeeds(test: TestCase, errorsAtEnd: number, attempts: ObservedTest['attempts']): ObservedTest['seeds'] {
  const meta = readSeedMeta(test.meta());
  return meta === null
    ? undefined
    : testSeedsOf(
        meta,
        errorsAtEnd,
        attempts?.map((a) => a.state),
      );
}

function observeTest(test: TestCase, root: string): ObservedTest {
  const result = test.result();
  const diagnostic = test.diagnostic();
  const attempts = observeAttempts(test);
  const seeds = observeSeeds(test, result.errors?.length ?? 0, attempts);
  return {
    ...(attempts === undefined ? {} : { attempts }),
    ...(seeds === undefined ? {} : { seeds }),
    file: toRelative(root, test.module.moduleId),
    fullName: test.fullName,
    project: test.project.name,
    line: test.location?.line ?? null,
    column: test.location?.column ?? null,
    state: result.state as TestState,
    durationMs: diagnostic?.duration ?? null,
    retries: diagnostic?.retryCount ?? 0,
    flaky: diagnostic?.flaky ?? false,
    errors: (result.errors ?? []).map((e) => toRecordedError(e as ErrorLike, root)),
  };
}

function observeFile(module: TestModule, root: string): ObservedFile {
  let durationMs: number | null = null;
  try {
    durationMs = module.diagnostic().duration;
  } catch {
    durationMs = null;
  }
  const hasTests = !module.children.allTests().next().done;
  const moduleErrors = module.errors().map((e) => toRecordedError(e as ErrorLike, root));
  const suiteErrors = [...module.children.allSuites()].flatMap((s) =>
    s.errors().map((e) => toRecordedError(e as ErrorLike, root)),
  );
  // A module error with no test collected is an import/collection error; with tests it came from a
  // module-level beforeAll/afterAll.
  return {
    file: toRelative(root, module.moduleId),
    project: module.project.name,
    state: module.state() as FileState,
    durationMs: module.state() === 'queued' ? null : durationMs,
    errors: hasTests ? [] : moduleErrors,
    hookErrors: hasTests ? [...moduleErrors, ...suiteErrors] : suiteErrors,
  };
}

export function observeUnhandledError(error: ErrorLike, root: string): RecordedUnhandledError {
  const file = typeof error['VITEST_TEST_PATH'] === 'string' ? toRelative(root, error['VITEST_TEST_PATH']) : null;
  const test = typeof error['VITEST_TEST_NAME'] === 'string' ? error['VITEST_TEST_NAME'] : null;
  const type = typeof error.type === 'string' ? error.type : typeof error.name === 'string' ? error.name : 'Error';
  return { message: typeof error.message === 'string' ? error.message : String(error), type, file, fullName: test };
}

export function observeRun(
  modules: readonly TestModule[],
  root: string,
): { tests: ObservedTest[]; files: ObservedFile[] } {
  const tests: ObservedTest[] = [];
  const files: ObservedFile[] = [];
  for (const module of modules) {
    files.push(observeFile(module, root));
    for (const test of module.children.allTests()) tests.push(observeTest(test, root));
  }
  return { tests, files };
}
