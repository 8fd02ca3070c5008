/**
 * The cause of a triage flake (core/cause/cause.ts): triage sees a red run's texts, not conditions
 * it controlled, so its causes are `inferred`, from the failed attempts' error texts: a port, socket
 * or DNS error names `network`; with history, the test's stored runs next (core/cause/
 * history-cause.ts: one platform, one shard, their errors); then a timeout names `timing`; anything
 * else is `unknown` (run `flakeguard gate` on the test to measure it). Pure.
 */
import { type CauseEvidence, type CauseFinding, makeCause } from '../cause/cause.js';
import { findNetworkSignal, findTimeoutSignal } from '../cause/error-signals.js';
import { decideHistoryCause, type HistoryRun } from '../cause/history-cause.js';
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
  const network = input.errors.map((e) => findNetworkSignal(e)).find((c) => c !== null);
  if (network) return makeCause('network', 'inferred', [errorEvidence(`names ${network}`)], place);
  const past = decideHistoryCause(input.history ?? []);
  if (past) return makeCause(past.class, 'inferred', past.evidence, place);
  const timeout = input.errors.map((e) => findTimeoutSignal(e)).find((t) => t !== null);
  if (timeout) return makeCause('timing', 'inferred', [errorEvidence(`says "${timeout}"`)], place);
  return makeCause('unknown', 'inferred', [], place);
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
