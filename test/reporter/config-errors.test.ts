import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from '../helpers/fixture.js';
import { reporterProject, testFile } from './reporter-fixture.js';

describe('reporter: a malformed flakeguard.yaml stops the run before any test starts', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await reporterProject({
      'a.test.ts': testFile(`test('would run', () => { console.log('TEST BODY RAN'); });`),
    });
  });
  afterAll(() => fx.remove());

  it.each([
    [
      'YAML syntax',
      'budget:\n  test: 5s\n   file: 6s\n',
      'flakeguard.yaml:2:9: YAML syntax error: Nested mappings are not allowed in compact mappings',
    ],
    [
      'an unknown key',
      'budget:\n  test: 5s\nbudgets:\n  file: 1m\n',
      'flakeguard.yaml:3:1: unknown key "budgets"; use budget, allowances, records, triage',
    ],
    [
      'an unknown platform',
      'budget:\n  test: { linux: 5s, macos: 4s }\n',
      'flakeguard.yaml:2:22: unknown platform "macos" in budget.test; use one of aix, android, darwin',
    ],
    [
      '"5 sec"',
      'budget:\n  test: 5 sec\n',
      'flakeguard.yaml:2:9: budget.test "5 sec" is not a duration; write 250ms, 5s, 1.5s or 2m',
    ],
  ])('%s: file:line:column, the accepted forms, no stack, non-zero exit', async (_what, yaml, message) => {
    fx.write('flakeguard.yaml', yaml);
    const run = await fx.vitest();
    expect(run.exitCode).not.toBe(0);
    expect(run.output).toContain(`flakeguard: ${message}`);
    expect(run.output).toContain('The run stopped before any test started');
    expect(run.output).not.toContain('TEST BODY RAN');
    expect(run.output).not.toMatch(/Test Files/);
    expect(run.output).not.toMatch(/❯|\bat .*\.(ts|js):\d+/);
  });
});
