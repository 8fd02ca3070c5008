/**
 * The replay row's rule (docs/gate.md "The checks as rows", issue 46 item 2): for a test whose
 * verdict is of a flaky kind, the fewest conditions of its failed tries that should make it fail
 * again, by its cause: its seed (random), the lowest factor it failed at (timing), a fresh worker
 * (cold start), only it from its file (order: it fails without the earlier tests). Each condition
 * is one a failed try had; what the replay cannot make is said, for when it does not fail. The
 * row itself is here too (gate-checks.ts lists it last). Pure.
 */
import type { CauseClass } from '../cause/cause.js';
import { ALONE_CALL, conditionsOf } from './check-rules.js';
import type { CheckId, CheckRow, TestCall, TestEvidence } from './check-types.js';
import { failedTry } from './factor-evidence.js';
import type { GateVerdict } from './gate-verdict-types.js';

/** Tries per replay: cheap next to the gate's, enough to say "5/5". */
export const REPLAY_TRIES = 5;
/**
 * Tries per replay where each costs a fresh worker or a slowed run (a cold start's, a timing
 * failure's): 3, so the row stays a small share of the gate (bench/replay.mjs --evidence: 5 such
 * tries put it at +14-17% of the gate, over the 15% it may add).
 */
export const COSTLY_REPLAY_TRIES = 3;

/** The verdicts a replay is for: the flaky kinds (not failing, not a budget finding, not undecided). */
const FLAKY_KINDS: ReadonlySet<GateVerdict> = new Set(['flaky', 'fragile', 'order-dependent']);

/** The checks whose tries ran without slowdown: a random flake's seed is best taken from one of them. */
const AT_FACTOR_ONE: readonly CheckId[] = ['unthrottled', 'cause', 'reversed', 'alone', 'alone-again'];
/** The checks whose tries ran slowed (at the reference or above it). */
const SLOWED: readonly CheckId[] = ['reference', 'higher', 'confirm'];

export interface ReplayChoice {
  readonly call: TestCall;
  readonly cause: CauseClass;
  /** The condition of its failed tries a replay does not make: what the report says when it did not fail again. */
  readonly uncontrolled: string;
}

const UNCONTROLLED: Readonly<Record<'random-or-concurrency' | 'timing' | 'cold-start' | 'order', string>> = {
  'random-or-concurrency':
    'its seed alone did not fail it: the failure needs what ran beside it (the earlier tests of its file, other workers), a random source the seed does not cover (node:crypto without --seed-node-crypto, a generator of its own) or state outside the process (a file an earlier try wrote, the clock)',
  timing:
    "the failure needs the busy machine's load beside the slowdown (the gate's busy workers, the other files' tries side by side), which a replay does not make",
  'cold-start':
    "the failure needs its whole file's cold start (an earlier test's first-time work in a fresh worker), which a replay of the test alone does not make",
  order:
    'alone it passed here: the state it misses is left by more than the earlier tests of its file (another file in the same worker, a file an earlier run wrote)',
};

const call = (more: Partial<Omit<TestCall, 'tries'>>): TestCall => {
  const conditions = { seed: null, factor: 1, cold: false, ...more };
  const costly = conditions.cold || conditions.factor > 1;
  return { ...conditions, tries: costly ? COSTLY_REPLAY_TRIES : REPLAY_TRIES };
};

