import { afterEach, describe, expect, it } from 'vitest';
import type { Fixture } from '../helpers/fixture.js';
import {
  lastLine,
  PLATFORM,
  printedDuration,
  printedFileDuration,
  records,
  reporterProject,
  testFile,
} from './reporter-fixture.js';

const fixtures: Fixture[] = [];
async function project(...args: Parameters<typeof reporterProject>): Promise<Fixture> {
  const fixture = await reporterProject(...args);
  fixtures.push(fixture);
  return fixture;
}
afterEach(() => {
  for (const f of fixtures.splice(0)) f.remove();
});

describe('reporter: duration budgets', () => {
  it('all within budget: exit 0 and a green last line', async () => {
    const fx = await project(
      {
        'quick.test.ts': testFile(
          `test('adds', () => expect(1 + 1).toBe(2));\ntest('subtracts', () => expect(2 - 1).toBe(1));`,
        ),
      },
      { yaml: 'budget:\n  test: 2s\n' },
    );
    const run = await fx.vitest();
    expect(run.exitCode).toBe(0);
    expect(lastLine(run.stdout)).toBe('flakeguard: 2 tests within duration budgets');
    expect(run.output).not.toContain('over budget');
  });

  it('one test over budget fails the run with its figures though every assertion passed', async () => {
    const fx = await project(
      {
        'slow.test.ts': testFile(
          `describe('slow things', () => {\n  test('sleeps', async () => { await sleep(300); expect(true).toBe(true); });\n  test('is quick', () => {});\n});`,
        ),
      },
      { yaml: 'budget:\n  test: 200ms\n' },
    );
    const run = await fx.vitest();
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/Tests\s+2 passed/);
    expect(run.stdout).toMatch(
      new RegExp(
        `over budget  slow\\.test\\.ts:4  slow things > sleeps  ${printedDuration(fx, 'slow things > sleeps')} > 200ms \\(${PLATFORM} budget\\)`,
      ),
    );
    expect(run.stdout).toMatch(
      /flakeguard allowances add --file "slow\.test\.ts" --test "slow things > sleeps" --budget \d+ms --reason/,
    );
    expect(lastLine(run.stdout)).toBe(
      'flakeguard: run failed on duration budgets: 1 test over budget (no test failed)',
    );
    const [record] = records(fx);
    expect(record?.violations).toEqual([
      expect.objectContaining({
        kind: 'test',
        file: 'slow.test.ts',
        fullName: 'slow things > sleeps',
        line: 4,
        limitMs: 200,
        limitSource: 'budget',
      }),
    ]);
    expect(record?.exitCode).toBe(1);
    expect(record?.vitestExitCode).toBeNull();
  });

  it('a test near its budget is a warning and leaves the exit code at 0', async () => {
    // Near from 200ms (10% of 2s): the 250ms sleep has 1.75s to spare before it would be over.
    const fx = await project(
      { 'near.test.ts': testFile(`test('takes a while', async () => { await sleep(250); });`) },
      { yaml: 'budget:\n  test: 2s\n  warnAt: 10%\n' },
    );
    const run = await fx.vitest();
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `near budget  near\\.test\\.ts:3  takes a while  ${printedDuration(fx, 'takes a while')} of 2\\.00s \\(\\d+%, ${PLATFORM} budget\\)`,
      ),
    );
    expect(lastLine(run.stdout)).toBe('flakeguard: 1 test within duration budgets; 1 near budget');
  });

  it('a file over its file budget fails the run and is named, with no single test over', async () => {
    const body = [1, 2, 3].map((n) => `test('part ${n}', async () => { await sleep(150); });`).join('\n');
    const fx = await project({ 'big.test.ts': testFile(body) }, { yaml: 'budget:\n  test: 1s\n  file: 300ms\n' });
    const run = await fx.vitest();
    expect(run.exitCode).toBe(1);
    expect(run.stdout).not.toMatch(/over budget {2}big\.test\.ts:/);
    expect(run.stdout).toMatch(
      new RegExp(
        `over budget  big\\.test\\.ts  \\(whole file\\)  ${printedFileDuration(fx, 'big.test.ts')} > 300ms \\(${PLATFORM} file budget\\)`,
      ),
    );
    expect(lastLine(run.stdout)).toBe(
      'flakeguard: run failed on duration budgets: 1 file over budget (no test failed)',
    );
  });

  it('a per-platform budget map applies the current platform', async () => {
    const other = PLATFORM === 'win32' ? 'darwin' : 'win32';
    const yaml = `budget:\n  test: { ${other}: 50ms, ${PLATFORM}: 2s, default: 100ms }\n`;
    const fx = await project(
      { 'platform.test.ts': testFile(`test('needs 200ms', async () => { await sleep(200); });`) },
      { yaml },
    );
    const run = await fx.vitest();
    expect(run.exitCode).toBe(0);
    const [record] = records(fx);
    expect(record?.tests[0]).toMatchObject({
      limitMs: 2000,
      limitKey: PLATFORM,
      limitSource: 'budget',
      budgetStatus: 'within',
    });
  });

  it('a failing test and a budget violation are both reported', async () => {
    const fx = await project(
      {
        'mixed.test.ts': testFile(
          `test('breaks', () => { expect(1).toBe(2); });\ntest('dawdles', async () => { await sleep(300); });`,
        ),
      },
      { yaml: 'budget:\n  test: 200ms\n' },
    );
    const run = await fx.vitest();
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(`over budget  mixed\\.test\\.ts:4  dawdles  ${printedDuration(fx, 'dawdles')} > 200ms`),
    );
    expect(run.stdout).toMatch(/failed {2}mixed\.test\.ts:3 {2}breaks {2}AssertionError: expected 1 to be 2/);
    expect(lastLine(run.stdout)).toBe(
      'flakeguard: run failed: 1 failing test; failed on duration budgets: 1 test over budget',
    );
  });
});
