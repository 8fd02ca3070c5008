/**
 * The cause of a gate test's flakiness, from the gate's own tries (core/cause/cause.ts): each rule
 * reads one condition the gate controls, the first that decides wins, and `unknown` when none does.
 * `signals` (lines of the test's source, when a caller gives them) are added as supporting evidence,
 * never a class on their own. Pure.
 */

import {
  CAUSE_ALPHA,
  type CauseClass,
  type CauseEvidence,
  type CauseFinding,
  makeCause,
  type SourceSignal,
} from '../cause/cause.js';
import { firstCause } from '../cause/cause-rules.js';
import { findNetworkSignal } from '../cause/error-signals.js';
import { type FailureCount, fisherOneSidedP, formatPValue } from '../fisher-exact.js';
import { coldFinding } from './cold-gap.js';
import { countFailures, failedTry, weighFactorEvidence } from './factor-evidence.js';
import type { GateVerdict } from './gate-verdict.js';
import { SEED_DID_NOT_DECIDE, sameSeedAgain, seedDidNotDecide } from './paired-seeds.js';
import type { GateTry } from './runner-protocol.js';

interface Level {
  readonly factor: number;
  readonly tries: readonly GateTry[];
}

export interface GateCauseInput {
  readonly file: string;
  readonly line: number;
  readonly verdict: GateVerdict;
  /** The tries at the reference slowdown. */
  readonly reference: Level;
  readonly higher: readonly Level[];
  /** Tries again at the reference after a break higher. */
  readonly confirm: readonly GateTry[];
  /** Tries run again with no slowdown and no load (the gate's phase 3), or null. */
  readonly unthrottled: readonly GateTry[] | null;
  /** The reference itself ran with no slowdown and no load (--slowdown 1, --load 0). */
  readonly referenceUnthrottled?: boolean;
  /** Tries of only this test from its file, or null. */
  readonly alone: readonly GateTry[] | null;
  /** The tests before it in its file (they run first in every try with its file). */
  readonly before?: readonly string[];
  /**
   * The earlier test of its file whose body writes module-level state (core/cause/source-signals.ts
   * `module-state`), with that line: the test an order-dependent test takes its state from.
   */
  readonly leavesState?: { readonly fullName: string; readonly signal: SourceSignal } | null;
  /** The checks its verdict needed that were not made (inconclusive), as the report says them. */
  readonly missing?: readonly string[];
  /** Supporting lines of its source (core/source/source-signals.ts). */
  readonly signals?: readonly SourceSignal[];
  /** The verdict's reason: a budget finding's cause is its slowest try against its limit. */
  readonly reason?: string;
}

/** The verdicts that get a cause: every one that is not stable. */
export const needsCause = (v: GateVerdict): boolean => v !== 'stable';

interface Decided {
  readonly class: CauseClass;
  readonly evidence: readonly CauseEvidence[];
  /** The fix, where the tries contradict what the source signals would make it. */
  readonly fix?: (at: string) => string;
}

const share = (c: FailureCount): string => `${c.failures}/${c.trials}`;
const x = (f: number): string => `x${f.toFixed(1)}`;

export function findGateCause(input: GateCauseInput): CauseFinding {
  // In the one order of core/cause/cause-rules.ts; the gate reads the rules of its own tries.
  const decided = firstCause<Decided>({
    'network-errors': () => networkRule(input),
    'order-alone': () => orderRule(input),
    'same-seed': () => sameSeedRule(input),
    'cold-vs-warm': () => coldRule(input),
    'slowdown-factor': () => timingRule(input),
    'fails-unthrottled': () => randomRule(input),
  });
  const signals = input.signals ?? [];
  const at = `${input.file}:${input.line}`;
  if (input.verdict === 'over-budget' || input.verdict === 'near-budget') {
    const evidence = [{ kind: 'factor' as const, text: input.reason ?? 'its slowest passing try against its limit' }];
    const found = makeCause('timing', 'measured', evidence, input, signals);
    // A fixed wait in its source is where the time goes; else the test itself, or an allowance.
    const own = signals.some((s) => s.classes.includes('timing'));
    return own ? found : { ...found, fix: `make it faster, or ship the proposed allowance with it, at ${at}` };
  }
  if (decided) {
    const signalled = makeCause(decided.class, 'measured', decided.evidence, input, signals);
    const found = decided.fix ? { ...signalled, fix: decided.fix(at) } : signalled;
    const writer = decided.class === 'order' ? input.leavesState : null;
    // The shared state is written in the earlier test: its line is where the fix goes.
    if (writer) return { ...found, fix: `${writer.signal.fix} at ${input.file}:${writer.signal.line}` };
    return found;
  }
  if (input.verdict === 'failing') {
    const error = allTries(input).find(failedTry)?.error ?? 'no error text';
    const evidence = [{ kind: 'error' as const, text: `fails every try, with and without slowdown: ${error}` }];
    return {
      ...makeCause('unknown', 'measured', evidence, input, signals),
      fix: `fix what the first error names (${error}) at ${at}`,
    };
  }
  if (input.verdict === 'inconclusive') {
    const missing = input.missing ?? [];
    const evidence = [
      {
        kind: 'factor' as const,
        text: `not decided: ${missing.length > 0 ? missing.join('; ') : 'a check it needs was not made'}`,
      },
    ];
    return {
      ...makeCause('unknown', 'measured', evidence, input, signals),
      fix: `give the gate the time its checks need (see missing), then read the cause; the test is at ${at}`,
    };
  }
  return makeCause('unknown', 'measured', [], input, signals);
}

