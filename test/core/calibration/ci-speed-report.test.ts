import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CiSpeedEstimate, SpeedRun } from '../../../src/core/calibration/ci-speed.js';
import {
  computeCiSpeedReport,
  formatCiSpeedReport,
  toCiSpeedJson,
} from '../../../src/core/calibration/ci-speed-report.js';
import { formatTimeoutProposals, proposeTimeouts } from '../../../src/core/calibration/timeout-proposals.js';

const HERE = {
  match: 'machine',
  machine: { id: '3f9a1c2b7d10', cpuModel: 'Example CPU', cores: 8 },
  runs: 1,
  machines: 1,
  others: 0,
} as const;

/** 25 tests of 10-34 ms x scale. */
const run = (id: string, scale: number): SpeedRun => ({
  runId: id,
  startedAt: '2026-11-01T00:00:00.000Z',
  durations: new Map(Array.from({ length: 25 }, (_, i) => [`t${i}`, (10 + i) * scale * (1 + (i % 5) * 0.01)])),
});

describe("history's CI speeds", () => {
  it('lists each platform relative to here, and a CI that got 30% slower as a finding', () => {
    // Newest first: the newer half at 3.9x, the older at 3x.
    const linux = [run('l4', 3.9), run('l3', 3.9), run('l2', 3), run('l1', 3)];
    const report = computeCiSpeedReport({
      local: [run('h', 1)],
      here: HERE,
      platforms: new Map([
        ['linux', linux],
        ['windows', [run('w1', 2)]],
      ]),
    });
    expect(report[0]?.trend).toMatchObject({ older: 3, newer: 3.9, direction: 'slower' });
    expect(report[0]?.trend?.change).toBeCloseTo(0.3, 9);
    expect(report[1]?.trend).toBeNull();
    expect(formatCiSpeedReport(report)).toBe(
      [
        '',
        'CI speed relative to this machine (here: 1 run of this machine 3f9a1c2b7d10; docs/history.md):',
        '  linux: 3.4x slower than here (95% CI 3.4-3.4, 25 tests, last 4 runs); trend: 3.0x -> 3.9x (+30%) from the older half of the runs to the newer: got slower',
        '  windows: 2.0x slower than here (95% CI 2.0-2.0, 25 tests, last 1 run); trend: needs 4 runs',
        '',
      ].join('\n'),
    );
    expect(toCiSpeedJson(report)[1]).toMatchObject({
      platform: 'windows',
      ratio: 2,
      tests: 25,
      runs: 1,
      local: HERE,
      trend: null,
    });
  });

  it('says steady when the halves overlap, and why a platform has no estimate', () => {
    const report = computeCiSpeedReport({
      local: [run('h', 1)],
      here: HERE,
      platforms: new Map([
        ['linux', [run('a', 3), run('b', 3), run('c', 3), run('d', 3)]],
        ['lint-job', []],
      ]),
    });
    expect(report.find((p) => p.speed.platform === 'linux')?.trend?.direction).toBe('steady');
    expect(formatCiSpeedReport(report)).toContain('  lint-job: no estimate: no CI run of lint-job in history');
    expect(formatCiSpeedReport([])).toBe('');
  });
});

describe('history --propose-timeouts', () => {
  it("proposes budgets and testTimeout per platform from the interval's upper end, as text to review", () => {
    const report = computeCiSpeedReport({
      local: [run('h', 1)],
      here: HERE,
      platforms: new Map([
        ['windows', [run('w', 3.1)]],
        ['e2e', [run('e', 2)]],
      ]),
    });
    const proposals = proposeTimeouts(report, 5000);
    expect(proposals.map((p) => [p.label, p.platform, p.multiplier, p.budgetMs, p.testTimeoutMs])).toEqual([
      ['e2e', null, 2, 10000, 10000],
      ['windows', 'win32', 3.1, 15500, 15500],
    ]);
    const text = formatTimeoutProposals(proposals, 5000, 'linux');
    expect(text).toContain('nothing was changed');
    expect(text).toContain('    win32: 15.5s   # CI windows: 5s x 3.1');
    expect(text).toContain(
      'testTimeout: env.CI ? (({ win32: 15500 }) as Record<string, number>)[platform] ?? 5000 : 5000,',
    );
    expect(text).toContain('# CI job e2e: x2 (budget 10s, testTimeout 10000 ms)');
    expect(formatTimeoutProposals([], 5000, 'linux')).toContain('no timeout proposals');
  });

  it('rounds each limit x multiplier up to the next tenth of a second, never past it (30s x 8.3 is 249s)', () => {
    const estimate = (upper: number): CiSpeedEstimate => ({
      kind: 'estimated',
      platform: 'linux',
      ratio: upper,
      interval: [1, upper],
      tests: 24,
      runs: 1,
      localRuns: 1,
    });
    const [p] = proposeTimeouts([{ speed: estimate(8.3), trend: null, local: HERE }], 30_000);
    expect([p?.multiplier, p?.budgetMs, p?.testTimeoutMs]).toEqual([8.3, 249_000, 41_500]);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 86_400_000 }), fc.integer({ min: 10, max: 500 }), (ms, tenths) => {
        const [q] = proposeTimeouts([{ speed: estimate(tenths / 10), trend: null, local: HERE }], ms);
        expect(q?.multiplier).toBe(tenths / 10);
        // Whole numbers only: budgetMs is the least multiple of 100 ms at or above ms x tenths / 10.
        const budget = q?.budgetMs ?? Number.NaN;
        expect(budget % 100).toBe(0);
        expect(budget * 10).toBeGreaterThanOrEqual(ms * tenths);
        expect((budget - 100) * 10).toBeLessThan(ms * tenths);
      }),
    );
  });
});
