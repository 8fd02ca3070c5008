/**
 * Which runs calibrate which CI platform: a CI run belongs to its platform label (the runner's OS,
 * lower-cased, as GitHub Actions' RUNNER_OS or Azure's AGENT_OS give it; else the CI job's name;
 * else the provider). "Here" is this machine (issue 37): a store a team shares holds local runs of
 * many laptops and agents, and CI against their average is CI against no machine in particular. So
 * the runs here are the runs with no CI context and no CI job, on this machine's OS, of this machine
 * (its id, core/record/machine.ts); when it has none, those of machines of its class (same CPU model
 * and core count: about its speed); when there are none either, none, and the estimate says so. Runs
 * stored without a machine (records written before it) are never "here". Each side keeps its newest
 * runs only, so a CI that changed runners last month is measured as it is now. Pure.
 */
import type { CiContext } from '../record/ci-context.js';
import { describeMachine, describeMachineClass, type MachineIdentity, sameMachineClass } from '../record/machine.js';
import { type CiSpeed, compareCiSpeed, type SpeedRun, summarizeHere, tabulateDurations } from './ci-speed.js';

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
  /** The machine it ran on; null for a run stored before machines were recorded. */
  readonly machine: MachineIdentity | null;
}

/** This machine: its OS (process.platform) and identity. */
export interface Here {
  readonly platform: string;
  readonly machine: MachineIdentity;
}

/** Which local runs were compared with CI: `contention.calibration.local` in the gate's JSON. */
export interface LocalRuns {
  /** machine: this machine's runs; class: none of its own, its class's; none: neither. */
  readonly match: 'machine' | 'class' | 'none';
  /** This machine. */
  readonly machine: MachineIdentity;
  /** Runs compared (the newest, at most CALIBRATION_RUNS). */
  readonly runs: number;
  /** Distinct machines among them. */
  readonly machines: number;
  /** Local runs on this OS not compared: of other machines, of another class, or with no machine recorded. */
  readonly others: number;
}

export type CalibrationRunRow = CalibrationRunMeta & SpeedRun;

export interface CalibrationSample<R = SpeedRun> {
  /** Runs here, newest first. */
  readonly local: readonly R[];
  /** Which they are. */
  readonly here: LocalRuns;
  /** Per CI platform label, its runs newest first. */
  readonly platforms: ReadonlyMap<string, readonly R[]>;
}

/** The label a CI run is grouped under: `linux`, `windows`, `macos`, else the job, else the provider. */
export function ciPlatformLabel(ci: CiContext): string {
  return ci.runnerOs?.trim().toLowerCase() || ci.job?.trim() || ci.provider;
}

const newestFirst = (a: CalibrationRunMeta, b: CalibrationRunMeta): number =>
  a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0;

/** Runs of this machine, else of its class, else none: the newest `newest` of them and what they are. */
function pickLocalRuns<R extends CalibrationRunMeta>(
  sorted: readonly R[],
  here: Here,
  newest: number,
): { runs: R[]; here: LocalRuns } {
  const candidates = sorted.filter((r) => r.ci === null && r.job === null && r.platform === here.platform);
  const own = candidates.filter((r) => r.machine?.id === here.machine.id);
  const kin = candidates.filter((r) => r.machine !== null && sameMachineClass(r.machine, here.machine));
  const [match, picked] =
    own.length > 0 ? (['machine', own] as const) : kin.length > 0 ? (['class', kin] as const) : (['none', []] as const);
  const runs = picked.slice(0, newest);
  const machines = new Set(runs.map((r) => r.machine?.id)).size;
  return {
    runs,
    here: { match, machine: here.machine, runs: runs.length, machines, others: candidates.length - picked.length },
  };
}

/** The newest `newest` runs here (this machine, else its class) and per CI platform. */
export function sampleCalibrationRuns<R extends CalibrationRunMeta>(
  rows: readonly R[],
  here: Here,
  newest = CALIBRATION_RUNS,
): CalibrationSample<R> {
  const sorted = [...rows].sort(newestFirst);
  const local = pickLocalRuns(sorted, here, newest);
  const platforms = new Map<string, R[]>();
  for (const r of sorted) {
    if (r.ci === null) continue;
    const label = ciPlatformLabel(r.ci);
    const list: R[] = platforms.get(label) ?? [];
    if (list.length < newest) list.push(r);
    platforms.set(label, list);
  }
  return { local: local.runs, here: local.here, platforms };
}

/** Every CI platform's speed relative to here, by label. */
export function estimateCiSpeeds(sample: CalibrationSample): CiSpeed[] {
  const here = summarizeHere(sample.local);
  return [...sample.platforms]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([label, runs]) => compareCiSpeed(label, tabulateDurations(runs), here, noLocalRunsReason(sample.here)));
}

/** Why there is nothing to compare CI with here: no run of this machine or of its class. */
export function noLocalRunsReason(here: LocalRuns): string {
  const others =
    here.others === 0
      ? ''
      : ` (${here.others} local run${here.others === 1 ? '' : 's'} of other machines or with no machine recorded not compared)`;
  return `no run of this machine (${describeMachine(here.machine)}) or of its class in history${others}; run the suite here once with history on`;
}

/** `12 runs of this machine 3f9a1c2b7d10`, `8 runs of 2 machines of this machine's class (Intel..., 8 cores)`. */
export function describeLocalRuns(here: LocalRuns): string {
  const runs = `${here.runs} run${here.runs === 1 ? '' : 's'}`;
  switch (here.match) {
    case 'machine':
      return `${runs} of this machine ${here.machine.id}`;
    case 'class':
      return `${runs} of ${here.machines} machine${here.machines === 1 ? '' : 's'} of this machine's class (${describeMachineClass(here.machine)}; none of this machine ${here.machine.id})`;
    case 'none':
      return `no run of this machine ${here.machine.id} or of its class (${describeMachineClass(here.machine)})`;
    default: {
      const never: never = here.match;
      return never;
    }
  }
}
