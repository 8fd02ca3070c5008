import { describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/commands/describe-failure.js';
import { FlakeguardError } from '../../src/core/errors.js';

describe('describeFailure: the one mapping from an error to what the CLI prints and its exit code', () => {
  it('a known error: its one-line message and its code, no stack', () => {
    expect(describeFailure(new FlakeguardError('USAGE', '--runs "-1" must be a whole number from 1 to 1000'))).toEqual({
      exitCode: 2,
      text: 'flakeguard: --runs "-1" must be a whole number from 1 to 1000',
    });
    expect(describeFailure(new FlakeguardError('INTERRUPTED', 'interrupted', { exitCode: 130 })).exitCode).toBe(130);
  });

  it('an fs error on a path: a usage error (2) naming the path and the fix', () => {
    const error = Object.assign(new Error('EISDIR: illegal operation on a directory, read'), {
      code: 'EISDIR',
      syscall: 'read',
      path: 'reports',
    });
    expect(describeFailure(error)).toEqual({ exitCode: 2, text: 'flakeguard: reports is a folder; pass a file' });
    const missing = Object.assign(new Error('ENOENT'), { code: 'ENOENT', syscall: 'open', path: 'nope/run.json' });
    expect(describeFailure(missing).text).toBe('flakeguard: nope/run.json does not exist; check the path');
  });

  it('anything else is a bug: exit 2 (never 1), its stack, and a request for a report', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    const { exitCode, text } = describeFailure(bug);
    expect(exitCode).toBe(2);
    expect(text).toContain('internal error (a bug in flakeguard');
    expect(text).toContain(bug.stack ?? '');
    expect(text).toMatch(
      /Please report it with the command you ran and this output \(flakeguard \d+\.\d+\.\d+, Node v\d+/,
    );
    expect(describeFailure('a string thrown').exitCode).toBe(2);
  });
});
