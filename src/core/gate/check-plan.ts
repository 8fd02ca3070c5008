/**
 * The gate's must-have checks, planned from what the reference tries cost, and the time budget that
 * covers them (docs/gate.md "Evidence first"). After the reference tries, a test that failed one
 * needs tries without slowdown, one at a time; a new test that passed with its file needs its alone
 * try. Those come before any nice-to-have (extra reference tries, where does it break). Pure.
 */
import { ALONE_TRIES } from './gate-evidence.js';

/** The most the default --time-budget (2m) grows to cover the must-have checks. */
export const TIME_BUDGET_CAP_MS = 600_000;
/** Headroom on the estimate: a try's cost moves from wave to wave. */
export const ESTIMATE_MARGIN = 1.25;

/** A file (in one Vitest project) and what its must-have checks need. */
interface FileChecks {
  /** The slowest measured try of the file at the reference (worker start to the file's end), ms. */
  readonly costMs: number;
  /** Tests of the file that failed a reference try (they need tries without slowdown). */
  readonly unthrottled: number;
  /** New tests of the file that passed every reference try (each needs an alone try). */
  readonly alone: number;
}

export interface CheckPlanInput {
  readonly files: readonly FileChecks[];
  /** --tries: the tries without slowdown each failed test's file gets. */
  readonly minTries: number;
  /** Tries Vitest ran at once in the reference tries (at least 1). */
  readonly parallel: number;
  /** What starting one Vitest call costs (the reference call's wall time less its waves'). */
  readonly startMs: number;
}

export interface CheckPlan {
  readonly unthrottledTests: number;
  readonly unthrottledMs: number;
  readonly aloneTests: number;
  readonly aloneMs: number;
  /** Both, with a Vitest start each and the margin. */
  readonly totalMs: number;
}

/**
 * The tries without slowdown run one at a time: each failed test's file `minTries` times. The alone
 * tries run side by side: one per new test, each about a try of its file.
 */
export function planMustHaveChecks(input: CheckPlanInput): CheckPlan {
  const failing = input.files.filter((f) => f.unthrottled > 0);
  const unthrottledMs = failing.reduce((s, f) => s + f.costMs * input.minTries, 0);
  const aloneRaw = input.files.reduce((s, f) => s + f.costMs * f.alone * ALONE_TRIES, 0);
  const aloneMs = aloneRaw / Math.max(1, input.parallel);
  const calls = (failing.length > 0 ? 1 : 0) + (aloneRaw > 0 ? 1 : 0);
  return {
    unthrottledTests: failing.reduce((s, f) => s + f.unthrottled, 0),
    unthrottledMs,
    aloneTests: input.files.reduce((s, f) => s + f.alone, 0),
    aloneMs,
    totalMs: Math.ceil((unthrottledMs + aloneMs + calls * input.startMs) * ESTIMATE_MARGIN),
  };
}

export interface BudgetFit {
  /** The time budget the gate keeps to (from its start). */
  readonly budgetMs: number;
  /** What the gate says about it, one line. */
  readonly text: string;
  /** The budget that covers the must-have checks (rounded up to 10 s). */
  readonly neededMs: number;
}

/** A time budget as --time-budget takes it: "2m", "100s". */
export const formatBudget = (ms: number): string =>
  ms % 60_000 === 0 ? `${ms / 60_000}m` : `${Math.ceil(ms / 1000)}s`;

const roundUp10s = (ms: number): number => Math.ceil(ms / 10_000) * 10_000;

/**
 * The time budget after the reference tries: a given --time-budget stays (and says when it does
 * not cover the checks); the default grows from 2m to cover them, up to TIME_BUDGET_CAP_MS.
 */
