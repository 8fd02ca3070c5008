/**
 * The cause of a triage flake (core/cause/cause.ts): triage sees a red run's texts, not conditions
 * it controlled, so its causes are `inferred`, from the failed attempts' error texts: a port, socket
 * or DNS error names `network`; a timeout names `timing`; anything else is `unknown` (run
 * `flakeguard gate` on the test to measure it). Pure.
 */

import { type CauseEvidence, type CauseFinding, makeCause } from '../cause/cause.js';
import { findNetworkSignal } from '../cause/error-signals.js';
import type { Finding, ObservedTest } from './triage-types.js';

const TIMEOUT =
  /Test timed out in \d+ ?ms|Hook timed out in \d+ ?ms|timed? ?out after \d+|exceeded timeout|Timeout of \d+ ?ms exceeded/i;

export interface TriageCauseInput {
  readonly file: string | null;
  readonly line: number | null;
  /** The failed attempts' error texts. */
  readonly errors: readonly string[];
}

export function findTriageCause(input: TriageCauseInput): CauseFinding {
  const place = { file: input.file ?? 'its test file', line: input.line };
  const network = input.errors.map((e) => findNetworkSignal(e)).find((c) => c !== null);
  if (network) return makeCause('network', 'inferred', [errorEvidence(`names ${network}`)], place);
  const timeout = input.errors.find((e) => TIMEOUT.test(e));
  if (timeout) {
    const what = TIMEOUT.exec(timeout)?.[0] ?? 'a timeout';
    return makeCause('timing', 'inferred', [errorEvidence(`says "${what}"`)], place);
  }
  return makeCause('unknown', 'inferred', [], place);
}

function errorEvidence(says: string): CauseEvidence {
  return {
    kind: 'error',
    text: `the failed attempt's error ${says} (from the run's texts; flakeguard gate measures it)`,
  };
}

/** Each flake finding with the cause its test's errors infer; other findings unchanged. */
export function attachFlakeCauses(findings: readonly Finding[], tests: readonly ObservedTest[]): Finding[] {
  return findings.map((f) => {
    if (f.class !== 'flake') return f;
    const observed = tests.filter((t) => t.name === f.test && (f.file === null || t.file === f.file));
    const errors = observed.flatMap((t) => t.errors);
    const line = observed.find((t) => t.line !== null)?.line ?? null;
    return { ...f, flakeCause: findTriageCause({ file: f.file, line, errors }) };
  });
}
