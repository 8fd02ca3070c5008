/**
 * One gate verdict per selected test, from its tries: at the reference (the main phase), without
 * slowdown (tests that failed a reference try) and alone (new tests that passed with their file).
 * Evidence first: a verdict names only what its tries show, and where a check it needs was not made
 * (the time budget cut it) the verdict is `inconclusive`, with `missing` naming each check
 * (core/gate/gate-evidence.ts). Pure: tries and the limit in, verdict and figures out.
 */
import { max, median } from 'simple-statistics';
import { failureRateUpperBound } from '../failure-rate.js';
import { decideBudget } from './gate-budget-verdict.js';
import { countsAtFactorOne, DEFAULT_EVIDENCE_RULES } from './gate-evidence.js';
import { causeNeeds, decideAllFailed, decideAlone, inconclusive } from './gate-verdict-checks.js';
import type {
  Decision,
  GateTestResult,
  GateVerdictInput,
  TryCount,
  TryFigures,
  Wording,
} from './gate-verdict-types.js';
import { durationAtAsked } from './judged-duration.js';
import { leaveOutRepeatFailures } from './repeat-only.js';
import type { GateTry } from './runner-protocol.js';

export type { GateLimit, GateTestResult, GateVerdict, GateVerdictInput, TryCount } from './gate-verdict-types.js';

const count = (tries: readonly GateTry[]): TryCount => ({
  passes: tries.filter((t) => t.state === 'passed').length,
  tryCount: tries.length,
});
export function decideGateVerdict(asGiven: GateVerdictInput): GateTestResult {
  // A test that fails only as a repeat inside one worker is judged on its cold tries (core/gate/repeat-only.ts).
  const repeat = leaveOutRepeatFailures(asGiven.tries, asGiven.idle);
  const given = repeat ? { ...asGiven, tries: repeat.reference, idle: repeat.idle } : asGiven;
  // A failure without slowdown that the busy machine slowed above OFF_FACTOR is no evidence about x1.
  const idle = given.idle === null ? null : countsAtFactorOne(given.idle);
  const input = { ...given, idle, idleSlowed: (given.idle?.length ?? 0) - (idle?.length ?? 0) };
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
    reason: repeat ? `${decision.reason}; ${repeatOnlyText(asGiven, repeat.seen)}` : decision.reason,
    missing: [...(decision.missing ?? []), ...causeNeeds(input, figures, decision.verdict)],
  };
}

/** Why the warm tries are left out of a test that failed only as a repeat inside one worker. */
function repeatOnlyText(given: GateVerdictInput, seen: number): string {
  const warm = [...given.tries, ...(given.idle ?? [])].filter((t) => t.cold === false).length;
  return `failed only as a repeat inside one worker (every run after its first in a process: ${seen} of ${seen} failures), which CI never does (it runs a test once per process), so its ${warm} warm ${warm === 1 ? 'try is' : 'tries are'} left out`;
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
    ...(input.reversed ? { reversed: count(input.reversed) } : {}),
    limit,
    warnAt,
    firstError,
  };
}

/**
 * Did it run, did it pass at the reference, without slowdown and alone; then, when it passed every
 * time, its budget. Each verdict only from the checks it needs.
 */
function decideFromFigures(input: GateVerdictInput, f: TryFigures, wording: Wording): Decision {
  const rules = input.rules ?? DEFAULT_EVIDENCE_RULES;
  const { passes, tryCount } = f;
  const { kind, under } = wording;
  if (tryCount === 0) {
    if (rules.cut && input.notRunReason === undefined)
      return inconclusive('the time budget ran out before its first try', [
        { check: 'reference', needed: rules.minTries, made: 0, for: 'verdict' },
      ]);
    return { verdict: 'failing', reason: `did not run: ${input.notRunReason ?? 'Vitest did not report it'}` };
  }
  if (passes === 0) return decideAllFailed(input, f, wording, rules);
  if (passes < tryCount)
    return { verdict: 'flaky', reason: `failed ${tryCount - passes} of ${tryCount}${kind} tries${under}` };
  if (tryCount < rules.minTries && rules.cut)
    return inconclusive(`passed ${passes}/${tryCount}${kind} tries${under} before the time budget ran out`, [
      { check: 'reference', needed: rules.minTries, made: tryCount, for: 'verdict' },
    ]);
  const alone = decideAlone(input.alone, f, rules, input.reversed ?? null);
  if (alone !== null && alone.verdict !== 'inconclusive') return alone;
  const budget = decideBudget(f, wording, input.asked);
  // A budget finding stands on the reference tries; only `stable` needs the alone check too.
  if (alone === null || budget.verdict !== 'stable') return { ...budget, missing: alone?.missing ?? [] };
  return alone;
}
