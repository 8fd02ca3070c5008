/**
 * The rows that read verdicts (the replay row, core/gate/replay-choice.ts), for the one loop of
 * gate-checks-run.ts: each round's tests each get their own call (those under the same conditions
 * share one, side by side, each with its own fixed seed), one call after the other, each test only
 * it from its file at its call's factor and worker (without slowdown, as many side by side as the
 * machine has cores: a seeded draw does not depend on the CPU it gets)
 * (commands/replay/replay-tries.ts, as `flakeguard replay` runs it), while the deadline allows.
 */
import os from 'node:os';
import { plural } from '../../core/budget/budget-text.js';
import { type Evidence, withJudgement } from '../../core/gate/check-evidence.js';
import type {
  CheckContext,
  CheckRound,
  CheckRow,
  TestCall,
  TestEvidence,
  TestJudgement,
} from '../../core/gate/check-types.js';
import { groupTestCalls } from '../../core/gate/replay-choice.js';
import { replayTriesOf } from '../../core/replay/replay-tries.js';
import { runTestsAlone, type TriesOutcome } from '../../io/vitest/vitest-tries.js';
import type { GatePhase } from './gate-run-options.js';
import type { GateTarget } from './gate-targets.js';

/** One call of a row, as the loop keeps it (gate-checks-run.ts ChecksRun.calls). */
interface RowCall {
  readonly row: CheckRow;
  readonly round: CheckRound;
  readonly tests: readonly GateTarget[];
  readonly outcome: TriesOutcome;
}

/** The checks so far as the loop has them (gate-checks-run.ts ChecksRun). */
interface RunSoFar {
  readonly evidence: Evidence;
  readonly view: (t: GateTarget) => TestEvidence;
  readonly calls: readonly RowCall[];
}

/** How the loop records a call's tries as one round of each of its tests (gate-checks-run.ts record). */
type RecordRound = (
  evidence: Evidence,
  row: CheckRow,
  round: CheckRound,
  tests: readonly GateTarget[],
  outcome: TriesOutcome,
  asked: number,
) => void;

interface TestCallRun {
  readonly tests: readonly GateTarget[];
  readonly call: Omit<TestCall, 'seed'>;
  readonly outcome: TriesOutcome;
}

/**
 * A row that reads verdicts (the replay), after every other: each test's verdict and cause from
 * `judge` over the checks so far (settled here: this row's own cut never turns them), then each
 * round's tests each their own call (runTestCalls), each call recorded as one round of its
 * test, while the deadline allows.
 */
export async function runVerdictRow<R extends RunSoFar>(
  phase: GatePhase,
  r: {
    row: CheckRow;
    ctx: CheckContext;
    targets: readonly GateTarget[];
    judge: ((run: R) => ReadonlyMap<GateTarget, TestJudgement>) | undefined;
  },
  settled: R,
  record: RecordRound,
): Promise<R> {
  const judged = r.judge !== undefined && phase.inTime() ? r.judge(settled) : new Map<GateTarget, TestJudgement>();
  const view = (t: GateTarget): TestEvidence => withJudgement(settled.view(t), judged.get(t));
  const calls = [...settled.calls];
  for (const round of r.row.rounds(r.ctx)) {
    const tests = r.targets.filter((t) => round.wants(view(t)));
    if (tests.length === 0 || !phase.inTime() || phase.options.signal.aborted) continue;
    for (const c of await runTestCalls(phase, round, tests, view)) {
      record(settled.evidence, r.row, round, c.tests, c.outcome, c.call.factor);
      calls.push({ row: r.row, round, tests: c.tests, outcome: c.outcome });
    }
  }
  return { ...settled, calls };
}

async function runTestCalls(
  phase: GatePhase,
  round: CheckRound,
  tests: readonly GateTarget[],
  view: (t: GateTarget) => TestEvidence,
): Promise<TestCallRun[]> {
  const { options } = phase;
  const planned = tests.flatMap((test) => {
    const call = round.perTest?.(view(test)) ?? null;
    return call === null ? [] : [{ test, call }];
  });
  if (planned.length > 0)
    options.onStep(
      `run: ${plural(planned.length, 'test')} ${round.why}${round.call.how === '' ? '' : `, ${round.call.how}`}`,
    );
  const runs: TestCallRun[] = [];
  for (const { tests: seeded, call } of groupTestCalls(planned)) {
    if (!phase.inTime() || options.signal.aborted) break;
    const group = seeded.map((s) => s.test);
    const outcome = await runTestsAlone({
      root: options.root,
      setup: options.setup,
      session: options.session,
      // Each test its own seed (the runner's plan carries it), over the gate's.
      tests: seeded.map((s) => (s.seed === null ? s.test : { ...s.test, seed: s.seed })),
      ...replayTriesOf(call.cold, call.tries),
      ...(call.factor > 1 ? { slowdown: call.factor } : { workers: os.availableParallelism() }),
      deadline: phase.deadline(),
      signal: options.signal,
      onProgress: phase.progress(round.label),
    });
    runs.push({ tests: group, call, outcome });
    if (outcome.cutShort === 'deadline') break;
  }
  return runs;
}
