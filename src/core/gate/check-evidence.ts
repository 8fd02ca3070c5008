/**
 * The gate's evidence: one map keyed by (test, check), each entry the rounds of that check the test
 * was in, each round the factor it asked for, the factor its tries got and the tries (docs/gate.md
 * "The checks as rows"). Every check writes here and the verdicts, the causes and the plan read
 * here. Pure.
 */

import { tupleKey } from '../tuple-key.js';
import type { CheckId, EvidenceRound, TestEvidence, TestJudgement } from './check-types.js';
import type { GateTry } from './runner-protocol.js';

export type Evidence = Map<string, EvidenceRound[]>;

const evidenceKey = (test: string, check: CheckId): string => tupleKey([test, check]);

export const emptyEvidence = (): Evidence => new Map();

/** Adds one round of a check to a test's evidence. */
export function addRound(evidence: Evidence, test: string, check: CheckId, round: EvidenceRound): void {
  const key = evidenceKey(test, check);
  evidence.set(key, [...(evidence.get(key) ?? []), round]);
}

/** The rounds of a check a test was in, first to last. */
const roundsOf = (evidence: Evidence, test: string, check: CheckId): readonly EvidenceRound[] =>
  evidence.get(evidenceKey(test, check)) ?? [];

/** Every try of the given checks, in the checks' order then the rounds'. */
const triesOf = (evidence: Evidence, test: string, ...checks: readonly CheckId[]): readonly GateTry[] =>
  checks.flatMap((c) => roundsOf(evidence, test, c).flatMap((r) => r.tries));

export function viewOf(evidence: Evidence, test: string, isNew: boolean): TestEvidence {
  return {
    isNew,
    tries: (...checks) => triesOf(evidence, test, ...checks),
    rounds: (check) => roundsOf(evidence, test, check),
  };
}

/** A test's evidence with its verdict and cause so far, for a row that reads verdicts (core/gate/replay-choice.ts). */
export const withJudgement = (view: TestEvidence, judged: TestJudgement | undefined): TestEvidence =>
  judged === undefined ? view : { ...view, judged };
