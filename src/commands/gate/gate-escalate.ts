/**
 * The gate's search for where a test breaks: the tests that passed every try at the reference
 * slowdown, and whose factor it measured (core/gate/factor-evidence.ts factorMeasured), get a few tries at each higher factor (core/gate/breaking-point.ts), a test that fails
 * at one stopping there, while the gate's deadline allows.
 */
import { escalationFactors, type FactorTries } from '../../core/gate/breaking-point.js';
import { CONFIRM_MAX_TRIES, factorMeasured, keepsClimbing } from '../../core/gate/factor-evidence.js';
import type { GateTry, ProgressLine } from '../../core/gate/runner-protocol.js';
import type { PhaseFactor } from '../../core/gate/slowdown.js';
import { testKey } from '../../core/test-id.js';
import type { VitestSession } from '../../io/vitest/vitest-session.js';
import type { VitestSetup } from '../../io/vitest/vitest-setup.js';
import { type RepeatTarget, runTestsRepeatedly, targetKey } from '../../io/vitest/vitest-tries.js';
import type { GatePhase } from './gate-run-options.js';
import { type GateTarget, type TriesOf, triesIn } from './gate-targets.js';

/** Tries per higher factor: enough to see a break that happens every time, cheap next to the reference's. */
export const TRIES_PER_HIGHER_FACTOR = 2;
/**
 * Tries again at the reference for a test that broke higher: with 6, a test failing at the same
 * rate at every factor is called fragile in at most 4.8% of the cases that reach this step (worst
 * rate ~22%; 3 tries gave 12%), while a test that always fails above its limit is still fragile
 * (core/gate/factor-evidence.ts; docs/gate.md "Fragile or flaky").
 */
export const CONFIRM_TRIES = 6;

export interface EscalateInput<T extends RepeatTarget> {
  readonly root: string;
  readonly setup: VitestSetup;
  readonly session?: VitestSession | undefined;
  readonly targets: readonly T[];
  /** The factor the reference tries asked for (the higher factors are 2x and 4x it). */
  readonly reference: number;
  readonly deadline: number;
  readonly signal: AbortSignal;
  readonly onStep: (text: string) => void;
  readonly onProgress: (phase: string) => (line: ProgressLine) => void;
}

export interface HigherFactors<T> {
  readonly levels: Map<T, FactorTries[]>;
  /** More tries at the reference for the tests that broke higher: a failure there makes them flaky, not fragile. */
  readonly confirm: Map<T, readonly GateTry[]>;
  /** What each of these phases asked and its tries measurably got. */
  readonly phases: readonly PhaseFactor[];
}

export async function runHigherFactors<T extends RepeatTarget>(input: EscalateInput<T>): Promise<HigherFactors<T>> {
  const out = new Map<T, FactorTries[]>(input.targets.map((t) => [t, []]));
  const phases: PhaseFactor[] = [];
  let holding = [...input.targets];
  for (const factor of escalationFactors(input.reference)) {
    if (holding.length === 0 || performance.now() >= input.deadline || input.signal.aborted) break;
    input.onStep(
      `run: ${holding.length} test${holding.length === 1 ? '' : 's'} that held at x${input.reference}, ${TRIES_PER_HIGHER_FACTOR} tries at x${factor} (where does it break?)`,
    );
    const outcome = await runTestsRepeatedly({
      root: input.root,
      setup: input.setup,
      session: input.session,
      tests: holding,
      tries: TRIES_PER_HIGHER_FACTOR,
      slowdown: factor,
      deadline: input.deadline,
      signal: input.signal,
      onProgress: input.onProgress(`at x${factor}`),
    });
    const byKey = new Map(outcome.tests.map((t) => [testKey(t), t]));
    phases.push({ phase: `x${factor}`, asked: factor, got: outcome.pace.factor });
    holding = holding.filter((t) => {
      const tries = triesIn(byKey.get(targetKey(t)));
      out.get(t)?.push({ factor: outcome.pace.factor ?? factor, asked: factor, tries });
      return keepsClimbing(tries);
    });
  }
  // A random flake that passed its reference tries by luck and then failed higher is not fragile:
  // the tests that broke get as many tries again at the reference.
  const broke = input.targets.filter((t) => out.get(t)?.some((l) => l.tries.some((x) => x.state !== 'passed')));
  const confirm = await confirmAtReference(input, broke, phases);
  return { levels: out, confirm, phases };
}

/** More tries at the reference for the tests that broke higher (none past the deadline). */
async function confirmAtReference<T extends RepeatTarget>(
  input: EscalateInput<T>,
  broke: readonly T[],
  phases: PhaseFactor[],
): Promise<Map<T, readonly GateTry[]>> {
  const confirm = new Map<T, readonly GateTry[]>();
  if (broke.length === 0 || performance.now() >= input.deadline || input.signal.aborted) return confirm;
  input.onStep(
    `run: ${broke.length} test${broke.length === 1 ? '' : 's'} that broke above x${input.reference}, ${CONFIRM_TRIES} more cold tries at x${input.reference}, then warm repeats up to ${CONFIRM_MAX_TRIES} where cheap (flaky or fragile?)`,
  );
  const again = await runTestsRepeatedly({
    root: input.root,
    setup: input.setup,
    session: input.session,
    tests: broke,
    tries: CONFIRM_TRIES,
    // A cheap test gets warm repeats up to CONFIRM_MAX_TRIES: a flake fails there too, a limit does not.
    maxTries: CONFIRM_MAX_TRIES,
    warm: true,
    budgetMs: Math.max(0, (input.deadline - performance.now()) / 2),
    slowdown: input.reference,
    deadline: input.deadline,
    signal: input.signal,
    onProgress: input.onProgress(`at x${input.reference} again`),
  });
  const byKey = new Map(again.tests.map((t) => [testKey(t), t]));
  phases.push({ phase: 'confirm', asked: input.reference, got: again.pace.factor });
  for (const t of broke) confirm.set(t, triesIn(byKey.get(targetKey(t))));
  return confirm;
}

/**
 * The targets that passed every try at the reference, at the higher factors: only when the gate
 * slows tests down, and last (a nice-to-have: every must-have check is made before it).
 */
export async function escalateHeldTests(
  phase: GatePhase,
  targets: readonly GateTarget[],
  triesOf: TriesOf,
): Promise<HigherFactors<GateTarget>> {
  const { options } = phase;
  // Only the tests whose factor the gate measures: the others' tries at x4 and x8 would not be slowed.
  const held = targets.filter((t) => {
    const r = triesOf.get(t);
    return (
      r?.found === true && r.tries.length > 0 && r.tries.every((x) => x.state === 'passed') && factorMeasured(r.tries)
    );
  });
  if (!(options.slowdown > 1 && held.length > 0 && phase.inTime()))
    return {
      levels: new Map<GateTarget, FactorTries[]>(),
      confirm: new Map<GateTarget, readonly GateTry[]>(),
      phases: [],
    };
  return runHigherFactors({
    root: options.root,
    setup: options.setup,
    session: options.session,
    targets: held,
    reference: options.slowdown,
    deadline: phase.deadline(),
    signal: options.signal,
    onStep: options.onStep,
    onProgress: phase.progress,
  });
}
