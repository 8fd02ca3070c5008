import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AttemptRef,
  formatAttempt,
  judgeAttempts,
  splitAttemptSuffix,
} from '../../../src/core/triage/log-attempts.js';
import { parseFailLine } from '../../../src/core/triage/log-vitest.js';

const SAMPLES = path.resolve(import.meta.dirname, '../../triage-corpus/vitest5-samples');
const failLines = (file: string): string[] =>
  readFileSync(path.join(SAMPLES, file), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith(' FAIL '));

describe('Vitest 5 attempt labels on FAIL lines (real vitest 5.1.2 output)', () => {
  it('strips and reads every label form vitest 5.1.2 printed', () => {
    const parsed = [
      ...failLines('retry.log'),
      ...failLines('retry-probe.log'),
      ...failLines('repeats.log'),
      ...failLines('retry-repeat.log'),
    ].map(parseFailLine);
    expect(parsed).toEqual([
      {
        project: null,
        file: 'test/math.test.ts',
        fullName: 'math > adds [1+1] (edge)',
        printedName: 'math > adds [1+1] (edge) (initial run, 1st retry)',
        attempts: [
          { repeat: 0, retry: 0 },
          { repeat: 0, retry: 1 },
        ],
      },
      {
        project: null,
        file: 'test/rep.test.ts',
        fullName: 'fails every time',
        printedName: 'fails every time (initial run, 1st retry, 2nd retry)',
        attempts: [
          { repeat: 0, retry: 0 },
          { repeat: 0, retry: 1 },
          { repeat: 0, retry: 2 },
        ],
      },
      {
        project: null,
        file: 'test/rep.test.ts',
        fullName: 'fails on the second run only',
        printedName: 'fails on the second run only (1st repeat)',
        attempts: [{ repeat: 1, retry: 0 }],
      },
      {
        project: null,
        file: 'test/rep.test.ts',
        fullName: 'fails twice the same',
        printedName: 'fails twice the same (initial run, 2nd repeat)',
        attempts: [
          { repeat: 0, retry: 0 },
          { repeat: 2, retry: 0 },
        ],
      },
      {
        project: null,
        file: 'test/rep.test.ts',
        fullName: 'fails differently',
        printedName: 'fails differently (initial run)',
        attempts: [{ repeat: 0, retry: 0 }],
      },
      {
        project: null,
        file: 'test/rep.test.ts',
        fullName: 'fails differently',
        printedName: 'fails differently (1st repeat)',
        attempts: [{ repeat: 1, retry: 0 }],
      },
      {
        project: null,
        file: 'test/rep.test.ts',
        fullName: 'fails always',
        printedName: 'fails always (initial run, 1st retry, 1st repeat, 1st retry of 1st repeat)',
        attempts: [
          { repeat: 0, retry: 0 },
          { repeat: 0, retry: 1 },
          { repeat: 1, retry: 0 },
          { repeat: 1, retry: 1 },
        ],
      },
      {
        project: null,
        file: 'test/rep.test.ts',
        fullName: 'passes only the first run',
        printedName: 'passes only the first run (1st repeat, 1st retry of 1st repeat)',
        attempts: [
          { repeat: 1, retry: 0 },
          { repeat: 1, retry: 1 },
        ],
      },
    ]);
  });

  it('reads the count forms of vitest 5.1.2 formatErrorAttempts (one error several times in one attempt)', () => {
    // From node_modules/vitest/dist/chunks/cli-api.*.js formatErrorAttempts: `${count} in ${label}` or the count alone.
    expect(splitAttemptSuffix('t (2 times in initial run, 1st retry)')?.attempts).toEqual([
      { repeat: 0, retry: 0 },
      { repeat: 0, retry: 1 },
    ]);
    expect(splitAttemptSuffix('t (2 times)')).toEqual({ fullName: 't', label: '2 times', attempts: [] });
  });

  it('leaves names that merely end in parentheses whole, and Vitest 4 lines as they were', () => {
    expect(splitAttemptSuffix('adds [1+1] (edge)')).toBeNull();
    expect(splitAttemptSuffix('retries (up to 3 times)')).toBeNull();
    expect(splitAttemptSuffix('runs (initial run, later)')).toBeNull();
    expect(parseFailLine(' FAIL  test/math.test.ts > math > adds [1+1] (edge)')).toEqual({
      project: null,
      file: 'test/math.test.ts',
      fullName: 'math > adds [1+1] (edge)',
    });
  });

  it('formats what it reads (property: label -> attempts -> label)', () => {
    const attempt = fc.record({ repeat: fc.nat(30), retry: fc.nat(30) });
    fc.assert(
      fc.property(fc.array(attempt, { minLength: 1, maxLength: 6 }), (attempts) => {
        const split = splitAttemptSuffix(`grp > t (x) (${attempts.map(formatAttempt).join(', ')})`);
        expect(split?.fullName).toBe('grp > t (x)');
        expect(split?.attempts).toEqual(attempts);
      }),
    );
  });
});

describe('judgeAttempts', () => {
  it('the real samples: a later repeat failing alone means the earlier runs passed', () => {
    expect(judgeAttempts([{ repeat: 1, retry: 0 }]).passed).toEqual([{ repeat: 0, retry: 0 }]);
    expect(
      judgeAttempts([
        { repeat: 0, retry: 0 },
        { repeat: 2, retry: 0 },
      ]).passed,
    ).toEqual([{ repeat: 1, retry: 0 }]);
    expect(
      judgeAttempts([
        { repeat: 1, retry: 0 },
        { repeat: 1, retry: 1 },
      ]).passed,
    ).toEqual([{ repeat: 0, retry: 0 }]);
    expect(
      judgeAttempts([
        { repeat: 0, retry: 0 },
        { repeat: 0, retry: 1 },
      ]).passed,
    ).toEqual([]);
    expect(
      judgeAttempts([
        { repeat: 0, retry: 0 },
        { repeat: 0, retry: 1 },
        { repeat: 1, retry: 0 },
        { repeat: 1, retry: 1 },
      ]).passed,
    ).toEqual([]);
  });

  it('never claims a pass that did not happen (property over simulated retry/repeat runs)', () => {
    // Vitest's order: each repeat runs; within it, retries until a pass or the retry count is used up.
    const run = fc.record({
      repeats: fc.nat(4),
      retries: fc.nat(3),
      outcomes: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
    });
    fc.assert(
      fc.property(run, ({ repeats, retries, outcomes }) => {
        const failed: AttemptRef[] = [];
        const passed = new Set<string>();
        let k = 0;
        for (let repeat = 0; repeat <= repeats; repeat += 1) {
          for (let retry = 0; retry <= retries; retry += 1) {
            const ok = outcomes[k++ % outcomes.length] ?? true;
            if (ok) {
              passed.add(`${repeat}:${retry}`);
              break;
            }
            failed.push({ repeat, retry });
          }
        }
        const verdict = judgeAttempts(failed);
        for (const p of verdict.passed)
          expect(passed.has(`${p.repeat}:${p.retry}`), `${formatAttempt(p)} did not pass`).toBe(true);
        // A test that failed somewhere and passed an earlier repeat is seen as passing.
        const firstFail = failed[0];
        if (firstFail && firstFail.repeat > 0) expect(verdict.passed.length).toBeGreaterThan(0);
      }),
    );
  });
});
