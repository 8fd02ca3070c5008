import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLogMatcher, escapeRegExp, stripAnsi, toByteSource } from '../../../src/core/triage/log-matcher.js';
import { parseFailLine, readLogFailures, readLogUnhandled } from '../../../src/core/triage/log-vitest.js';
import { BUILT_IN_SIGNATURES, type LogSignature, mergeSignatures } from '../../../src/core/triage/triage-signatures.js';
import type { LogScan } from '../../../src/core/triage/triage-types.js';

/** What the scanner does: the combined expression over the UTF-8 bytes read as latin1. */
function bytesHit(source: string, line: string): boolean {
  return new RegExp(source, 'gm').test(Buffer.from(line, 'utf8').toString('latin1'));
}

function literal(id: string, match: string): LogSignature {
  return { id, match, class: 'infrastructure', cause: 'c', action: 'a' };
}

describe('log matcher', () => {
  it('matches a literal with regex characters literally, in the bytes and on the line (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.string({ maxLength: 10 }),
        fc.string({ maxLength: 10 }),
        (needle, before, after) => {
          fc.pre(!needle.includes('\n') && !before.includes('\n') && !after.includes('\n'));
          const m = compileLogMatcher([literal('own', needle)], []);
          const line = `${before}${needle}${after}`;
          expect(bytesHit(m.byteSource, line)).toBe(true);
          expect(m.identify(line)).toEqual(['own']);
        },
      ),
    );
  });

  it('does not treat regex characters as a pattern', () => {
    const m = compileLogMatcher([literal('name', 'math > adds [1+1] (edge)')], []);
    expect(m.identify('FAIL math > adds 1+1 edge')).toEqual([]);
    expect(m.identify('FAIL math > adds 11 (edge)')).toEqual([]);
    expect(bytesHit(m.byteSource, 'math > adds 11 edge')).toBe(false);
    expect(m.identify(' FAIL  t.ts > math > adds [1+1] (edge)')).toEqual(['name']);
  });

  it('matches non-ASCII text through its UTF-8 bytes', () => {
    expect(bytesHit(toByteSource(escapeRegExp('⎯ Startup Error ⎯')), 'x ⎯ Startup Error ⎯ y')).toBe(true);
    expect(bytesHit(toByteSource('é+'), 'caféé')).toBe(true);
  });

  it('gives the first matching signature, project patterns before built-ins', () => {
    const sigs = mergeSignatures([
      {
        id: 'own-enospc',
        match: 'ENOSPC',
        regex: false,
        class: 'infrastructure',
        cause: 'our disk',
        action: 'clean /tmp',
      },
    ]);
    const m = compileLogMatcher(sigs);
    expect(m.identify('Error: ENOSPC: no space left on device, write')).toEqual(['own-enospc']);
    expect(m.identify('sh: 1: tsc: not found')).toEqual(['tsc-missing']);
    expect(m.identify('sh: 1: prettier: not found')).toEqual(['command-not-found']);
    expect(m.identify('Error: Process completed with exit code 137.')).toEqual(['exit-137']);
    expect(m.identify("ENOENT: no such file or directory, open '/w/coverage/.tmp/coverage-3.json'")).toEqual([
      'coverage-enoent',
    ]);
    expect(m.identify('Error: Timeout calling "onTaskUpdate"')).toEqual(['rpc-timeout']);
    expect(m.identify('all good')).toEqual([]);
  });

  it('every built-in signature compiles and hits its own example in the bytes', () => {
    const m = compileLogMatcher(BUILT_IN_SIGNATURES);
    const examples: Record<string, string> = {
      enospc: 'ENOSPC: no space left on device',
      'heap-out-of-memory': 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
      'oom-killer': 'Out of memory: Killed process 1234 (node)',
      'exit-143': 'Error: Process completed with exit code 143.',
      'worker-crash': 'Caused by: Error: Worker exited unexpectedly',
      'shallow-clone': "fatal: ambiguous argument 'HEAD~5': unknown revision or path not in the working tree.",
      'npm-install': 'npm error code ERESOLVE',
      'shard-count':
        'Error: --shard <count> must be a smaller than count of test files. Resolved 2 test files for --shard=3/3.',
      'npm-failed': 'npm error Lifecycle script `test` failed with error:',
    };
    for (const [id, line] of Object.entries(examples)) {
      expect(bytesHit(m.byteSource, line), id).toBe(true);
      expect(m.identify(line), id).toContain(id);
    }
  });
});

