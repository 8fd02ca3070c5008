import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateReportJson } from '../../src/core/gate/gate-report.js';
import type { Fixture } from '../helpers/fixture.js';
import { COLD_BASE, COLD_FILES, createGateFixture, gateAtNoSlowdown } from './gate-fixtures.js';

// Needs `npm run build`. The mechanism, deterministically (counter files, no timing): every try is
// a fresh worker, so a flake that only a cold process shows is caught, and a failure that only a
// repeat inside one process shows (CI never repeats there) is not invented. At no slowdown
// (--slowdown 1): the subject is the cold tries, not the factor (gate-contention.test.ts), and the
// tests that hold then get no tries at higher factors.

describe('flakeguard gate: cold tries', () => {
  let fixture: Fixture;
  let report: GateReportJson;
  beforeAll(async () => {
    // The tests exist on main with empty bodies: changed, not new, so the gate starts no Vitest for
    // alone tries (order dependence is gate.test.ts's subject).
    fixture = await createGateFixture(COLD_FILES, {
      'test/keep.test.ts': "import { it } from 'vitest';\nit('keeps', () => {});\n",
      'test/server.test.ts': COLD_BASE,
    });
    const run = await fixture.flakeguard(gateAtNoSlowdown(5, 0, '--json'));
    expect(run.exitCode, run.stderr).toBe(1);
    report = JSON.parse(run.stdout) as GateReportJson;
  });
  afterAll(() => fixture.remove());
  const test = (name: string) => report.tests.find((t) => t.fullName === name);

  it('calls the cold-start flake flaky: the second fresh worker failed its first request', () => {
    expect(test('answers the first request in time')).toMatchObject({ verdict: 'flaky', passes: 4, tryCount: 5 });
    expect(test('answers the first request in time')?.tries.map((t) => [t.state, t.cold])).toEqual([
      ['passed', true],
      ['failed', true],
      ['passed', true],
      ['passed', true],
      ['passed', true],
    ]);
    // No condition to name: no slowdown, no load (the factor in the reason: gate-verdict.test.ts).
    expect(test('answers the first request in time')?.reason).toBe('failed 1 of 5 cold tries');
  });

  it('never repeats a test inside one worker: a test that fails only when repeated is stable', () => {
    expect(test('serves once per process')).toMatchObject({ verdict: 'stable', passes: 5, tryCount: 5 });
    expect(test('serves once per process')?.tries.every((t) => t.cold)).toBe(true);
    // At --slowdown 1 no higher factor is tried: a test that held holds at the reference, no higher.
    expect(test('serves once per process')).toMatchObject({ holdsAt: report.contention?.reference, breaksAt: null });
  });

  it('reports the maximum tries, the time budget and what the tries cost', () => {
    expect(report).toMatchObject({ tries: 5, maxTries: 5, timeBudgetMs: 120_000 });
    expect(report.cost?.loadedWallMs).toBeGreaterThan(report.cost?.triesMs ?? Infinity);
  });
});
