/**
 * `flakeguard history`'s CI speeds: each CI platform's speed relative to this machine (the same
 * estimate `gate.slowdown: auto` uses) and its trend, the older half of its newest runs against the
 * newer half. A trend is called only when the two halves' 95% intervals do not overlap: "a CI that
 * got 30% slower in a month" is a finding, the noise of a few runs is not. Pure.
 */
import { describeRatio } from './calibration-phrases.js';
import { type CalibrationSample, describeLocalRuns, type LocalRuns, noLocalRunsReason } from './calibration-runs.js';
import { type CiSpeed, type CiSpeedEstimate, compareCiSpeed, summarizeHere, tabulateDurations } from './ci-speed.js';

/** Runs each half needs for a trend. */
const TREND_HALF_RUNS = 2;

interface CiSpeedTrend {
  /** The older and newer halves' estimates (CI / here). */
  readonly older: number;
  readonly newer: number;
  /** newer / older - 1. */
  readonly change: number;
  /** slower / faster: the halves' intervals do not overlap; steady: they do. */
  readonly direction: 'slower' | 'faster' | 'steady';
}

export interface CiPlatformSpeed {
  readonly speed: CiSpeed;
  /** null when a half has too few runs or no estimate. */
  readonly trend: CiSpeedTrend | null;
  /** The runs here it was measured against: this machine's, else its class's. */
  readonly local: LocalRuns;
}

function trendOf(older: CiSpeed, newer: CiSpeed): CiSpeedTrend | null {
  if (older.kind !== 'estimated' || newer.kind !== 'estimated') return null;
  const direction =
    newer.interval[0] > older.interval[1] ? 'slower' : newer.interval[1] < older.interval[0] ? 'faster' : 'steady';
  return { older: older.ratio, newer: newer.ratio, change: newer.ratio / older.ratio - 1, direction };
}

/** Every CI platform in the sample, by label, with its trend. */
export function computeCiSpeedReport(sample: CalibrationSample): CiPlatformSpeed[] {
  const here = summarizeHere(sample.local);
  const none = noLocalRunsReason(sample.here);
  return [...sample.platforms]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([label, runs]) => {
      const local = sample.here;
      const table = tabulateDurations(runs);
      const speed = compareCiSpeed(label, table, here, none);
      const half = Math.floor(runs.length / 2);
      if (half < TREND_HALF_RUNS) return { speed, trend: null, local };
      // Runs come newest first.
      const newer = compareCiSpeed(label, table, here, none, 0, half);
      const older = compareCiSpeed(label, table, here, none, runs.length - half, runs.length);
      return { speed, trend: trendOf(older, newer), local };
    });
}

const x = (n: number): string => n.toFixed(1);

function describeSpeed(e: CiSpeedEstimate): string {
  return `${describeRatio(e.ratio)} (95% CI ${x(e.interval[0])}-${x(e.interval[1])}, ${e.tests} tests, last ${e.runs} run${e.runs === 1 ? '' : 's'})`;
}

function describeTrend(p: CiPlatformSpeed): string {
  const t = p.trend;
  if (t === null) return p.speed.runs < 2 * TREND_HALF_RUNS ? `; trend: needs ${2 * TREND_HALF_RUNS} runs` : '';
  const pct = `${t.change >= 0 ? '+' : ''}${Math.round(t.change * 100)}%`;
  const verdict = t.direction === 'steady' ? 'steady (the halves’ intervals overlap)' : `got ${t.direction}`;
  return `; trend: ${x(t.older)}x -> ${x(t.newer)}x (${pct}) from the older half of the runs to the newer: ${verdict}`;
}

/** The text section, or '' when history has no CI run. */
export function formatCiSpeedReport(platforms: readonly CiPlatformSpeed[]): string {
  const first = platforms[0];
  if (first === undefined) return '';
  const lines = ['', `CI speed relative to this machine (here: ${describeLocalRuns(first.local)}; docs/history.md):`];
  for (const p of platforms)
    lines.push(
      p.speed.kind === 'estimated'
        ? `  ${p.speed.platform}: ${describeSpeed(p.speed)}${describeTrend(p)}`
        : `  ${p.speed.platform}: no estimate: ${p.speed.reason}`,
    );
  return `${lines.join('\n')}\n`;
}

/** One platform's CI speed as `history --json` writes it: `ratio` null with `reason` when there is no estimate. */
export interface CiSpeedJson {
  readonly platform: string;
  readonly ratio: number | null;
  readonly interval?: readonly [number, number];
  readonly reason?: string;
  readonly tests: number;
  readonly runs: number;
  readonly localRuns: number;
  readonly local: LocalRuns;
  readonly trend: CiSpeedTrend | null;
}

/** The JSON form (`ciSpeed` in `history --json`). */
export function toCiSpeedJson(platforms: readonly CiPlatformSpeed[]): CiSpeedJson[] {
  return platforms.map(({ speed, trend, local }) =>
    speed.kind === 'estimated'
      ? {
          platform: speed.platform,
          ratio: speed.ratio,
          interval: speed.interval,
          tests: speed.tests,
          runs: speed.runs,
          localRuns: speed.localRuns,
          local,
          trend,
        }
      : {
          platform: speed.platform,
          ratio: null,
          reason: speed.reason,
          tests: speed.tests,
          runs: speed.runs,
          localRuns: speed.localRuns,
          local,
          trend: null,
        },
  );
}
