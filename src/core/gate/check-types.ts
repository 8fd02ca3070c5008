/**
 * The shapes of the gate's checks as rows (gate-checks.ts holds the table): a row, its rounds, the
 * call each round makes and the context its rules read. Pure types.
 */
import type { CauseClass } from '../cause/cause.js';
import type { GateVerdict } from './gate-verdict-types.js';
import type { GateTry } from './runner-protocol.js';

export type CheckId =
  | 'reference'
  | 'unthrottled'
  | 'reversed'
  | 'alone'
  | 'alone-again'
  | 'cause'
  | 'higher'
  | 'confirm'
  | 'replay';

/** What a row's tries run under. */
export interface CheckConditions {
  /** The slowdown: the reference factor, none, the factors above the reference, or the lowest one its failed tries had (a replay). */
  readonly factor: 'reference' | 'none' | 'above the reference' | 'the lowest it failed at';
  /** The busy workers (--workers) run beside the tries. */
  readonly load: boolean;
  /** One try at a time. */
  readonly serial: boolean;
  /** Only the test from its file (by its line), not its file. */
  readonly alone: boolean;
  /** The file's tests as written, or in reverse order (each test after those written below it). */
  readonly order: 'as written' | 'reversed';
  /** A fresh worker for every try, or cold tries then warm repeats inside one worker where the test is cheap. */
  readonly worker: 'fresh' | 'fresh, then warm repeats';
  /** The CPU weight of the tries' cgroup: the pacer's, or the highest the kernel allows (the machine's own load must not slow them). */
  readonly weight: 'pacer' | 'highest';
}

/** What the rules read beside a test's evidence: the gate's options. */
export interface CheckContext {
  /** --tries. */
  readonly tries: number;
  /** --max-tries. */
  readonly maxTries: number;
  /** The reference slowdown asked for (1: none). */
  readonly slowdown: number;
  /** The reference tries run slowed down or under load (else they are the tries without slowdown). */
  readonly loaded: boolean;
}

/** How one round's tries are made. */
export interface RoundCall {
  /** The slowdown asked (1: none). */
  readonly factor: number;
  readonly load: boolean;
  readonly serial: boolean;
  readonly alone: boolean;
  readonly unslowed: boolean;
  /** Each file's tests in reverse order (absent: as written). */
  readonly reversed?: boolean;
  /** Tries every test of the round gets (cold, each a fresh worker, unless `coldTries` says fewer). */
  readonly tries: number;
  /** Warm repeats after the cold tries, up to `maxTries` tries in all, while `budgetShare` of the time to the deadline lasts. */
  readonly warm?: { readonly coldTries: number; readonly maxTries: number; readonly budgetShare: number };
  /**
   * Its warm repeats replay the reference tries' seeds first, the failed ones before the passed
   * (paired-seeds.ts): a failure its draws make fails again without slowdown.
   */
  readonly pairsSeeds?: boolean;
  /**
   * Not serial: side by side, one worker per core (each still has a core of its own; a try the
   * machine slowed above OFF_FACTOR anyway does not count, and the cause row tries it again one at
   * a time).
   */
  readonly perCore?: boolean;
  /** How the step line says the tries ("5 tries each"). */
  readonly how: string;
}

/**
 * The call of one test in a round whose tests each get their own (a replay): the seed its random
 * source starts from in every try, the factor it is paced to, cold tries or one then warm repeats.
 * Only the test from its file, as `flakeguard replay` runs it.
 */
export interface TestCall {
  /** A fixed seed for every try, or null: each try its own (the gate's). */
  readonly seed: number | null;
  /** The slowdown asked (1: none). */
  readonly factor: number;
  /** Each try a fresh worker, one at a time; else one worker, the tries after the first as warm repeats. */
  readonly cold: boolean;
  readonly tries: number;
}

export interface CheckRound {
  /** Why its tests are in it, as the step line says it ("that failed every reference try"). */
  readonly why: string;
  /** The progress line's name for it ("alone", "at x4"). */
  readonly label: string;
  /** Its name among the phases whose factor the contention line compares, when it is one. */
  readonly phase?: string;
  readonly wants: (t: TestEvidence) => boolean;
  readonly call: RoundCall;
  /** Each wanted test its own call (the loop runs them one after the other), instead of one call for all. */
  readonly perTest?: (t: TestEvidence) => TestCall | null;
}

export interface CheckRow {
  readonly id: CheckId;
  readonly kind: 'must-have' | 'nice-to-have';
  /** The question it answers. */
  readonly question: string;
  readonly conditions: CheckConditions;
  /** What it costs, said. */
  readonly cost: string;
  /** Its rules read each test's verdict and cause as the evidence so far decides them (`TestEvidence.judged`). */
  readonly readsVerdicts?: boolean;
  /** A test in a round whose outcome did not report it still gets the round, with no tries (the climb stops there). */
  readonly keepsEmptyRounds?: boolean;
  /** The round's calls are not nice-to-have cuts when the deadline ends them (the climb stops at the deadline). */
  readonly rounds: (ctx: CheckContext) => readonly CheckRound[];
}

/** One call of a check as one test saw it. */
export interface EvidenceRound {
  /** The slowdown the call asked for (1: none). */
  readonly asked: number;
  /** The factor the call's tries measurably got, or null when none could be measured. */
  readonly got: number | null;
  readonly tries: readonly GateTry[];
}

/** A test's verdict and cause as its evidence so far decides them (core/gate/gate-verdict.ts, gate-cause.ts). */
export interface TestJudgement {
  readonly verdict: GateVerdict;
  /** Its cause's class, or null: none (a stable or budget verdict has none that a replay makes). */
  readonly cause: CauseClass | null;
}

/** What a check's rule reads of one test: whether it is new, and its tries in every check so far. */
export interface TestEvidence {
  readonly isNew: boolean;
  /** Its verdict and cause so far, for a row that reads verdicts (absent for the others). */
  readonly judged?: TestJudgement;
  readonly tries: (...checks: readonly CheckId[]) => readonly GateTry[];
  readonly rounds: (check: CheckId) => readonly EvidenceRound[];
}
