import { describe, expect, it } from 'vitest';
import { decideAutoSlowdown, targetForRatio } from '../../../src/core/calibration/auto-slowdown.js';
import { describeCalibration, onCi } from '../../../src/core/calibration/calibration-phrases.js';
import {
  type CalibrationRunRow,
  ciPlatformLabel,
  describeLocalRuns,
  estimateCiSpeeds,
  type Here,
  sampleCalibrationRuns,
} from '../../../src/core/calibration/calibration-runs.js';
import type { CiSpeed } from '../../../src/core/calibration/ci-speed.js';
import type { CiContext } from '../../../src/core/record/ci-context.js';
import type { MachineIdentity } from '../../../src/core/record/machine.js';

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

const THIS: MachineIdentity = { id: 'aaaaaaaaaaaa', cpuModel: 'Example CPU @ 3.00GHz', cores: 8 };
/** Another machine of this machine's class. */
const TWIN: MachineIdentity = { ...THIS, id: 'bbbbbbbbbbbb' };
/** A machine of another class: same CPU, fewer cores. */
const SMALL: MachineIdentity = { ...THIS, id: 'cccccccccccc', cores: 4 };
const HERE: Here = { platform: 'linux', machine: THIS };

const row = (
  id: string,
  hour: number,
  context: CiContext | null,
  scale: number,
  platform = 'linux',
  machine: MachineIdentity | null = context === null ? THIS : null,
): CalibrationRunRow => ({
  runId: id,
  startedAt: new Date(Date.UTC(2026, 10, 1, hour)).toISOString(),
  platform,
  ci: context,
  job: null,
  machine,
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
    const sample = sampleCalibrationRuns(rows, HERE, 2);
    expect(sample.local.map((r) => r.runId)).toEqual(['here']);
    expect(sample.here).toEqual({ match: 'machine', machine: THIS, runs: 1, machines: 1, others: 0 });
    expect(sample.platforms.get('linux')?.map((r) => r.runId)).toEqual(['newer', 'new']);
    const speeds = estimateCiSpeeds(sample);
    expect(speeds.map((s) => [s.platform, s.kind === 'estimated' ? s.ratio : null])).toEqual([
      ['linux', 3],
      ['windows', 5],
    ]);
  });
});

describe('runs here: this machine, else its class, else none (issue 37)', () => {
  const ciRuns = [row('ci-1', 1, ci('Linux'), 3), row('ci-2', 2, ci('Linux'), 3)];

  it("compares CI with this machine's runs only, leaving out other machines' and unidentified runs", () => {
    const rows = [
      ...ciRuns,
      row('mine', 3, null, 1),
      row('twin', 4, null, 2, 'linux', TWIN),
      row('small', 5, null, 4, 'linux', SMALL),
      row('before-ids', 6, null, 5, 'linux', null),
    ];
    const sample = sampleCalibrationRuns(rows, HERE);
    expect(sample.local.map((r) => r.runId)).toEqual(['mine']);
    expect(sample.here).toEqual({ match: 'machine', machine: THIS, runs: 1, machines: 1, others: 3 });
    const [linux] = estimateCiSpeeds(sample);
    expect(linux?.kind === 'estimated' ? linux.ratio : null).toBe(3);
    expect(describeLocalRuns(sample.here)).toBe('1 run of this machine aaaaaaaaaaaa');
  });

  it("falls back to machines of this machine's class (same CPU model and core count) when it has none", () => {
    const rows = [
      ...ciRuns,
      row('twin', 4, null, 2, 'linux', TWIN),
      row('twin-2', 5, null, 2, 'linux', { ...TWIN, id: 'dddddddddddd' }),
      row('small', 6, null, 4, 'linux', SMALL),
    ];
    const sample = sampleCalibrationRuns(rows, HERE);
    expect(sample.local.map((r) => r.runId)).toEqual(['twin-2', 'twin']);
    expect(sample.here).toMatchObject({ match: 'class', runs: 2, machines: 2, others: 1 });
    const [linux] = estimateCiSpeeds(sample);
    expect(linux?.kind === 'estimated' ? linux.ratio : null).toBe(1.5);
    expect(describeLocalRuns(sample.here)).toBe(
      "2 runs of 2 machines of this machine's class (Example CPU @ 3.00GHz, 8 cores; none of this machine aaaaaaaaaaaa)",
    );
  });

  it('says so and falls back to the default when neither this machine nor its class has a run', () => {
    const rows = [...ciRuns, row('small', 6, null, 4, 'linux', SMALL), row('before-ids', 7, null, 5, 'linux', null)];
    const sample = sampleCalibrationRuns(rows, HERE);
    expect(sample.local).toEqual([]);
    expect(sample.here).toMatchObject({ match: 'none', runs: 0, machines: 0, others: 2 });
    const auto = decideAutoSlowdown(estimateCiSpeeds(sample), null, 2, sample.here);
    expect(auto.target).toBe(2);
    expect(auto.calibration.local).toEqual(sample.here);
    expect(describeCalibration(auto.calibration, auto.target)).toBe(
      'auto: the default x2, no run of this machine (aaaaaaaaaaaa (Example CPU @ 3.00GHz, 8 cores)) or of its class in history (2 local runs of other machines or with no machine recorded not compared); run the suite here once with history on',
    );
  });

  it('says which runs an estimate came from', () => {
    const sample = sampleCalibrationRuns([...ciRuns, row('mine', 3, null, 1)], HERE);
    const auto = decideAutoSlowdown(estimateCiSpeeds(sample), null, 2, sample.here);
    expect(describeCalibration(auto.calibration, auto.target)).toBe(
      'auto: CI linux runs 3.0x slower than here, 95% CI 3.0-3.0, from 25 tests in the last 2 runs, against 1 run of this machine aaaaaaaaaaaa',
    );
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
