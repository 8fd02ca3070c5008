/**
 * The gate's tries at the reference slowdown and under load: first `--tries` cold tries of every
 * target (a must-have check: each try a fresh worker running the test's file), later, once every
 * must-have check is made, extra tries up to `--max-tries` for the tests whose verdict can still
 * change, while the time budget lasts (a nice-to-have). The load starts before Vitest, so its
 * workers start under it, and always stops (finally).
 */
import { plural } from '../../core/budget/budget-text.js';
import { interruptedError } from '../../core/errors.js';
import { describeFactor } from '../../core/gate/pacer.js';
import { type LoadSummary, startLoadWorkers } from '../../io/load/load-workers.js';
import { runTestsRepeatedly, type TriesOutcome } from '../../io/vitest/vitest-tries.js';
import type { GatePhase } from './gate-run-options.js';
import type { GateTarget } from './gate-targets.js';

export interface LoadedTries {
  readonly outcome: TriesOutcome;
  /** The load workers' figures, or null when none ran. */
  readonly loadSummary: LoadSummary | null;
  /** True when the tries ran slowed down or under load: a test that failed them all gets tries without. */
  readonly loaded: boolean;
  /** How they ran, as the verdicts say it (' at x2 under load', ' at asked x2, tries got x2.6', or ''): the measured factor. */
  readonly condition: string;
}

/** Which reference tries a call makes: the first `--tries` of every target, or the extra ones. */
export interface ReferenceWave {
  /** Tries every target of the call gets. */
  readonly tries: number;
  /** Tries a target may get while `budgetMs` lasts (at least `tries`). */
  readonly maxTries: number;
  /** Wall time the tries beyond `tries` may take. */
  readonly budgetMs: number;
  /** How the step line says it. */
  readonly what: string;
  /** The tries beyond `tries` as warm repeats (core/gate/warm-schedule.ts). */
  readonly warm?: boolean;
  /** Cold tries of every target before the warm waves (default `tries`): the rest of `tries` warm where cheap. */
  readonly coldTries?: number;
}

export async function runLoadedTries(
  phase: GatePhase,
  targets: readonly GateTarget[],
  wave: ReferenceWave,
): Promise<LoadedTries> {
  const { options, progress } = phase;
  let loadSummary: LoadSummary | null = null;
  let outcome: TriesOutcome;
  const load = options.workers > 0 ? startLoadWorkers(options.workers) : null;
  if (load) options.onStep(`load: started ${plural(options.workers, 'busy worker')} (pids ${load.pids.join(', ')})`);
  const loaded = load !== null || options.slowdown > 1;
  const asked = `${options.slowdown > 1 ? ` at x${options.slowdown}` : ''}${load ? ' under load' : ''}`;
  try {
    options.onStep(`run: ${plural(targets.length, 'test')}, ${wave.what}${asked}`);
    outcome = await runTestsRepeatedly({
      root: options.root,
      setup: options.setup,
      session: options.session,
      tests: targets,
      tries: wave.tries,
      maxTries: wave.maxTries,
      budgetMs: wave.budgetMs,
      warm: wave.warm ?? false,
      ...(wave.coldTries === undefined ? {} : { coldTries: wave.coldTries }),
      slowdown: options.slowdown,
      busyWorkers: options.workers,
      deadline: phase.deadline(),
      signal: options.signal,
      onProgress: progress(loaded ? asked.trim() : 'tries'),
    });
  } finally {
    if (load) {
      loadSummary = await load.stop();
      options.onStep(`load: stopped ${plural(loadSummary.workers, 'worker')}`);
    }
  }
  if (options.signal.aborted) throw interruptedError('the tries and the load were');
  const got = options.slowdown > 1 ? ` at ${describeFactor(options.slowdown, outcome.pace.factor)}` : '';
  return { outcome, loadSummary, loaded, condition: `${got}${load ? ' under load' : ''}` };
}
