import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateReportJson } from '../../src/core/gate/gate-report.js';
import type { Fixture } from '../helpers/fixture.js';
import { COLD_BASE, COLD_FILES, createGateFixture } from './gate-fixtures.js';

// Needs `npm run build`. Under the default --max-tries, cheap tests get warm repeats inside one
// worker (docs/gate.md "How many tries"). A test that keeps state between its runs in one process
// fails at its first repeat every time; CI runs it once per process and never sees that: the gate
// must not call it flaky (core/gate/repeat-only.ts). The cold-start flake beside it stays flaky.

describe('flakeguard gate: a test that fails only when repeated in one worker', () => {
  let fixture: Fixture;
  let report: GateReportJson;
  beforeAll(async () => {
    fixture = await createGateFixture(COLD_FILES, { 'test/server.test.ts': COLD_BASE });
    const run = await fixture.flakeguard(['gate', '--slowdown', '1', '--load', '0', '--json']);
    expect(run.exitCode, run.stderr).toBe(1);
    report = JSON.parse(run.stdout) as GateReportJson;
  });
  afterAll(() => fixture.remove());
  const test = (name: string) => report.tests.find((t) => t.fullName === name);

  it('is stable on its cold tries, and says why its warm ones are left out', () => {
    const t = test('serves once per process');
    expect(t?.verdict, t?.reason).toBe('stable');
    expect(t?.reason).toMatch(
      /failed only as a repeat inside one worker \(every run after its first in a process: (\d+) of \1 failures\)/,
    );
    expect(t?.tries.every((x) => x.cold)).toBe(true);
    expect(t?.tries.every((x) => x.state === 'passed')).toBe(true);
  });

  it('still calls the cold-start flake flaky, and the cheap steady test gets warm repeats', () => {
    expect(test('answers the first request in time')?.verdict).toBe('flaky');
    const steady = test('starts the server');
    expect(steady?.verdict).toBe('stable');
    expect(steady?.tries.some((x) => x.cold === false)).toBe(true);
  });
});
