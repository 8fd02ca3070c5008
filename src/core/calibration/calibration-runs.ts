/**
 * Which runs calibrate which CI platform: a CI run belongs to its platform label (the runner's OS,
 * lower-cased, as GitHub Actions' RUNNER_OS or Azure's AGENT_OS give it; else the CI job's name;
 * else the provider), a run with no CI context and no CI job, on this machine's OS, is a run here.
 * Each side keeps its newest runs only, so a CI that changed runners last month is measured as it
 * is now. Pure.
 */
import type { CiContext } from '../record/ci-context.js';
import { type CiSpeed, estimateCiSpeed, type SpeedRun } from './ci-speed.js';

/** How many of the newest runs, per CI platform and here, the ratios come from. */
export const CALIBRATION_RUNS = 30;

/** What picks a run: where and when it ran (its durations are read for the picked runs only). */
export interface CalibrationRunMeta {
  readonly runId: string;
  /** ISO time the run started. */
  readonly startedAt: string;
  /** process.platform of the run. */
  readonly platform: string;
  readonly ci: CiContext | null;
  /** The CI job label the store kept (ingest-time guesses included), or null. */
  readonly job: string | null;
}

export type CalibrationRunRow = CalibrationRunMeta & SpeedRun;

export interface CalibrationSample<R = SpeedRun> {
  /** Runs here, newest first. */
  readonly local: readonly R[];
  /** Per CI platform label, its runs newest first. */
  readonly platforms: ReadonlyMap<string, readonly R[]>;
}

/** The label a CI run is grouped under: `linux`, `windows`, `macos`, else the job, else the provider. */
export function ciPlatformLabel(ci: CiContext): string {
  return ci.runnerOs?.trim().toLowerCase() || ci.job?.trim() || ci.provider;
}

const newestFirst = (a: CalibrationRunMeta, b: CalibrationRunMeta): number =>
  a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0;

/** The newest `newest` runs here (on `here`, the OS this machine runs) and per CI platform. */
export function sampleCalibrationRuns<R extends CalibrationRunMeta>(
  rows: readonly R[],
  here: string,
  newest = CALIBRATION_RUNS,
): CalibrationSample<R> {
  const sorted = [...rows].sort(newestFirst);
  const local = sorted.filter((r) => r.ci === null && r.job === null && r.platform === here).slice(0, newest);
  const platforms = new Map<string, R[]>();
  for (const r of sorted) {
    if (r.ci === null) continue;
    const label = ciPlatformLabel(r.ci);
    const list: R[] = platforms.get(label) ?? [];
    if (list.length < newest) list.push(r);
    platforms.set(label, list);
  }
  return { local, platforms };
}

/** Every CI platform's speed relative to here, by label. */
export function estimateCiSpeeds(sample: CalibrationSample): CiSpeed[] {
  return [...sample.platforms]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([label, runs]) => estimateCiSpeed(label, runs, sample.local));
}