describe('Vitest log structures', () => {
  it('parses FAIL lines with and without colours, locations and projects', () => {
    expect(
      parseFailLine(
        '\u001b[41m\u001b[1m FAIL \u001b[22m\u001b[49m a.test.ts\u001b[2m > \u001b[22mgrp\u001b[2m > \u001b[22mfails [x] (y)',
      ),
    ).toEqual({ project: null, file: 'a.test.ts', fullName: 'grp > fails [x] (y)' });
    expect(parseFailLine(' FAIL  test/db.test.ts:2:1 > db')).toEqual({
      project: null,
      file: 'test/db.test.ts',
      fullName: 'db',
    });
    expect(parseFailLine(' FAIL  b.test.ts [ b.test.ts ]')).toEqual({ project: null, file: 'b.test.ts', fullName: '' });
    // Vitest names a named project between bars: the line's test is that project's.
    expect(parseFailLine(' FAIL  |unit| a.test.ts > x')).toEqual({ project: 'unit', file: 'a.test.ts', fullName: 'x' });
    expect(parseFailLine(' FAIL  |jsdom env| a.test.ts > x')?.project).toBe('jsdom env');
    expect(parseFailLine('TEST FAIL something else')).toBeNull();
    expect(stripAnsi('\u001b[31mred\u001b[39m')).toBe('red');
  });

  it('pairs unhandled errors with the file they came from', () => {
    const scan: LogScan = {
      input: 'ci.log',
      lines: 10,
      counts: {},
      tail: [],
      events: [
        { line: 3, id: 'vitest:fail', text: ' FAIL  a.test.ts > t', after: ['AssertionError: nope'] },
        { line: 5, id: 'vitest:unhandled', text: '⎯⎯⎯ Unhandled Errors ⎯⎯⎯', after: [] },
        { line: 6, id: 'vitest:unhandled', text: '⎯⎯⎯ Unhandled Rejection ⎯⎯⎯', after: ['Error: late'] },
        {
          line: 8,
          id: 'vitest:origin',
          text: 'This error originated in "a.test.ts" test file. It doesn\'t mean',
          after: [],
        },
        {
          line: 9,
          id: 'vitest:latest',
          text: 'The latest test that might\'ve caused the error is "t". It might',
          after: [],
        },
      ],
    };
    expect(readLogFailures(scan)).toEqual([
      {
        project: null,
        file: 'a.test.ts',
        fullName: 't',
        message: 'AssertionError: nope',
        evidence: 'ci.log:3:  FAIL  a.test.ts > t | AssertionError: nope'.replace(':  FAIL', ': FAIL'),
      },
    ]);
    expect(readLogUnhandled(scan)).toMatchObject([
      { type: 'Unhandled Rejection', message: 'Error: late', file: 'a.test.ts', fullName: 't', line: 6 },
    ]);
  });
});

describe('Vitest 5 wording', () => {
  it('a worker exit names the worker crash, also with an exit code 137 in it (vitest 5.1.2 emitUnexpectedExit)', () => {
    const m = compileLogMatcher(mergeSignatures([]));
    // Real (worker-killed corpus case) and the exit-code form of the same template.
    const signal =
      'Caused by: Error: Worker exited unexpectedly with signal SIGKILL during started state while running test file /tmp/flakeguard-fx-Mga7BY/test/addon.test.ts';
    const code =
      'Caused by: Error: Worker exited unexpectedly with exit code 137 during started state while running test files /w/a.test.ts, /w/b.test.ts';
    expect(m.identify(signal)).toEqual(['vitest:worker-exit', 'worker-crash']);
    expect(m.identify(code)).toEqual(['vitest:worker-exit', 'worker-crash']);
    expect(m.identify('Caused by: Error: Worker exited unexpectedly')).toEqual(['vitest:worker-exit', 'worker-crash']);
  });

  it('the latest-test line in both wordings, and the v5 timeout error name', () => {
    const m = compileLogMatcher(mergeSignatures([]));
    expect(m.identify('The last test to run before this error was "starts the job". This means either:')).toEqual([
      'vitest:latest',
    ]);
    expect(
      m.identify(
        'The latest test that might\'ve caused the error is "starts the job". It might mean one of the following:',
      ),
    ).toEqual(['vitest:latest']);
    expect(m.identify('TestTimeoutError: Test timed out in 100ms.')).toEqual(['test-timeout']);
  });
});
