/**
 * One gate verdict per selected test, from its tries: under load (the main phase), without load (a
 * phase of its own when every loaded try failed) and alone (new tests, once, only it from its file).
 * Pure: tries and the limit in, verdict and figures out.
 */
import { max, median } from 'simple-statistics';
import { formatDuration } from '../duration.js';
import { type FailureRateBound, failureRateUpperBound } from '../failure-rate.js';
import { durationAtAsked } from './judged-duration.js';
import type { GateTry } from './runner-protocol.js';

/** fragile: stable at the reference slowdown, fails at a higher one (core/gate/breaking-point.ts). */
export type GateVerdict =
  | 'stable'
  | 'flaky'
  | 'failing'
  | 'order-dependent'
  | 'over-budget'
  | 'near-budget'
  | 'fragile';

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
  readonly limit: GateLimit;
  /** Share of the limit at or above which a test is near budget (config budget.warnAt). */
  readonly warnAt: number;
  /** Why the test did not run at all (module error), when it did not. */
  readonly notRunReason?: string;
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
  readonly limit: GateLimit;
  readonly warnAt: number;
  /** First error of a failed try. */
  readonly firstError: string | null;
  /** One sentence: why this verdict, with figures. */
  readonly reason: string;
  /** Highest slowdown factor with every try passed, and lowest with a failed one (breaking-point.ts). */
  readonly holdsAt?: number | null;
  readonly breaksAt?: number | null;
}

const count = (tries: readonly GateTry[]): TryCount => ({
  passes: tries.filter((t) => t.state === 'passed').length,
  tryCount: tries.length,
});
const ms = formatDuration;

/** The figures of a test's tries, as its result carries them whatever the verdict. */
type TryFigures = Omit<GateTestResult, 'verdict' | 'loadSensitive' | 'reason' | 'holdsAt' | 'breaksAt'>;

/** A verdict and why; loadSensitive only for a test that failed under load and passed without. */
interface Decision {
  readonly verdict: GateVerdict;
  readonly reason: string;
  readonly loadSensitive?: boolean;
}

/** How the tries ran, as a reason says it: ' cold' / ' (2 cold)', and ' under load' / ' at x2 under load'. */
interface Wording {
  readonly kind: string;
  readonly under: string;
}

