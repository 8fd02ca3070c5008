/**
 * Validate before work (issue 19, class 5): the settings a command reads from outside its flags and
 * flakeguard.yaml (today the environment's FLAKEGUARD_HISTORY_URL) are checked here, once, right
 * after the config is loaded and before the command starts anything: a bad value stops the command
 * with exit 2 and one line naming it, never after minutes of tries. Flags are checked by each
 * command's argument step, flakeguard.yaml by loadConfig; numbers, durations and ages have bounds
 * there (core/duration.ts, core/history/history-age.ts, core/calendar.ts).
 */
import type { Config } from '../core/config.js';
import { type HistoryTarget, resolveHistoryTarget } from './history/history-store.js';
import { resolveProjectPlaces } from './places/project-places.js';

export interface CheckedSettings {
  /** The history store the command will use, or null when history is off. */
  readonly history: HistoryTarget | null;
}

/** Throws a FlakeguardError (exit 2) on the first bad setting; returns what was resolved. */
export function checkSettings(
  root: string,
  config: Config,
  env: Readonly<Record<string, string | undefined>> = process.env,
): CheckedSettings {
  return { history: resolveHistoryTarget(resolveProjectPlaces(root, config, env), config.history, env) };
}
