/**
 * Per-attempt figures in the run record: Vitest 5's TestCase.attempts() gives each retry's
 * duration and outcome; Vitest 4.1 reports only the total, and the record says nothing more.
 * This file runs in both suites (npm test on 4.1, .ci/vitest5 on 5.x).
 */
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import type { Fixture } from '../helpers/fixture.js';
import { schemaErrors } from '../helpers/schema-check.js';
import { records, reporterProject, testFile } from './reporter-fixture.js';

const vitestMajor = Number(
  (createRequire(import.meta.url)('vitest/package.json') as { version: string }).version.split('.')[0],
);
let fx: Fixture | undefined;
afterAll(() => fx?.remove());

describe(`reporter on the installed Vitest (major ${vitestMajor})`, () => {
  it('records each attempt of a retried test where Vitest reports attempts', async () => {
    fx = await reporterProject({
      'retry.test.ts': testFile(`let n = 0;
test('passes on its second attempt', { retry: 2 }, async () => {
  n += 1;
  await sleep(n === 1 ? 600 : 0);
  expect(n).toBe(2);
});`),
    });
    const run = await fx.vitest();
    expect(run.exitCode, run.output).toBe(0);
    // The record, with its attempts on Vitest 5, is what schemas/run-record.schema.json says (issue 47).
    expect(schemaErrors('run-record', records(fx)[0])).toEqual([]);
    const test = records(fx)[0]?.tests.find((t) => t.fullName === 'passes on its second attempt');
    expect(test?.flaky).toBe(true);
    if (vitestMajor >= 5) {
      expect(test?.tryStates).toEqual(['failed', 'passed']);
      expect(test?.triesMs).toHaveLength(2);
      // The first attempt slept 600ms, the second not at all: a bound and an order with a wide margin.
      expect(test?.triesMs?.[0]).toBeGreaterThanOrEqual(590);
      expect(test?.triesMs?.[0]).toBeGreaterThan(test?.triesMs?.[1] ?? Infinity);
    } else {
      expect(test?.triesMs).toBeUndefined();
      expect(test?.tryStates).toBeUndefined();
    }
  });
});
