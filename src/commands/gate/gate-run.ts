/**
 * The gate's phases, in order (each phase in its own file): cold tries at the reference slowdown and
 * under load (gate-loaded-tries.ts), where the tests that held break above it (gate-escalate.ts),
 * cold tries without load for tests that failed a loaded try (gate-idle-tries.ts), and each
 * passing new test once alone, twice more when that failed (gate-alone-tries.ts); then each
 * test's verdict (gate-verdicts.ts). The Vitest processes are killed on abort.
 */

import type { GateLoad } from '../../core/gate/gate-report.js';
import type { GateTestInput } from '../../core/gate/gate-report-test.js';
import type { ProgressLine } from '../../core/gate/runner-protocol.js';
import { type Contention, decideContention, describeShortfall, formatContention } from '../../core/gate/slowdown.js';
import { testKey } from '../../core/test-id.js';
import { targetKey } from '../../io/vitest/vitest-tries.js';
import { runAloneTries } from './gate-alone-tries.js';
import { escalateHeldTests } from './gate-escalate.js';
import { runIdleTries } from './gate-idle-tries.js';
import { runLoadedTries } from './gate-loaded-tries.js';
import type { GatePhase, GateRunOptions } from './gate-run-options.js';
import { gatherRunNotices, summarizeGateLoad, sumTryTimes } from './gate-run-summary.js';
import { expandTargets, findTries } from './gate-targets.js';
import { decideTargetVerdicts } from './gate-verdicts.js';

export interface GateRunResult {
  readonly tests: readonly GateTestInput[];
  readonly load: GateLoad;
  readonly contention: Contention;
  readonly vitestVersion: string | null;
  readonly notices: readonly string[];
  /** Sum of the loaded tries' own durations, and the loaded phase's wall time (bench/gate-overhead.mjs). */
  readonly triesMs: number;
  readonly loadedWallMs: number;
}

export async function runGate(options: GateRunOptions): Promise<GateRunResult> {
  const targets = expandTargets(options.selected, options.projectsOf);
  const index = new Map(targets.map((t, i) => [targetKey(t), i + 1]));
  const phase: GatePhase = {
    options,
    progress: (name: string) => (line: ProgressLine) => options.onProgress(name, line, index.get(testKey(line)) ?? 0),
    inTime: () => performance.now() < options.deadline,
  };
  const main = await runLoadedTries(phase, targets);
  const reference = { asked: options.slowdown, factor: main.outcome.pace.factor ?? options.slowdown };
  const triesOf = new Map(targets.map((t) => [t, findTries(t, main.outcome)]));
  const higher = await escalateHeldTests(phase, targets, triesOf);
  const idle = await runIdleTries(phase, targets, triesOf, main.loaded);
  const alone = await runAloneTries(phase, targets, triesOf);
  const outcomes = [main.outcome, idle, alone.alone, alone.again];
  const cut = outcomes.some((o) => o?.cutShort === 'deadline') || !phase.inTime();
  const tests = decideTargetVerdicts(options, targets, { main, triesOf, higher, idle, alone, reference, cut });
  const times = sumTryTimes(triesOf);
  const load = summarizeGateLoad(options.workers, main.loadSummary, times);
  const pace = main.outcome.pace;
  const contention = decideContention({
    target: options.slowdown,
    method: pace.method.kind,
    methodWhy: pace.method.why,
    weight: pace.method.weight,
    busyWorkers: options.workers,
    phases: [
      { phase: 'reference', asked: pace.asked, got: pace.factor },
      ...higher.phases,
      ...(idle ? [{ phase: 'unthrottled', asked: 1, got: idle.pace.factor }] : []),
    ],
  });
  options.onStep(`contention: ${formatContention(contention)}`);
  const slowdownShortfall = main.loaded ? describeShortfall(contention) : null;
  return {
    tests,
    vitestVersion: main.outcome.vitestVersion,
    notices: gatherRunNotices({ cut, unhandledErrors: main.outcome.unhandledErrors, load, slowdownShortfall }),
    load,
    contention,
    triesMs: times.triesMs,
    loadedWallMs: main.outcome.wallMs,
  };
}
