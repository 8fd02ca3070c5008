import { describe, expect, it } from 'vitest';
import { decideAutoSlowdown, targetForRatio } from '../../../src/core/calibration/auto-slowdown.js';
import { describeCalibration, onCi } from '../../../src/core/calibration/calibration-phrases.js';
import {
  type CalibrationRunRow,
  ciPlatformLabel,
  estimateCiSpeeds,
  sampleCalibrationRuns,
} from '../../../src/core/calibration/calibration-runs.js';
import type { CiSpeed } from '../../../src/core/calibration/ci-speed.js';
import type { CiContext } from '../../../src/core/record/ci-context.js';

const ci = (runnerOs: string | null, job: string | null = 'test'): CiContext => ({
  provider: 'github-actions',
  workflow: 'ci',
  job,
  runId: '1',
  attempt: 1,
  runUrl: null,
  branch: 'main',
  commit: null,
  runnerOs,
  shard: null,
});

const row = (
  id: string,
  hour: number,
  context: CiContext | null,
  scale: number,
  platform = 'linux',
): CalibrationRunRow => ({
  runId: id,
  startedAt: new Date(Date.UTC(2026, 10, 1, hour)).toISOString(),
  platform,
  ci: context,
  job: null,
  durations: new Map(Array.from({ length: 25 }, (_, i) => [`t${i}`, (10 + i) * scale])),
});

const estimated = (platform: string, ratio: number): CiSpeed => ({
  kind: 'estimated',
  platform,
  ratio,
  interval: [ratio * 0.9, ratio * 1.1],
  tests: 40,
  runs: 12,
  localRuns: 3,
});

describe('runs per CI platform', () => {
  it('labels a CI run by its runner OS, else its job, else its provider', () => {
    expect(ciPlatformLabel(ci('Linux'))).toBe('linux');
    expect(ciPlatformLabel(ci(null, 'unit-win'))).toBe('unit-win');
    expect(ciPlatformLabel(ci(null, null))).toBe('github-actions');
  });

  it('keeps the newest runs of each side; runs here are those without CI context on this OS', () => {
    const rows = [
      row('old', 1, ci('Linux'), 9),
      row('new', 5, ci('Linux'), 3),
      row('newer', 6, ci('Linux'), 3),
      row('win', 4, ci('Windows'), 5),
      row('here', 2, null, 1),
      row('mac-laptop', 3, null, 1, 'darwin'),
    ];
    const sample = sampleCalibrationRuns(rows, 'linux', 2);
    expect(sample.local.map((r) => r.runId)).toEqual(['here']);
    expect(sample.platforms.get('linux')?.map((r) => r.runId)).toEqual(['newer', 'new']);
    const speeds = estimateCiSpeeds(sample);
    expect(speeds.map((s) => [s.platform, s.kind === 'estimated' ? s.ratio : null])).toEqual([
      ['linux', 3],
      ['windows', 5],
    ]);
  });
});

describe('gate.slowdown: auto', () => {
  it('judges at the slowest estimated platform, or the one asked for', () => {
    const speeds = [estimated('linux', 3.4), estimated('windows', 5.04)];
    expect(decideAutoSlowdown(speeds, null, 2).target).toBe(5);
    const linux = decideAutoSlowdown(speeds, 'Linux', 2);
    expect(linux.target).toBe(3.4);
    expect(linux.calibration).toMatchObject({ source: 'history', platform: 'linux', ratio: 3.4, tests: 40, runs: 12 });
    expect(describeCalibration(linux.calibration, linux.target)).toBe(
      'auto: CI linux runs 3.4x slower than here, 95% CI 3.1-3.7, from 40 tests in the last 12 runs',
    );
  });

  it('falls back to the default and says why', () => {
    const none = decideAutoSlowdown([], null, 2);
    expect(none).toMatchObject({ target: 2, calibration: { source: 'default', ratio: null } });
    expect(describeCalibration(none.calibration, 2)).toBe(
      'auto: the default x2, no CI run in history (runs with CI context)',
    );
    const missing = decideAutoSlowdown([estimated('linux', 3)], 'windows', 2);
    expect(missing.calibration.reason).toBe('no CI run of windows in history (platforms in history: linux)');
    const refused: CiSpeed = {
      kind: 'refused',
      platform: 'linux',
      reason: '3 tests ...',
      tests: 3,
      runs: 4,
      localRuns: 1,
    };
    expect(decideAutoSlowdown([refused], null, 2).calibration).toMatchObject({
      source: 'default',
      reason: '3 tests ...',
      tests: 3,
    });
  });

  it('never speeds up and stays within the largest factor', () => {
    expect(targetForRatio(0.6)).toBe(1);
    expect(targetForRatio(3.04)).toBe(3);
    expect(targetForRatio(99)).toBe(32);
    const fast = decideAutoSlowdown([estimated('linux', 0.6)], null, 2);
    expect(describeCalibration(fast.calibration, fast.target)).toBe(
      'auto: CI linux runs faster than here (0.6x the time), 95% CI 0.5-0.7, from 40 tests in the last 12 runs, judged at x1',
    );
  });

  it('puts a factor here in CI terms', () => {
    const { calibration } = decideAutoSlowdown([estimated('linux', 3.4)], null, 2);
    expect(onCi(8, calibration)).toBe('x8 here = x2.4 on CI linux');
    expect(onCi(8, decideAutoSlowdown([], null, 2).calibration)).toBeNull();
  });
});