/** The replay a test wants, or null: its verdict is not of a flaky kind, or its cause is none a replay can make. */
export function chooseReplay(e: TestEvidence): ReplayChoice | null {
  const j = e.judged;
  if (j === undefined || !FLAKY_KINDS.has(j.verdict) || j.cause === null) return null;
  // A replay makes a failure it saw fail again: without a failed try there is nothing to replay.
  if (!allTries(e).some(failedTry)) return null;
  switch (j.cause) {
    case 'random-or-concurrency': {
      const seed = failedSeed(e, AT_FACTOR_ONE) ?? failedSeed(e, SLOWED);
      return seed === null ? null : { call: call({ seed }), cause: j.cause, uncontrolled: UNCONTROLLED[j.cause] };
    }
    case 'timing': {
      const factor = lowestFailedFactor(e);
      return { call: call({ factor: factor ?? 1 }), cause: j.cause, uncontrolled: UNCONTROLLED[j.cause] };
    }
    case 'cold-start': {
      const cold = allTries(e).some((x) => failedTry(x) && x.cold === true);
      return cold ? { call: call({ cold }), cause: j.cause, uncontrolled: UNCONTROLLED[j.cause] } : null;
    }
    case 'order': {
      const alone = e.tries('alone', 'alone-again').some(failedTry);
      return alone ? { call: call({}), cause: j.cause, uncontrolled: UNCONTROLLED[j.cause] } : null;
    }
    case 'network':
    case 'unknown':
      return null;
    default: {
      const never: never = j.cause;
      return never;
    }
  }
}

const allTries = (e: TestEvidence) => e.tries(...AT_FACTOR_ONE, ...SLOWED);

/** The seed of the first failed seeded try of those checks, or null. */
function failedSeed(e: TestEvidence, checks: readonly CheckId[]): number | null {
  return e.tries(...checks).find((x) => failedTry(x) && x.seed !== undefined)?.seed ?? null;
}

/** The lowest slowdown (above 1) asked of a round in which a try failed, or null: it failed only without one. */
function lowestFailedFactor(e: TestEvidence): number | null {
  const factors = SLOWED.flatMap((c) => e.rounds(c))
    .filter((r) => r.asked > 1 && r.tries.some(failedTry))
    .map((r) => r.asked);
  return factors.length === 0 ? null : Math.min(...factors);
}

/** The replay row of the gate's checks (gate-checks.ts GATE_CHECKS): last, a nice-to-have, a call per test. */
export const REPLAY_ROW: CheckRow = {
  id: 'replay',
  kind: 'nice-to-have',
  question:
    'does the replay of a flaky verdict (the fewest conditions of its failed tries: its seed, the lowest factor it failed at, a fresh worker, alone) fail again?',
  conditions: conditionsOf('the lowest it failed at', 'fresh, then warm repeats', { serial: true, alone: true }),
  cost: `${REPLAY_TRIES} tries of the test alone per flaky verdict, one warm worker each (${COSTLY_REPLAY_TRIES} where a try is slowed, or a fresh worker for a cold start); one call per set of conditions, one after the other`,
  readsVerdicts: true,
  rounds: () => [
    {
      why: 'with a flaky verdict, replayed',
      label: 'replay',
      wants: (t) => chooseReplay(t) !== null && t.tries('replay').length === 0,
      call: {
        ...ALONE_CALL,
        tries: REPLAY_TRIES,
        how: `${REPLAY_TRIES} tries each (${COSTLY_REPLAY_TRIES} slowed or in fresh workers), only it from its file, under the fewest conditions of its own failed tries`,
      },
      perTest: (t) => chooseReplay(t)?.call ?? null,
    },
  ],
};

/**
 * The tests of a per-test round grouped by their call: tests under the same conditions (the same
 * factor, cold or warm, as many tries) share one call, each only it from its file, side by side,
 * each with its own seed (the runner's plan carries a seed per test). First-seen order.
 */
export function groupTestCalls<T>(
  planned: readonly { readonly test: T; readonly call: TestCall }[],
): { readonly tests: readonly { readonly test: T; readonly seed: number | null }[]; readonly call: SharedCall }[] {
  const groups = new Map<string, { tests: { test: T; seed: number | null }[]; call: SharedCall }>();
  for (const { test, call } of planned) {
    const { seed, ...shared } = call;
    const key = `${call.factor}|${call.cold}|${call.tries}`;
    const group = groups.get(key);
    if (group) group.tests.push({ test, seed });
    else groups.set(key, { tests: [{ test, seed }], call: shared });
  }
  return [...groups.values()];
}

/** What the tests of one call share: all of a test's call but its seed. */
type SharedCall = Omit<TestCall, 'seed'>;
