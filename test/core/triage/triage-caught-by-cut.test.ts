/** The check lines cut what came from outside (issue 48, finding 11). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkLines, describeCheck } from '../../../src/core/triage/triage-caught-by.js';
import type { CaughtBy } from '../../../src/core/triage/triage-types.js';

const LINUX: CaughtBy = {
  provider: 'github-actions',
  workflow: 'CI',
  job: 'test-linux',
  shard: { index: 1, count: 2 },
  runUrl: 'https://github.com/acme/shop/actions/runs/7',
};

describe('names from outside are cut to a stated length (issue 48, finding 11)', () => {
  it('a 10 kB job name, workflow and run page: each cut with its length, the line bounded', () => {
    const long = {
      ...LINUX,
      workflow: 'W'.repeat(10_000),
      job: 'j'.repeat(10_000),
      runUrl: `https://x/${'u'.repeat(10_000)}`,
    };
    const lines = checkLines({ caughtBy: long, seenBy: [long] });
    expect(lines).toEqual([
      `caught by: GitHub Actions ${'W'.repeat(100)}… (10000 characters) / ${'j'.repeat(100)}… (10000 characters) (shard 1/2) https://x/${'u'.repeat(190)}… (10010 characters)`,
    ]);
  });

  it('every check line is at most the stated lengths plus their markers (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), fc.string({ maxLength: 3000 }), (workflow, job) => {
        const line = describeCheck({ ...LINUX, workflow, job }) ?? '';
        expect(line.length).toBeLessThanOrEqual(2 * (100 * 6 + 25) + 60);
      }),
    );
  });
});
