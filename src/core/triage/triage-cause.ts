/**
 * The cause of a triage flake (core/cause/cause.ts): triage sees a red run's texts, not conditions
 * it controlled, so its causes are `inferred`, from the failed attempts' error texts and, with
 * history, the test's stored runs (core/cause/history-cause.ts), by the rules of both in the one
 * order of core/cause/cause-rules.ts: a port, socket or DNS error (the run's own errors, then the
 * stored runs'), one platform, one shard, a timeout (the stored runs', then the run's own); anything
 * else is `unknown` (run `flakeguard gate` on the test to measure it). Pure.
 */
import { type CauseClass, type CauseEvidence, type CauseFinding, makeCause } from '../cause/cause.js';
import { firstCause } from '../cause/cause-rules.js';
import { findNetworkSignal, findTimeoutSignal } from '../cause/error-signals.js';
import { type HistoryDecided, type HistoryRun, historyCauseRules } from '../cause/history-cause.js';
import { testKey } from '../test-id.js';
import type { TriageHistory } from './triage-history-facts.js';
import type { Finding, ObservedTest } from './triage-types.js';

export interface TriageCauseInput {
  readonly file: string | null;
  readonly line: number | null;
  /** The failed attempts' error texts. */
  readonly errors: readonly string[];
  /** The test's stored runs on the branch (triage with history), newest first. */
  readonly history?: readonly HistoryRun[];
}

export function findTriageCause(input: TriageCauseInput): CauseFinding {
  const place = { file: input.file ?? 'its test file', line: input.line };
  const past = historyCauseRules(input.history ?? []);
  const fromPast = (rule: (() => HistoryDecided | null) | undefined) => () => {
    const d = rule?.() ?? null;
    return d === null ? null : makeCause(d.class, 'inferred', d.evidence, place);
  };
  const own = (find: (e: string) => string | null, cls: CauseClass, says: (what: string) => string) => () => {
    const found = input.errors.map(find).find((c) => c !== null);
    return found ? makeCause(cls, 'inferred', [errorEvidence(says(found))], place) : null;
  };
  return (
    firstCause<CauseFinding>({
      'network-errors': () =>
        own(findNetworkSignal, 'network', (code) => `names ${code}`)() ?? fromPast(past['network-errors'])(),
      'one-platform': fromPast(past['one-platform']),
      'one-shard': fromPast(past['one-shard']),
      'timeout-errors': () =>
        fromPast(past['timeout-errors'])() ?? own(findTimeoutSignal, 'timing', (limit) => `says "${limit}"`)(),
    }) ?? makeCause('unknown', 'inferred', [], place)
  );
}

function errorEvidence(says: string): CauseEvidence {
  return {
    kind: 'error',
    text: `the failed attempt's error ${says} (from the run's texts; flakeguard gate measures it)`,
  };
}

/** Each flake finding with the cause its test's errors (and stored runs, with history) infer; other findings unchanged. */
export function attachFlakeCauses(
  findings: readonly Finding[],
  tests: readonly ObservedTest[],
  history: TriageHistory | null = null,
): Finding[] {
  const pastOf = new Map((history?.tests ?? []).map((t) => [testKey(t), t.outcomes ?? []]));
  return findings.map((f) => {
    if (f.class !== 'flake') return f;
    const observed = tests.filter(
      (t) =>
        t.fullName === f.fullName &&
        (f.file === null || t.file === f.file) &&
        (f.project === null || t.project === null || t.project === f.project),
    );
    const errors = observed.flatMap((t) => t.errors);
    const line = observed.find((t) => t.line !== null)?.line ?? null;
    const past = f.file === null || f.fullName === null ? undefined : pastOf.get(testKey(f));
    return { ...f, flakeCause: findTriageCause({ file: f.file, line, errors, ...(past ? { history: past } : {}) }) };
  });
}
