/**
 * The gate's runner does not use the globals a test may delete or replace (issue 48): a test that
 * deletes `globalThis.performance` (its failure skips the line that puts it back), one that fakes
 * `Date` and `performance` and advances them by ten minutes, and one that replaces `setTimeout` and
 * `process.hrtime` each get their true verdict, with every try's result recorded, and so do the
 * tests after them in their files, which run with the globals still deleted or faked
 * (src/runner/captured-globals.ts). A test that kills its worker is a failed try with the worker's
 * end as its error (core/gate/unfinished-tries.ts), not a hang. Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateReportJson } from '../../src/core/gate/gate-report.js';
import type { Fixture } from '../helpers/fixture.js';
import { A_OLD, createGateFixture, gateAtNoSlowdown } from './gate-fixtures.js';

const AFTER = "it('runs after it', () => {\n  expect(1 + 1).toBe(2);\n});\n";
const FILES: Record<string, string> = {
  'test/perf.test.ts': `import { expect, it } from 'vitest';

it('measures without performance', () => {
  const saved = globalThis.performance;
  // @ts-expect-error: deleted on purpose, as the test under study did
  delete globalThis.performance;
  const started = performance.now();
  globalThis.performance = saved;
  expect(started).toBeGreaterThan(0);
});
${AFTER}`,
  'test/clock.test.ts': `import { expect, it, vi } from 'vitest';

it('jumps the fake clock', () => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2001-01-01T00:00:00Z'));
  vi.advanceTimersByTime(600_000);
  expect(new Date().toISOString()).toBe('2001-01-01T00:10:00.000Z');
});
${AFTER}`,
  'test/timers.test.ts': `import { expect, it } from 'vitest';

it('replaces the timers', async () => {
  globalThis.setTimeout = ((fn: () => void) => {
    fn();
    return 0;
  }) as unknown as typeof setTimeout;
  process.hrtime = (() => [0, 0]) as unknown as typeof process.hrtime;
  await new Promise((resolve) => setTimeout(resolve, 600_000));
  expect(1).toBe(1);
});
${AFTER}`,
  'test/kill.test.ts': `import { expect, it } from 'vitest';

it('kills its worker', () => {
  process.kill(process.pid, 'SIGKILL');
});
${AFTER}`,
};

describe('flakeguard gate: tests that delete or replace the globals a timer needs', () => {
  let fx: Fixture;
  let report: GateReportJson;
  beforeAll(async () => {
    fx = await createGateFixture({ 'test/a.test.ts': A_OLD, ...FILES }, { 'test/a.test.ts': A_OLD });
    const run = await fx.flakeguard(gateAtNoSlowdown(2, 0, '--base', 'main', '--json'));
    expect(run.exitCode, run.output).toBe(1);
    report = JSON.parse(run.stdout) as GateReportJson;
  });
  afterAll(() => fx.remove());

  const test = (file: string, fullName: string) => {
    const found = report.tests.find((t) => t.file === file && t.fullName === fullName);
    expect(found, JSON.stringify(report.tests.map((t) => [t.file, t.fullName]))).toBeDefined();
    return found as GateReportJson['tests'][number];
  };

  it('the test that deletes performance fails every try with its ReferenceError, each recorded', () => {
    const t = test('test/perf.test.ts', 'measures without performance');
    expect(t.verdict, t.reason ?? '').toBe('failing');
    expect(t.tries.map((x) => x.state)).toEqual(['failed', 'failed']);
    for (const x of t.tries) expect(x.error).toContain('ReferenceError: performance is not defined');
  });

  it('a test that kills its worker: every try failed, with how its worker ended as the error, not a hang', () => {
    const t = test('test/kill.test.ts', 'kills its worker');
    expect(t.verdict, t.reason ?? '').toBe('failing');
    expect(t.tries.map((x) => x.state)).toEqual(['failed', 'failed']);
    for (const x of t.tries) {
      expect(x.error).toMatch(/^its worker ended during the try \(pid \d+\): .*Worker exited unexpectedly/);
      expect(x.durationMs).toBeLessThan(60_000);
    }
    const after = test('test/kill.test.ts', 'runs after it');
    expect(after.reason).toBe(
      'did not run: its file\'s worker ended before it, during "kills its worker" (line 3), so it never ran',
    );
  });

  it.each([
    ['test/perf.test.ts', 'runs after it'],
    ['test/clock.test.ts', 'jumps the fake clock'],
    ['test/clock.test.ts', 'runs after it'],
    ['test/timers.test.ts', 'replaces the timers'],
    ['test/timers.test.ts', 'runs after it'],
  ])('%s > %s passes, every try recorded and timed by the real clock', (file, fullName) => {
    const t = test(file, fullName);
    expect(t.verdict, t.reason ?? '').toBe('stable');
    expect(t.tries.map((x) => x.state)).toEqual(['passed', 'passed']);
    // Ten fake minutes passed in the clock test: its tries took well under one real minute.
    for (const x of t.tries) {
      expect(x.durationMs).toBeGreaterThanOrEqual(0);
      expect(x.durationMs).toBeLessThan(60_000);
    }
    if (t.alone !== null) expect(t.alone.tryCount).toBe(t.alone.passes);
  });
});
