/**
 * Reads what Vitest's default reporter printed, from the events the log scanner kept: failed tests
 * and suites (` FAIL  a.test.ts > grp > name` followed by the error) and unhandled errors
 * (`⎯ Unhandled Rejection ⎯`, the error, `This error originated in "<file>" test file`). These are
 * the only trace of timeouts' messages, beforeAll errors and unhandled rejections when the JSON
 * report is all a team has.
 */

import { refKey, testKey } from '../test-id.js';
import { type AttemptRef, splitAttemptSuffix } from './log-attempts.js';
import { stripAnsi } from './log-matcher.js';
import type { LogEvent, LogScan, ObservedTest, ObservedUnhandled } from './triage-types.js';

export interface LogFailure {
  /** The project the FAIL line names, or null (unknown). */
  readonly project: string | null;
  readonly file: string;
  /** Full name with ' > ', or '' when the whole file failed (import error). */
  readonly fullName: string;
  readonly message: string;
  readonly evidence: string;
  /** Vitest 5: the name as printed, with its attempt label (`name (initial run, 1st retry)`). */
  readonly printedName?: string;
  /** Vitest 5: the attempts that failed, from every FAIL block of this test. */
  readonly attempts?: readonly AttemptRef[];
}

export interface ParsedFailLine {
  /** The project Vitest printed (`FAIL |node| a.test.ts`), or null (unknown) when the line names none. */
  readonly project: string | null;
  readonly file: string;
  readonly fullName: string;
  /** Vitest 5's attempt label, when the line had one: the name as printed and the failed attempts. */
  readonly printedName?: string;
  readonly attempts?: readonly AttemptRef[];
}

const FAIL_LINE = /\bFAIL\s+(?:\|([^|]*)\|\s+)?(\S+?)(?::\d+:\d+)?(?:\s+>\s+(.+?)|\s+\[\s*(.+?)\s*\])?\s*$/;
const UNHANDLED_LINE = /Unhandled (Rejection|Error)\s*(?:⎯|$)/;
const ORIGIN_LINE = /This error originated in "(.+?)" test file/;
// Vitest 4: `The latest test that might've caused the error is "t".`; Vitest 5: `The last test to run before this error was "t".`
const LATEST_LINE =
  /(?:The latest test that might've caused the error is|The last test to run before this error was) "(.+?)"/;
// Vitest 5 only: `Worker exited unexpectedly with signal SIGKILL during started state while running test file /abs/a.test.ts`
const WORKER_EXIT =
  /Worker exited unexpectedly (?:with (?:exit code (-?\d+) )?(?:signal (\w+) )?)?during (\w+) state(?: while running test files? (.+?))?\s*$/;

export interface WorkerExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly state: string;
  /** The files the worker was running, as Vitest printed them (absolute). */
  readonly files: readonly string[];
}

/** Vitest 5's worker-exit error; null for Vitest 4's bare `Worker exited unexpectedly`. */
export function parseWorkerExit(text: string): WorkerExit | null {
  const m = WORKER_EXIT.exec(stripAnsi(text));
  if (!m?.[3]) return null;
  return {
    exitCode: m[1] === undefined ? null : Number(m[1]),
    signal: m[2] ?? null,
    state: m[3],
    files: m[4] === undefined ? [] : m[4].split(', ').map((f) => f.trim()),
  };
}

export function originFile(text: string): string | null {
  return ORIGIN_LINE.exec(stripAnsi(text))?.[1] ?? null;
}

export function latestTest(text: string): string | null {
  return LATEST_LINE.exec(stripAnsi(text))?.[1] ?? null;
}

export function parseFailLine(text: string): ParsedFailLine | null {
  const m = FAIL_LINE.exec(stripAnsi(text));
  if (!m?.[2]) return null;
  const file = m[2];
  if (!/\.[cm]?[jt]sx?$|\.vue$|\.svelte$/.test(file)) return null;
  // Vitest prints `|name|` for a named project; a line without one is an unnamed project's, or a
  // single-project suite's, or another tool's: unknown (null), matched to the one project that has it.
  const project = m[1] === undefined ? null : m[1].trim();
  const printed = m[3] !== undefined ? m[3].trim() : '';
  const split = splitAttemptSuffix(printed);
  if (split === null) return { project, file, fullName: printed };
  return { project, file, fullName: split.fullName, printedName: printed, attempts: split.attempts };
}