function allTries(i: GateCauseInput): GateTry[] {
  return [
    ...i.reference.tries,
    ...i.confirm,
    ...i.higher.flatMap((l) => l.tries),
    ...(i.unthrottled ?? []),
    ...(i.alone ?? []),
  ];
}

/** Most failed tries name a port, socket or DNS error. */
function networkRule(i: GateCauseInput): Decided | null {
  const failed = allTries(i).filter(failedTry);
  const named = failed.filter((t) => findNetworkSignal(t.error) !== null);
  if (named.length === 0 || named.length * 2 < failed.length) return null;
  const code = findNetworkSignal(named[0]?.error);
  return {
    class: 'network',
    evidence: [{ kind: 'error', text: `${named.length} of ${failed.length} failed tries name ${code}` }],
  };
}

/** Passes with the tests before it in its file, fails alone. */
function orderRule(i: GateCauseInput): Decided | null {
  if (i.verdict !== 'order-dependent' || !i.alone) return null;
  const withFile = countFailures(i.reference.tries);
  const alone = countFailures(i.alone);
  const writer = i.leavesState ?? null;
  const names = writer ? [`"${writer.fullName}"`] : (i.before ?? []).map((n) => `"${n}"`);
  const on = names.length > 0 ? `${names.join(', ')} in ${i.file}` : `the tests before it in ${i.file}`;
  const leaves = writer
    ? [
        {
          kind: 'source' as const,
          text: `"${writer.fullName}" leaves the state: ${writer.signal.text}`,
          line: writer.signal.line,
        },
      ]
    : [];
  return {
    class: 'order',
    evidence: [
      {
        kind: 'alone',
        text: `passed ${withFile.trials - withFile.failures}/${withFile.trials} after ${on}, failed ${alone.failures}/${alone.trials} alone: it depends on ${on}`,
      },
      ...leaves,
    ],
  };
}

/** Its seeded draws fail it: the failed reference tries' seeds failed again without slowdown (paired-seeds.ts). */
function sameSeedRule(i: GateCauseInput): Decided | null {
  const again = sameSeedAgain(i.reference.tries, i.unthrottled ?? []);
  if (again === null) return null;
  const text = `the seeds of ${again.trials} tries that failed at ${x(i.reference.factor)} failed again without slowdown (${share(again)}): its random draws fail it, not the slowdown`;
  return { class: 'random-or-concurrency', evidence: [{ kind: 'factor', text }] };
}

/** Cold start, measured within each check (cold-gap.ts coldFinding). */
function coldRule(i: GateCauseInput): Decided | null {
  return coldFinding({
    reference: [...i.reference.tries, ...i.confirm],
    higher: i.higher.map((l) => l.tries),
    unthrottled: i.unthrottled ?? [],
    alone: i.alone ?? [],
  });
}

/** Failures depend on the slowdown: fragile by the factor test, or more at the reference than unthrottled. */
function timingRule(i: GateCauseInput): Decided | null {
  if (i.verdict === 'fragile') {
    const e = weighFactorEvidence(i.reference, i.higher, i.confirm);
    if (e.breaksAt === null) return null;
    const weak = e.explained ? '' : `, not below ${CAUSE_ALPHA}: a possible limit, too few failures to be sure`;
    const text = `failed ${share(e.above)} tries from ${x(e.breaksAt)} up, ${share(e.below)} at and below ${x(i.reference.factor)} and the factors it held at (one-sided Fisher ${formatPValue(e.pValue ?? 1)}${weak})`;
    return { class: 'timing', evidence: [{ kind: 'factor', text }] };
  }
  if (!i.unthrottled) return null;
  const ref = countFailures(i.reference.tries);
  const idle = countFailures(i.unthrottled);
  if (idle.trials === 0) return null;
  const p = fisherOneSidedP(idle, ref);
  if (p >= CAUSE_ALPHA) return null;
  const text = `failed ${share(ref)} tries at ${x(i.reference.factor)}${i.reference.factor <= 1 ? ' under load' : ''}, ${share(idle)} unthrottled (one-sided Fisher ${formatPValue(p)})`;
  return { class: 'timing', evidence: [{ kind: 'factor', text }] };
}

/** Fails unthrottled too, and no less often than at the reference: the slowdown is not what fails it. */
function randomRule(i: GateCauseInput): Decided | null {
  const tries = i.unthrottled ?? (i.referenceUnthrottled ? i.reference.tries : null);
  if (!tries) return null;
  const idle = countFailures(tries);
  if (idle.failures === 0 || idle.failures === idle.trials) return null;
  const ref = countFailures(i.reference.tries);
  const where = i.unthrottled === null ? '' : `, ${share(ref)} at the reference (${x(i.reference.factor)})`;
  const text = `failed ${share(idle)} tries unthrottled${where}: it fails without any slowdown, at no factor-dependent rate`;
  const mixed = seedDidNotDecide(i.reference.tries, tries);
  if (mixed === null) return { class: 'random-or-concurrency', evidence: [{ kind: 'factor', text }] };
  const seeds = { kind: 'factor' as const, text: SEED_DID_NOT_DECIDE.text(mixed, x(i.reference.factor)) };
  return { class: 'random-or-concurrency', evidence: [{ kind: 'factor', text }, seeds], fix: SEED_DID_NOT_DECIDE.fix };
}
