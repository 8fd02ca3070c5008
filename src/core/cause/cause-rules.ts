/**
 * The rules that decide a flaky test's cause class, in one precedence order for every evidence
 * source: the gate's own tries (core/gate/gate-cause.ts), the history store's runs
 * (core/cause/history-cause.ts) and a red run's texts, with history when it is on
 * (core/triage/triage-cause.ts). Each source gives the rules it can read; the first of them in this
 * order that decides wins, and none deciding is `unknown`. A new rule is one row here (docs/gate.md
 * "Why it is flaky" has the same rows, checked by test/docs-tables.test.ts) and its function in the
 * sources that can read it. Pure.
 */
import type { CauseClass } from './cause.js';

type Source = 'gate' | 'history' | 'triage';

interface CauseRule {
  readonly id: string;
  readonly class: CauseClass;
  /** The sources that read this rule. */
  readonly sources: readonly Source[];
}

export const CAUSE_RULES = [
  { id: 'network-errors', class: 'network', sources: ['gate', 'history', 'triage'] },
  { id: 'order-alone', class: 'order', sources: ['gate'] },
  { id: 'same-seed', class: 'random-or-concurrency', sources: ['gate'] },
  { id: 'cold-vs-warm', class: 'cold-start', sources: ['gate'] },
  { id: 'slowdown-factor', class: 'timing', sources: ['gate'] },
  { id: 'one-platform', class: 'timing', sources: ['history', 'triage'] },
  { id: 'one-shard', class: 'order', sources: ['history', 'triage'] },
  { id: 'timeout-errors', class: 'timing', sources: ['history', 'triage'] },
  { id: 'fails-unthrottled', class: 'random-or-concurrency', sources: ['gate'] },
] as const satisfies readonly CauseRule[];

type CauseRuleId = (typeof CAUSE_RULES)[number]['id'];

/** What a source's rule gives when it decides: at least the class of its row. */
interface Decision {
  readonly class: CauseClass;
}

/** A source's rules by id; each is asked only when every rule before it in CAUSE_RULES did not decide. */
export type CauseRuleSet<D extends Decision> = Partial<Record<CauseRuleId, () => D | null>>;

/** The first decision, in CAUSE_RULES' order, of the rules a source gives; null when none decides. */
export function firstCause<D extends Decision>(rules: CauseRuleSet<D>): D | null {
  for (const row of CAUSE_RULES) {
    const decided = rules[row.id]?.() ?? null;
    if (decided !== null) return decided;
  }
  return null;
}
