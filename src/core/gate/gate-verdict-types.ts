/** The types of a gate verdict (core/gate/gate-verdict.ts): its input, its result and its parts. Pure. */
import type { FailureRateBound } from '../failure-rate.js';
import type { EvidenceRules, MissingCheck } from './gate-evidence.js';
import type { GateTry } from './runner-protocol.js';

/** fragile: stable at the reference slowdown, fails at a higher one (core/gate/breaking-point.ts). */
export type GateVerdict =
  | 'stable'
  | 'flaky'
  | 'failing'
  | 'order-dependent'
  | 'over-budget'
  | 'near-budget'
  | 'fragile'
  | 'inconclusive';

export interface GateLimit {
  readonly limitMs: number;
  readonly source: 'budget' | 'allowance';
  readonly platformKey: string;
  readonly allowanceId?: string;
}

export interface GateVerdictInput {
  /** The main tries (the reference phase): under load when load was on. */
  readonly tries: readonly GateTry[];
  readonly loaded: boolean;
  /** How the main tries ran, for the reasons (e.g. " at x2"); default " under load" when loaded. */
  readonly condition?: string;
  /**
   * The factor the main tries were asked to run at: a passing try that got more than 10% above it
   * is judged for its budget at its duration adjusted to it (core/gate/judged-duration.ts).
   * Absent: every try at its own duration.
   */
  readonly asked?: number;
  /** Tried again without load, when every loaded try failed; null when not tried. */
  readonly idle: readonly GateTry[] | null;
  /** New tests: tried alone (once; three times when the first failed); null when not tried. */
  readonly alone: readonly GateTry[] | null;
  /** New tests: their file once with its tests in reverse order (the order check before alone); absent or null: not tried. */
  readonly reversed?: readonly GateTry[] | null;
  readonly limit: GateLimit;
  /** Share of the limit at or above which a test is near budget (config budget.warnAt). */
  readonly warnAt: number;
  /** Why the test did not run at all (module error), when it did not. */
  readonly notRunReason?: string;
  /** What the verdict needs (default: one try of each check, not new, not cut). */
  readonly rules?: EvidenceRules;
  /** Set by decideGateVerdict: failed tries without slowdown left out, the machine slowed them above OFF_FACTOR. */
  readonly idleSlowed?: number;
}

export interface TryCount {
  readonly passes: number;
  readonly tryCount: number;
}

export interface GateTestResult {
  readonly verdict: GateVerdict;
  /** Flaky because of load: failed every loaded try, passed some without load. */
  readonly loadSensitive: boolean;
  readonly passes: number;
  readonly tryCount: number;
  /** Each try of the main phase, in order, as the report shows it (reportedTry). */
  readonly tries: readonly GateTry[];
  readonly medianMs: number | null;
  readonly maxMs: number | null;
  /** Slowest passing try at the asked factor (its atAskedMs, else its duration): what the budget is checked against. */
  readonly maxPassingMs: number | null;
  readonly failureRate: FailureRateBound | null;
  readonly idle: TryCount | null;
  readonly alone: TryCount | null;
  /** Its file in reverse order (the order check): absent or null when not tried. */
  readonly reversed?: TryCount | null;
  readonly limit: GateLimit;
  readonly warnAt: number;
  /** First error of a failed try. */
  readonly firstError: string | null;
  /** One sentence: why this verdict, with figures. */
  readonly reason: string;
  /** Highest slowdown factor with every try passed, and lowest with a failed one (breaking-point.ts). */
  readonly holdsAt?: number | null;
  readonly breaksAt?: number | null;
  /** The checks the verdict or its cause needed that were not made (empty: none). */
  readonly missing: readonly MissingCheck[];
}

/** The figures of a test's tries, as its result carries them whatever the verdict. */
export type TryFigures = Omit<
  GateTestResult,
  'verdict' | 'loadSensitive' | 'reason' | 'holdsAt' | 'breaksAt' | 'missing'
>;

/** A verdict and why; loadSensitive only for a test that failed under load and passed without. */
export interface Decision {
  readonly verdict: GateVerdict;
  readonly reason: string;
  readonly loadSensitive?: boolean;
  readonly missing?: readonly MissingCheck[];
}

/** How the tries ran, as a reason says it: ' cold' / ' (2 cold)', and ' under load' / ' at x2 under load'. */
export interface Wording {
  readonly kind: string;
  readonly under: string;
}
