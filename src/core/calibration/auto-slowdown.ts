/**
 * `gate.slowdown: auto`: the gate judges at the factor CI runs at relative to this machine, the
 * median of the per-test ratios (core/calibration/ci-speed.ts) of the platform asked for with
 * --platform, else of the slowest platform with an estimate. The median, not a high percentile of
 * runs: the gate already tries the tests that hold at 2x and 4x the reference to find where they
 * break, and a median from 20 tests or more is stable from one day to the next where a p90 of 30
 * runs is not. Too little in common falls back to the fixed default, saying why. Pure.
 */
import { MAX_SLOWDOWN } from '../slowdown-factor.js';
import type { LocalRuns } from './calibration-runs.js';
import type { CiSpeed, CiSpeedEstimate } from './ci-speed.js';

/** How the target factor was chosen: `contention.calibration` in the gate's JSON. */
export interface Calibration {
  /** history: from the CI speed estimate; default: the fixed default, `reason` says why. */
  readonly source: 'history' | 'default';
  readonly platform: string | null;
  /** CI duration / duration here (median of the tests in common), or null without an estimate. */
  readonly ratio: number | null;
  readonly interval: readonly [number, number] | null;
  readonly tests: number;
  /** CI runs of the platform the ratios came from. */
  readonly runs: number;
  /** Why the default was used (null for source history). */
  readonly reason: string | null;
  /** The runs here compared with CI: this machine's, else its class's (absent when history was not read). */
  readonly local?: LocalRuns;
}

export interface AutoSlowdown {
  readonly target: number;
  readonly calibration: Calibration;
}

/** The factor the gate runs at for a ratio: at least 1 (no speed-up), at most MAX_SLOWDOWN, to 0.1. */
export function targetForRatio(ratio: number): number {
  return Math.min(MAX_SLOWDOWN, Math.max(1, Math.round(ratio * 10) / 10));
}

function fallback(fallbackTarget: number, reason: string, speed: CiSpeed | null): AutoSlowdown {
  return {
    target: fallbackTarget,
    calibration: {
      source: 'default',
      platform: speed?.platform ?? null,
      ratio: null,
      interval: null,
      tests: speed?.tests ?? 0,
      runs: speed?.runs ?? 0,
      reason,
    },
  };
}

function fromEstimate(e: CiSpeedEstimate): AutoSlowdown {
  const { platform, ratio, interval, tests, runs } = e;
  return {
    target: targetForRatio(ratio),
    calibration: { source: 'history', platform, ratio, interval, tests, runs, reason: null },
  };
}

/**
 * The target factor from the platforms' speeds (`asked`: --platform, or null for the slowest), with
 * the runs here they were measured against (`local`, kept in the calibration when given).
 */
export function decideAutoSlowdown(
  speeds: readonly CiSpeed[],
  asked: string | null,
  fallbackTarget: number,
  local: LocalRuns | null = null,
): AutoSlowdown {
  const auto = chooseAutoSlowdown(speeds, asked, fallbackTarget);
  return local === null ? auto : { ...auto, calibration: { ...auto.calibration, local } };
}

function chooseAutoSlowdown(speeds: readonly CiSpeed[], asked: string | null, fallbackTarget: number): AutoSlowdown {
  const names = speeds.map((s) => s.platform).join(', ');
  if (asked !== null) {
    const speed = speeds.find((s) => s.platform.toLowerCase() === asked.trim().toLowerCase());
    if (speed === undefined)
      return fallback(
        fallbackTarget,
        `no CI run of ${asked} in history${names === '' ? '' : ` (platforms in history: ${names})`}`,
        null,
      );
    return speed.kind === 'estimated' ? fromEstimate(speed) : fallback(fallbackTarget, speed.reason, speed);
  }
  const estimates = speeds.filter((s): s is CiSpeedEstimate => s.kind === 'estimated');
  const slowest = estimates.sort((a, b) => b.ratio - a.ratio)[0];
  if (slowest !== undefined) return fromEstimate(slowest);
  const first = speeds[0];
  if (first === undefined) return fallback(fallbackTarget, 'no CI run in history (runs with CI context)', null);
  return fallback(fallbackTarget, first.kind === 'refused' ? first.reason : '', first);
}