function firstMessage(after: readonly string[]): string {
  return (after.find((l) => l.trim() !== '') ?? '').trim();
}

export function readLogFailures(scan: LogScan): LogFailure[] {
  const out: LogFailure[] = [];
  const seen = new Map<string, number>();
  for (const e of scan.events) {
    if (e.id !== 'vitest:fail') continue;
    const parsed = parseFailLine(e.text);
    if (!parsed) continue;
    const key = testKey(parsed);
    const at = seen.get(key);
    const earlier = at === undefined ? undefined : out[at];
    if (earlier !== undefined && at !== undefined) {
      // Vitest 5 prints one FAIL block per distinct error, each with the attempts it failed in.
      if (parsed.attempts) out[at] = { ...earlier, attempts: [...(earlier.attempts ?? []), ...parsed.attempts] };
      continue;
    }
    seen.set(key, out.length);
    out.push({
      ...parsed,
      message: firstMessage(e.after),
      evidence: `${scan.input}:${e.line}: ${e.text.trim()}${
        e.after.length > 0
          ? ` | ${e.after
              .slice(0, 2)
              .map((l) => l.trim())
              .join(' | ')}`
          : ''
      }`,
    });
  }
  return out;
}

export function readLogUnhandled(scan: LogScan): (ObservedUnhandled & { readonly line: number })[] {
  const out: (ObservedUnhandled & { line: number })[] = [];
  let current: {
    type: string;
    message: string;
    file: string | null;
    fullName: string | null;
    line: number;
    cause: string | null;
  } | null = null;
  const flush = (): void => {
    if (current) {
      const { cause, ...rest } = current;
      out.push({
        ...rest,
        ...(cause === null ? {} : { cause }),
        origin: `${scan.input}:${current.line}: ${current.type}: ${current.message}`,
      });
    }
    current = null;
  };
  for (const e of scan.events as readonly LogEvent[]) {
    if (e.id === 'vitest:unhandled') {
      const m = UNHANDLED_LINE.exec(e.text);
      if (!m?.[1]) continue;
      flush();
      current = {
        type: `Unhandled ${m[1]}`,
        message: firstMessage(e.after),
        file: null,
        fullName: null,
        line: e.line,
        cause: null,
      };
    } else if (e.id === 'vitest:origin' && current) {
      current.file = originFile(e.text);
    } else if (e.id === 'vitest:latest' && current) {
      current.fullName = latestTest(e.text);
    } else if (e.id === 'vitest:worker-exit' && current) {
      // Vitest 5 names the file the dead worker was running ("Caused by: Error: Worker exited ...").
      const exit = parseWorkerExit(e.text);
      current.cause = e.text.trim().replace(/^Caused by: (?:Caused by: )?/, '');
      if (current.file === null && exit?.files.length === 1) current.file = exit.files[0] ?? null;
    }
  }
  flush();
  return out;
}

/**
 * Log failures as observations, so that they merge with the reports' entries for the same test.
 * `known` (`refKey` of the other inputs' tests, in any project) keeps a name that really ends in what looks
 * like an attempt label (a test named `retries (1st retry)`) whole.
 */
export function logFailuresAsTests(
  failures: readonly LogFailure[],
  mapFile: (file: string) => string,
  known: ReadonlySet<string> = new Set(),
): ObservedTest[] {
  return failures.map((f) => {
    const file = mapFile(f.file);
    const literal =
      f.printedName !== undefined &&
      known.has(refKey({ file, fullName: f.printedName })) &&
      !known.has(refKey({ file, fullName: f.fullName }));
    return {
      kind: f.fullName === '' ? 'file' : 'test',
      project: f.project,
      file,
      fullName: literal ? (f.printedName ?? f.fullName) : f.fullName,
      line: null,
      state: 'failed',
      durationMs: null,
      errors: f.message === '' ? [] : [f.message],
      limitMs: null,
      source: 'log',
      origin: f.evidence,
      ...(f.attempts && !literal ? { failedAttempts: f.attempts } : {}),
    };
  });
}
