/**
 * The checks a gate verdict rests on, and the ones it needed that were not made (the time budget ran
 * out before them). A verdict never claims a check it did not make: `failing` needs the tries
 * without slowdown, `stable` for a new test its alone try, `order-dependent` its three alone tries;
 * where one is missing the verdict is `inconclusive` and names it (docs/gate.md "Evidence first").
 * Pure.
 */

import { OFF_FACTOR } from './factor-evidence.js';
import type { GateTry } from './runner-protocol.js';

/** The checks of the gate, in the order it makes them (gate-run.ts). */
type GateCheck = 'reference' | 'unthrottled' | 'alone' | 'alone-again' | 'confirm';

/** A check a verdict (or its cause) needed, with how many tries it needs and how many were made. */
export interface MissingCheck {
  readonly check: GateCheck;
  readonly needed: number;
  readonly made: number;
  /** Tries of it that were made but do not count: failed at more than OFF_FACTOR (the machine was busy). */
  readonly slowed?: number;
  /** What it was for: the verdict itself, or only its cause. */
  readonly for: 'verdict' | 'cause';
}

/** What the gate required of a test's evidence. */
export interface EvidenceRules {
  /** --tries: the reference tries every test gets, and the tries without slowdown a failure gets. */
  readonly minTries: number;
  /** A new test: stable only after its alone try (order dependence). */
  readonly isNew: boolean;
  /** The gate reached its deadline: a check not made was cut, not unneeded. */
  readonly cut: boolean;
}

export const DEFAULT_EVIDENCE_RULES: EvidenceRules = { minTries: 1, isNew: false, cut: false };

/** Tries alone that decide order dependence: one, and two more when the first fails. */
export const ALONE_TRIES = 1;
export const ALONE_AGAIN_TRIES = 2;

const CHECK_WORDS: Readonly<Record<GateCheck, (n: number) => string>> = {
  reference: (n) => `${n} reference ${n === 1 ? 'try' : 'tries'} at the slowdown`,
  unthrottled: (n) => `${n} ${n === 1 ? 'try' : 'tries'} without slowdown, one at a time`,
  alone: (n) => `${n} alone ${n === 1 ? 'try' : 'tries'} (order dependence)`,
  'alone-again': (n) => `${n} more alone ${n === 1 ? 'try' : 'tries'} to tell order dependence from a flake`,
  confirm: (n) => `${n} more ${n === 1 ? 'try' : 'tries'} at the reference to tell a slowdown limit from a flake`,
};

/**
 * The tries without slowdown that are evidence about x1: every pass (it passed at least that
 * slowed), every hang (it ran past its test timeout plus 5 s: no slowdown explains that), every
 * failure whose factor was not measured, and each failure that got at most OFF_FACTOR. A failure the
 * busy machine slowed to x1.9 says how the test fares at x1.9, not at x1.
 */
export function countsAtFactorOne(tries: readonly GateTry[]): GateTry[] {
  return tries.filter(
    (t) => t.state !== 'failed' || t.slowdown === null || t.slowdown === undefined || t.slowdown <= OFF_FACTOR,
  );
}

/** "5 tries without slowdown, one at a time (2 made), for the verdict". */
export function describeMissingCheck(m: MissingCheck): string {
  const slowed = m.slowed
    ? `; ${m.slowed} more failed slowed above x${OFF_FACTOR} by the machine's own load, so they do not count`
    : '';
  const made = m.made > 0 || slowed ? ` (${m.made} made${slowed})` : '';
  return `${CHECK_WORDS[m.check](m.needed - m.made)}${made}, for the ${m.for}`;
}

/** The check as one line of the report's `missing` list, with what would have allowed it. */
export function formatMissingCheck(m: MissingCheck, allowance: string | null): string {
  return allowance === null ? describeMissingCheck(m) : `${describeMissingCheck(m)}: ${allowance}`;
}
