/**
 * Vitest's JSON report (`--reporter=json`) as observations. Works on a salvaged (partial) report
 * too: only complete assertion entries are used, and a file entry cut before its `name` gets its
 * file from the first test-file frame in its failure messages, else null.
 * Facts (vitest-facts.md §8, §9): full names are joined with spaces (rebuilt here from
 * ancestorTitles + title with ' > '); a beforeAll error leaves the tests 'skipped' and the file
 * 'failed' with an empty message; a worker crash leaves tests 'pending' and the file 'passed'
 * (Vitest 4) or 'failed' with an empty message (Vitest 5 marks a file that never finished failed):
 * either way the file is read as unfinished (pending), not as a failure of its own.
 */

import { TEST_NAME_SEPARATOR } from '../test-id.js';
import type { ObservedFile, ObservedState, ObservedTest } from './triage-types.js';

export interface ReportObservations {
  readonly tests: ObservedTest[];
  readonly files: ObservedFile[];
  /** Complete assertion entries read. */
  readonly entries: number;
}

const MESSAGE_LIMIT = 2000;
const TEST_FILE_FRAME = /((?:[A-Za-z]:)?[\\/][^\s:()'"]+\.(?:test|spec)\.[cm]?[jt]sx?):\d+/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function toState(status: unknown): ObservedState {
  if (status === 'passed' || status === 'failed' || status === 'pending') return status;
  return 'skipped';
}

function messages(v: unknown): string[] {
  return Array.isArray(v)
    ? v.filter((m): m is string => typeof m === 'string').map((m) => m.slice(0, MESSAGE_LIMIT))
    : [];
}

export function readVitestJsonReport(
  value: unknown,
  partial: ReadonlySet<object>,
  input: string,
  mapFile: (path: string) => string,
): ReportObservations {
  const tests: ObservedTest[] = [];
  const files: ObservedFile[] = [];
  let entries = 0;
  const results = isRecord(value) && Array.isArray(value['testResults']) ? value['testResults'] : [];
  results.forEach((fileEntry: unknown, index) => {
    if (!isRecord(fileEntry)) return;
    const assertions = Array.isArray(fileEntry['assertionResults']) ? fileEntry['assertionResults'] : [];
    const complete = assertions.filter(
      (a): a is Record<string, unknown> => isRecord(a) && !partial.has(a) && typeof a['title'] === 'string',
    );
    const rawName = readFileName(fileEntry, complete, partial);
    const file = rawName === null ? null : mapFile(rawName);
    const origin = `${input}: testResults[${index}]${file === null ? '' : ` (${file})`}`;
    for (const a of complete) {
      entries += 1;
      tests.push(readAssertion(a, file, origin));
    }
    if (file === null || partial.has(fileEntry)) return;
    const start = fileEntry['startTime'];
    const end = fileEntry['endTime'];
    files.push({
      file,
      durationMs: typeof start === 'number' && typeof end === 'number' ? end - start : null,
      limitMs: null,
      origin,
    });
    const failure = readFileFailure(fileEntry, assertions.length, complete, file, origin);
    if (failure !== null) tests.push(failure);
  });
  return { tests, files, entries };
}

/** The file entry's name, else the first test-file frame in its failure messages (an entry cut before its name), else null. */
function readFileName(
  fileEntry: Record<string, unknown>,
  complete: readonly Record<string, unknown>[],
  partial: ReadonlySet<object>,
): string | null {
  let rawName = typeof fileEntry['name'] === 'string' && !partial.has(fileEntry) ? fileEntry['name'] : null;
  if (rawName === null && typeof fileEntry['name'] === 'string') rawName = fileEntry['name'];
  if (rawName === null) {
    const frame = complete
      .flatMap((a) => messages(a['failureMessages']))
      .map((m) => TEST_FILE_FRAME.exec(m)?.[1])
      .find((f) => f !== undefined);
    rawName = frame ?? null;
  }
  return rawName;
}

function readAssertion(a: Record<string, unknown>, file: string | null, origin: string): ObservedTest {
  const ancestors = Array.isArray(a['ancestorTitles'])
    ? a['ancestorTitles'].filter((t): t is string => typeof t === 'string')
    : [];
  const name = [...ancestors, a['title'] as string].join(TEST_NAME_SEPARATOR);
  const location = isRecord(a['location']) && typeof a['location']['line'] === 'number' ? a['location']['line'] : null;
  return {
    kind: 'test',
    // Vitest's JSON report names no project: unknown, merged into the one project that has the test.
    project: null,
    file,
    fullName: name,
    line: location,
    state: toState(a['status']),
    durationMs: typeof a['duration'] === 'number' ? a['duration'] : null,
    errors: messages(a['failureMessages']),
    limitMs: null,
    source: 'report',
    origin: `${origin} "${name}" ${String(a['status'])}`,
  };
}

/** A file marked failed with no failed test in it: unfinished (pending) when it says nothing, else a failure of its own. */
function readFileFailure(
  fileEntry: Record<string, unknown>,
  assertionCount: number,
  complete: readonly Record<string, unknown>[],
  file: string,
  origin: string,
): ObservedTest | null {
  if (fileEntry['status'] !== 'failed' || complete.some((a) => a['status'] === 'failed')) return null;
  const message = typeof fileEntry['message'] === 'string' ? fileEntry['message'].slice(0, MESSAGE_LIMIT) : '';
  const unfinished = message === '' && (assertionCount === 0 || complete.some((a) => a['status'] === 'pending'));
  // Vitest 5: `status: "failed", message: ""` with tests "pending": the file never finished.
  const state = unfinished ? 'pending' : 'failed';
  const said = unfinished
    ? ` with an empty message and ${complete.length === 0 ? 'no tests' : 'tests left "pending"'}: the file never finished (its worker stopped before reporting it)`
    : message === ''
      ? ' with an empty message and no failed test (a hook or suite error: only the log or JUnit has it)'
      : `: ${message.split('\n')[0] ?? ''}`;
  return {
    kind: 'file',
    project: null,
    file,
    fullName: '',
    line: null,
    state,
    durationMs: null,
    errors: unfinished || message === '' ? [] : [message],
    limitMs: null,
    source: 'report',
    origin: `${origin} status "failed"${said}`,
  };
}
