/**
 * The gate's runs, in order (each phase in its own file): cold tries at the reference slowdown and
 * under load (gate-loaded-tries.ts), where the tests that held break above it (gate-escalate.ts),
 * cold tries without load for tests that failed a loaded try (gate-idle-tries.ts), and each
 * passing new test once alone, twice more when that failed (gate-alone-tries.ts); then each
 * test's verdict (gate-verdicts.ts). The Vitest processes are killed on abort.
 */

import type { GateLoad } from '../../core/gate/gate-report.js';
import type { GateTestInput } from '../../core/gate/gate-report-test.js';
import type { ProgressLine } from '../../core/gate/runner-protocol.js';
import {
  type Contention,
  decideContention,
  describeAmbientExcess,
  describeShortfall,
} from '../../core/gate/slowdown.js';
import { probeAmbientSlowdown } from '../../io/load/schedstat.js';
import { runAloneTries } from './gate-alone-tries.js';
import { escalateHeldTests } from './gate-escalate.js';
import { runIdleTries } from './gate-idle-tries.js';
import { runLoadedTries } from './gate-loaded-tries.js';
import type { GatePhase, GateRunOptions } from './gate-run-options.js';
import { gatherRunNotices, measureAchievedSlowdown, summarizeGateLoad, sumTryTimes } from './gate-run-summary.js';
import { expandTargets, findTries, targetKey } from './gate-targets.js';
import { decideTargetVerdicts } from './gate-verdicts.js';

export interface GateRunResult {
  readonly tests: readonly GateTestInput[];
  readonly load: GateLoad;
  readonly contention: Contention & { readonly achieved: number | null };
  readonly vitestVersion: string | null;
  readonly notices: readonly string[];
  /** Sum of the loaded tries' own durations, and the loaded phase's wall time (bench/gate-overhead.mjs). */
  readonly triesMs: number;
  readonly loadedWallMs: number;
}

/** The machine's own slowdown, measured before anything of ours runs: the stops add only the rest. */
function measureContention(options: GateRunOptions): Contention {
  const contention = decideContention(options.slowdown, probeAmbientSlowdown(), options.workers);
  const excess = describeAmbientExcess(contention);
  if (excess) options.onStep(`warning: ${excess}`);
  options.onStep(
    `contention: target x${contention.target}, measured ambient ${contention.ambient === null ? 'unknown (no /proc schedstat)' : `x${contention.ambient}`}, method ${contention.method}`,
  );
  return contention;
}

export async function runGate(options: GateRunOptions): Promise<GateRunResult> {
  const targets = expandTargets(options.selected, options.projectsOf);
  const index = new Map(targets.map((t, i) => [targetKey(t), i + 1]));
  const phase: GatePhase = {
    options,
    progress: (name: string) => (line: ProgressLine) => options.onProgress(name, line, index.get(targetKey(line)) ?? 0),
    inTime: () => performance.now() < options.deadline,
  };
  const contention = measureContention(options);
  const main = await runLoadedTries(phase, targets, contention);
  const triesOf = new Map(targets.map((t) => [t, findTries(t, main.outcome)]));
  const higher = await escalateHeldTests(phase, targets, triesOf, contention);
  const idle = await runIdleTries(phase, targets, triesOf, main.loaded);
  const alone = await runAloneTries(phase, targets, triesOf);
  const outcomes = [main.outcome, idle, alone.alone, alone.again];
  const cut = outcomes.some((o) => o?.cutShort === 'deadline') || !phase.inTime();
  const tests = decideTargetVerdicts(options, targets, {
    main,
    triesOf,
    higher,
    idle,
    alone,
    reference: contention.reference,
    cut,
  });
  const times = sumTryTimes(triesOf);
  const load = summarizeGateLoad(options.workers, main.loadSummary, times);
  const achieved = measureAchievedSlowdown(triesOf);
  const slowdownShortfall = main.loaded ? describeShortfall(contention.reference, achieved) : null;
  return {
    tests,
    vitestVersion: main.outcome.vitestVersion,
    notices: gatherRunNotices({ cut, unhandledErrors: main.outcome.unhandledErrors, load, slowdownShortfall }),
    load,
    contention: { ...contention, achieved },
    triesMs: times.triesMs,
    loadedWallMs: main.outcome.wallMs,
  };
}
