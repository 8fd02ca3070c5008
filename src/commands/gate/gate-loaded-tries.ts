/**
 * The gate's first phase: cold tries at the reference slowdown and under load (every target, each
 * try a fresh worker running the test's file: `tries` tries, then more up to `maxTries` while the
 * time budget lasts). The load starts before Vitest, so its workers start under it, and always
 * stops (finally).
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

export async function runLoadedTries(phase: GatePhase, targets: readonly GateTarget[]): Promise<LoadedTries> {
  const { options, progress } = phase;
  let loadSummary: LoadSummary | null = null;
  let outcome: TriesOutcome;
  const load = options.workers > 0 ? startLoadWorkers(options.workers) : null;
  if (load) options.onStep(`load: started ${plural(options.workers, 'busy worker')} (pids ${load.pids.join(', ')})`);
  const loaded = load !== null || options.slowdown > 1;
  const asked = `${options.slowdown > 1 ? ` at x${options.slowdown}` : ''}${load ? ' under load' : ''}`;
  try {
    options.onStep(
      `run: ${plural(targets.length, 'test')}, ${options.tries} to ${Math.max(options.tries, options.maxTries)} cold tries each (each a fresh worker running its file)${asked}`,
    );
    outcome = await runTestsRepeatedly({
      root: options.root,
      setup: options.setup,
      tests: targets,
      tries: options.tries,
      maxTries: options.maxTries,
      budgetMs: options.slowdown > 1 ? options.timeBudgetMs * 0.6 : options.timeBudgetMs,
      slowdown: options.slowdown,
      deadline: options.deadline,
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
