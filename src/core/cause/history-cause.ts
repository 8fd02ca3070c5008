/**
 * The cause of a flake seen across many CI runs (issue 28 part 4), from what the history store
 * keeps of each run: its platform, its shard, and the failure's first error. The runs are not
 * conditions flakeguard controlled, so every class here is `inferred`:
 * - most failed runs' errors name a port, socket or DNS error -> network;
 * - it failed only on one platform, passed on others, significantly so -> timing (the platform's
 *   speed: the same wait is long enough on one machine and not on another);
 * - it failed only in one shard, passed in others, significantly so -> order (the files that run
 *   before it in that shard leave state it depends on);
 * - most failed runs' errors say a time limit ran out -> timing;
 * else no class (null; findHistoryCause says `unknown`). Pure.
 */
import { type FailureCount, fisherOneSidedP, formatPValue } from '../fisher-exact.js';
import { CAUSE_ALPHA, type CauseClass, type CauseEvidence, type CauseFinding, makeCause } from './cause.js';
import { type CauseRuleSet, firstCause } from './cause-rules.js';
import { findNetworkSignal, findTimeoutSignal } from './error-signals.js';

/** One stored run of the test that passed or failed. */
export interface HistoryRun {
  readonly platform: string;
  /** "2/4" in a sharded run, else null. */
  readonly shard: string | null;
  readonly state: 'passed' | 'failed';
  /** Passed only after a retry: it failed a try in this run. */
  readonly flaky: boolean;
  /** The first error of its failed try, when the store kept one. */
  readonly error: string | null;
  /**
   * How many runs this one stands for, alike in all of the above (1 when absent): the history
   * report gives a group's clean passes as one, not one object per run of a long window.
   */
  readonly count?: number;
}

export interface HistoryDecided {
  readonly class: CauseClass;
  readonly evidence: readonly CauseEvidence[];
}

/** Failed, or passed only on a retry. */
const flakedRun = (r: HistoryRun): boolean => r.state === 'failed' || r.flaky;

/** The runs the entries stand for. */
const runsIn = (runs: readonly HistoryRun[]): number => runs.reduce((n, r) => n + (r.count ?? 1), 0);

const share = (c: FailureCount): string => `${c.failures}/${c.trials}`;
const history = (text: string): CauseEvidence => ({ kind: 'history', text });

/** Most failed runs with an error text name the same kind of signal. */
function textRule(
  runs: readonly HistoryRun[],
  find: (e: string | null) => string | null,
  cls: CauseClass,
  says: (what: string) => string,
): HistoryDecided | null {
  const texts = runs.filter(flakedRun).filter((r) => r.error !== null);
  const withText = runsIn(texts);
  const found = texts.map((r) => ({ r, signal: find(r.error) })).filter((f) => f.signal !== null);
  const named = runsIn(found.map((f) => f.r));
  if (named === 0 || named * 2 < withText) return null;
  return {
    class: cls,
    evidence: [history(`${named} of ${withText} failed runs' errors ${says(found[0]?.signal as string)}`)],
  };
}

/**
 * The one group (platform, shard) every flaked run is in, when the test also ran outside it and
 * failed there significantly less (one-sided Fisher, never failed outside by construction).
 */
function confinedTo(
  runs: readonly HistoryRun[],
  groupOf: (r: HistoryRun) => string | null,
): { group: string; inside: FailureCount; outside: FailureCount; others: string[]; p: number } | null {
  const flaked = runs.filter(flakedRun);
  const groups = new Set(flaked.map(groupOf));
  const [group] = groups;
  if (groups.size !== 1 || group === null || group === undefined) return null;
  const inGroup = runs.filter((r) => groupOf(r) === group);
  const outside = runs.filter((r) => groupOf(r) !== null && groupOf(r) !== group);
  if (runsIn(outside) === 0) return null;
  const inside = { failures: runsIn(flaked), trials: runsIn(inGroup) };
  const out = { failures: 0, trials: runsIn(outside) };
  const p = fisherOneSidedP(out, inside);
  if (p >= CAUSE_ALPHA) return null;
  const others = [...new Set(outside.map((r) => groupOf(r) as string))].sort();
  return { group, inside, outside: out, others, p };
}

function platformRule(runs: readonly HistoryRun[]): HistoryDecided | null {
  const c = confinedTo(runs, (r) => r.platform);
  if (c === null) return null;
  const text = `failed ${share(c.inside)} runs on ${c.group}, ${share(c.outside)} on ${c.others.join(', ')} (one-sided Fisher ${formatPValue(c.p)}): it fails only on ${c.group}, at that platform's speed`;
  return { class: 'timing', evidence: [history(text)] };
}

function shardRule(runs: readonly HistoryRun[]): HistoryDecided | null {
  const c = confinedTo(runs, (r) => r.shard);
  if (c === null) return null;
  const text = `failed ${share(c.inside)} runs in shard ${c.group}, ${share(c.outside)} in shards ${c.others.join(', ')} (one-sided Fisher ${formatPValue(c.p)}): it depends on the test files that run before it in shard ${c.group}`;
  return { class: 'order', evidence: [history(text)] };
}

/** The rules the stored runs can decide (core/cause/cause-rules.ts), each on these runs. */
export function historyCauseRules(runs: readonly HistoryRun[]): CauseRuleSet<HistoryDecided> {
  return {
    'network-errors': () => textRule(runs, findNetworkSignal, 'network', (code) => `name ${code}`),
    'one-platform': () => platformRule(runs),
    'one-shard': () => shardRule(runs),
    'timeout-errors': () => textRule(runs, findTimeoutSignal, 'timing', (limit) => `say "${limit}"`),
  };
}

/** The class the stored runs tell, or null when they do not decide one. */
export function decideHistoryCause(runs: readonly HistoryRun[]): HistoryDecided | null {
  return firstCause(historyCauseRules(runs));
}

/** The finding for a flaky test of the history report: its class from its runs, `unknown` when they do not decide. */
export function findHistoryCause(input: {
  readonly file: string;
  readonly line: number | null;
  readonly runs: readonly HistoryRun[];
}): CauseFinding {
  const decided = decideHistoryCause(input.runs);
  return decided === null
    ? makeCause('unknown', 'inferred', [], input)
    : makeCause(decided.class, 'inferred', decided.evidence, input);
}
