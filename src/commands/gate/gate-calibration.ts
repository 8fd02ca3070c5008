/**
 * `--slowdown auto` / `gate.slowdown: auto` (issue 27): the target factor from how much slower the
 * team's CI runs the suite than this machine, read from the history store before any try. History
 * is evidence, never a reason for the gate not to run: no store, a store that cannot be read or
 * too little in common is the fixed default, and the step line and the report say which and why.
 */
import { type AutoSlowdown, decideAutoSlowdown } from '../../core/calibration/auto-slowdown.js';
import { describeCalibration } from '../../core/calibration/calibration-phrases.js';
import { estimateCiSpeeds } from '../../core/calibration/calibration-runs.js';
import { FlakeguardError } from '../../core/errors.js';
import { DEFAULT_SLOWDOWN } from '../../core/gate/gate-config.js';
import type { HistoryTarget } from '../../io/history/history-store.js';

export interface SlowdownAsked {
  /** --slowdown, else gate.slowdown. */
  readonly slowdown: number | 'auto';
  /** --platform. */
  readonly platform: string | null;
  /** The history store checkSettings resolved (null: history is off). */
  readonly history: HistoryTarget | null;
  /** The OS this machine runs (process.platform). */
  readonly here: string;
}

/** --platform only goes with auto: checked before anything runs. */
export function checkPlatformOption(slowdown: number | 'auto', platform: string | null): void {
  if (platform !== null && slowdown !== 'auto')
    throw new FlakeguardError(
      'USAGE',
      `--platform "${platform}" picks the CI platform for --slowdown auto, but the slowdown is x${slowdown}; pass --slowdown auto (or set gate.slowdown: auto) or drop --platform; see flakeguard gate --help`,
    );
}

/** The target factor, and with auto how it was chosen (null for a number asked for). */
export async function resolveGateSlowdown(
  asked: SlowdownAsked,
  step: (text: string) => void,
): Promise<{ readonly target: number; readonly calibration: AutoSlowdown['calibration'] | null }> {
  if (asked.slowdown !== 'auto') return { target: asked.slowdown, calibration: null };
  const auto = await calibrate(asked);
  step(`contention: target x${auto.target} (${describeCalibration(auto.calibration, auto.target)})`);
  return auto;
}

async function calibrate(asked: SlowdownAsked): Promise<AutoSlowdown> {
  const fallback = (reason: string): AutoSlowdown => ({
    target: DEFAULT_SLOWDOWN,
    calibration: { source: 'default', platform: null, ratio: null, interval: null, tests: 0, runs: 0, reason },
  });
  if (asked.history === null)
    return fallback('history is off (turn it on with history: true in flakeguard.yaml, and let CI store its runs)');
  const { openHistoryStore, describeTarget } = await import('../../io/history/history-store.js');
  try {
    const { readCalibrationSample } = await import('../../io/history/ci-speed-read.js');
    const store = await openHistoryStore(asked.history, { mustExist: true, wait: 'test-run' });
    try {
      const { readMachineIdentity } = await import('../../io/machine.js');
      const sample = await readCalibrationSample(store, { platform: asked.here, machine: readMachineIdentity() });
      return decideAutoSlowdown(estimateCiSpeeds(sample), asked.platform, DEFAULT_SLOWDOWN, sample.here);
    } finally {
      await store.close();
    }
  } catch (error) {
    return fallback(
      `history not read from ${describeTarget(asked.history)}: ${(error as Error).message.split('\n')[0] ?? ''}`,
    );
  }
}