export function fitTimeBudget(input: {
  readonly budgetMs: number;
  readonly given: boolean;
  readonly elapsedMs: number;
  readonly plan: CheckPlan;
}): BudgetFit {
  const { budgetMs, given, elapsedMs, plan } = input;
  const neededMs = roundUp10s(elapsedMs + plan.totalMs);
  const what = `${describePlan(plan)}: ~${formatBudget(plan.totalMs)} after ${formatBudget(Math.round(elapsedMs))} of reference tries`;
  if (given) {
    if (neededMs <= budgetMs)
      return { budgetMs, neededMs, text: `${what}; --time-budget ${formatBudget(budgetMs)} covers them` };
    return {
      budgetMs,
      neededMs,
      text: `${what}; --time-budget ${formatBudget(budgetMs)} does not cover them (--time-budget ${formatBudget(neededMs)} does): a check cut by it leaves its test inconclusive`,
    };
  }
  if (neededMs <= budgetMs)
    return { budgetMs, neededMs, text: `${what}; the default time budget ${formatBudget(budgetMs)} covers them` };
  if (neededMs <= TIME_BUDGET_CAP_MS)
    return {
      budgetMs: neededMs,
      neededMs,
      text: `${what}; time budget raised from the default ${formatBudget(budgetMs)} to ${formatBudget(neededMs)} to cover them`,
    };
  return {
    budgetMs: TIME_BUDGET_CAP_MS,
    neededMs,
    text: `${what}; time budget raised to its cap ${formatBudget(TIME_BUDGET_CAP_MS)}, short of the ${formatBudget(neededMs)} they need (give --time-budget ${formatBudget(neededMs)}): a check cut by it leaves its test inconclusive`,
  };
}

/** "must-have checks: 3 tests without slowdown, 12 new tests alone" (or "none"). */
function describePlan(plan: CheckPlan): string {
  const parts = [
    plan.unthrottledTests > 0
      ? `${plan.unthrottledTests} test${plan.unthrottledTests === 1 ? '' : 's'} without slowdown`
      : '',
    plan.aloneTests > 0 ? `${plan.aloneTests} new test${plan.aloneTests === 1 ? '' : 's'} alone` : '',
  ].filter((p) => p !== '');
  return `must-have checks: ${parts.length > 0 ? parts.join(', ') : 'none'}`;
}

/** What `gate --plan` says of the must-have checks before any try: counts, and a time at an assumed cost. */
export interface MustHaveEstimate {
  /** Reference tries: each test file (in each project) --tries times. */
  readonly referenceTries: number;
  /** Tries without slowdown if every selected test's file failed a reference try (one at a time). */
  readonly triesWithoutSlowdownAtMost: number;
  /** Alone tries if every new test passed with its file (one each; three for one that fails alone). */
  readonly aloneTriesAtMost: number;
  /** The time all of them would take at the assumed cost of a try. */
  readonly estimateMs: number;
  /** The assumption, said: the gate measures the real cost in its reference tries and plans again. */
  readonly assumption: string;
  /** The time budget the gate would keep to at that estimate (the default grows to cover it, up to its cap). */
  readonly timeBudgetMs: number;
}

/** One try of a test file at x1 on one core, before the gate has measured any: a Vitest worker's start and a short file. */
const ASSUMED_TRY_MS = 1000;

export function estimateMustHave(input: {
  readonly files: number;
  readonly newTests: number;
  readonly tries: number;
  readonly slowdown: number;
  readonly cpus: number;
  readonly timeBudgetMs: number;
  readonly given: boolean;
}): MustHaveEstimate {
  const cpus = Math.max(1, input.cpus);
  const referenceTries = input.files * input.tries;
  const triesWithoutSlowdownAtMost = input.slowdown > 1 ? input.files * input.tries : 0;
  const aloneTriesAtMost = input.newTests * 3;
  const estimateMs = Math.ceil(
    ((referenceTries * ASSUMED_TRY_MS * input.slowdown) / cpus +
      triesWithoutSlowdownAtMost * ASSUMED_TRY_MS +
      (aloneTriesAtMost * ASSUMED_TRY_MS) / cpus) *
      ESTIMATE_MARGIN,
  );
  const needed = roundUp10s(estimateMs);
  const timeBudgetMs = input.given
    ? input.timeBudgetMs
    : Math.min(TIME_BUDGET_CAP_MS, Math.max(input.timeBudgetMs, needed));
  return {
    referenceTries,
    triesWithoutSlowdownAtMost,
    aloneTriesAtMost,
    estimateMs,
    assumption: `${formatBudget(ASSUMED_TRY_MS)} a try of a file at x1 on each of ${cpus} cores, every check at its most; the gate measures the cost in its reference tries and plans again (its "plan:" line)`,
    timeBudgetMs,
  };
}