export function decideGateVerdict(input: GateVerdictInput): GateTestResult {
  const figures = measureTries(input);
  const cold = input.tries.filter((t) => t.cold).length;
  const wording = {
    kind: cold === figures.tryCount ? ' cold' : cold === 0 ? '' : ` (${cold} cold)`,
    under: input.condition ?? (input.loaded ? ' under load' : ''),
  };
  const decision = decideFromFigures(input, figures, wording);
  return {
    ...figures,
    verdict: decision.verdict,
    loadSensitive: decision.loadSensitive ?? false,
    reason: decision.reason,
  };
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

/**
 * A try as the report keeps it: durations to 0.1 ms, its duration at the asked factor when that
 * differs, without what only meant something on this machine (pid, tid, startedAt).
 */
function reportedTry(t: GateTry, asked: number | undefined): GateTry {
  const { pid: _pid, tid: _tid, startedAt: _startedAt, atAskedMs: _atAskedMs, ...kept } = t;
  const atAsked = asked === undefined ? t.durationMs : durationAtAsked(t, asked);
  return {
    ...kept,
    durationMs: round1(t.durationMs),
    cold: t.cold ?? false,
    ...(t.cpuMs === undefined ? {} : { cpuMs: round1(t.cpuMs) }),
    ...(atAsked < t.durationMs ? { atAskedMs: round1(atAsked) } : {}),
  };
}

function measureTries(input: GateVerdictInput): TryFigures {
  const { tries, limit, warnAt } = input;
  const { passes, tryCount } = count(tries);
  const reported = tries.map((t) => reportedTry(t, input.asked));
  const durations = reported.map((t) => t.durationMs);
  const passing = reported.filter((t) => t.state === 'passed').map((t) => t.atAskedMs ?? t.durationMs);
  const firstError =
    [...tries, ...(input.idle ?? []), ...(input.alone ?? [])].find((t) => t.state === 'failed' || t.state === 'hung')
      ?.error ?? null;
  return {
    passes,
    tryCount,
    tries: reported,
    medianMs: durations.length > 0 ? median(durations) : null,
    maxMs: durations.length > 0 ? max(durations) : null,
    maxPassingMs: passing.length > 0 ? max(passing) : null,
    failureRate: tryCount > 0 ? failureRateUpperBound(tryCount - passes, tryCount) : null,
    idle: input.idle ? count(input.idle) : null,
    alone: input.alone ? count(input.alone) : null,
    limit,
    warnAt,
    firstError,
  };
}

/** Did it run, did it pass, with its file and alone; then, when it passed every time, its budget. */
function decideFromFigures(input: GateVerdictInput, f: TryFigures, { kind, under }: Wording): Decision {
  const { passes, tryCount, alone } = f;
  if (tryCount === 0)
    return { verdict: 'failing', reason: `did not run: ${input.notRunReason ?? 'Vitest did not report it'}` };
  if (passes === 0) return decideAllFailed(input.tries, f, { kind, under });
  if (passes < tryCount)
    return { verdict: 'flaky', reason: `failed ${tryCount - passes} of ${tryCount}${kind} tries${under}` };
  if (alone && alone.passes > 0 && alone.passes < alone.tryCount) {
    return {
      verdict: 'flaky',
      reason: `passed ${passes}/${tryCount} with its file, but alone only ${alone.passes}/${alone.tryCount}`,
    };
  }
  if (alone && alone.passes < alone.tryCount) {
    return {
      verdict: 'order-dependent',
      reason: `passes with its file (${passes}/${tryCount}) but failed alone (${alone.passes}/${alone.tryCount}): it needs state from another test`,
    };
  }
  return decideBudget(f, { kind, under }, input.asked);
}

/** Failed every try: load-sensitive when it passed without load, else a real failure. */
function decideAllFailed(tries: readonly GateTry[], f: TryFigures, { kind, under }: Wording): Decision {
  const { tryCount, idle } = f;
  if (idle && idle.passes > 0) {
    return {
      verdict: 'flaky',
      reason: `load-sensitive: failed ${tryCount}/${tryCount} tries under load, passed ${idle.passes}/${idle.tryCount} without load`,
      loadSensitive: true,
    };
  }
  const without = idle ? `, and ${idle.tryCount - idle.passes}/${idle.tryCount} without load` : '';
  const hung = tries.filter((t) => t.state === 'hung').length;
  const how = hung === tryCount ? 'hung in' : hung > 0 ? `failed (${hung} hung)` : 'failed';
  return {
    verdict: 'failing',
    reason: `${how} ${tryCount}/${tryCount}${kind} tries${under}${without}: a real failure, not a flake`,
  };
}

/**
 * The slowest passing try as a reason names it: "800ms" at its own duration, or, when it got more
 * than asked, "800ms (asked x2, got x3.2: ~500ms at x2)", its raw duration beside the judged one.
 */
function slowestText(f: TryFigures, asked: number | undefined): string {
  const slowest = f.tries
    .filter((t) => t.state === 'passed')
    .reduce<GateTry | null>(
      (a, t) => (a === null || (t.atAskedMs ?? t.durationMs) > (a.atAskedMs ?? a.durationMs) ? t : a),
      null,
    );
  if (slowest === null) return ms(0);
  if (slowest.atAskedMs === undefined || asked === undefined) return ms(slowest.durationMs);
  return `${ms(slowest.durationMs)} (asked x${asked}, got x${slowest.slowdown}: ~${ms(slowest.atAskedMs)} at x${asked})`;
}

/** Passed every try: over, near or within its limit, by its slowest passing try at the asked factor. */
function decideBudget(f: TryFigures, { kind, under }: Wording, asked: number | undefined): Decision {
  const { limit, warnAt, maxPassingMs, passes, tryCount } = f;
  const slowest = slowestText(f, asked);
  const limitText = `${ms(limit.limitMs)} (${limit.source === 'allowance' ? `allowance ${limit.allowanceId ?? ''}`.trim() : limit.platformKey === 'all' ? 'budget' : `${limit.platformKey} budget`})`;
  if (maxPassingMs !== null && maxPassingMs > limit.limitMs) {
    return {
      verdict: 'over-budget',
      reason: `slowest passing try ${slowest}${under} is over its limit ${limitText}`,
    };
  }
  if (maxPassingMs !== null && maxPassingMs >= limit.limitMs * warnAt) {
    return {
      verdict: 'near-budget',
      reason: `slowest try ${slowest}${under} is ${Math.round((maxPassingMs / limit.limitMs) * 100)}% of its limit ${limitText}; add the proposed allowance to this change`,
    };
  }
  return {
    verdict: 'stable',
    reason: `${passes}/${tryCount}${kind} tries passed${under}, slowest ${slowest} of ${limitText}`,
  };
}
