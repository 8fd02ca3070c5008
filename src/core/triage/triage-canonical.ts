/**
 * One order for the inputs, whatever order the edge gathered them in (shards, flags, files): every
 * pass of computeTriage then sees the same thing, so a permutation of the inputs gives the same
 * findings with the same evidence (a fast-check property checks it).
 */
import type { ObservationSource, TriageInputs } from './triage-types.js';

const SOURCE_ORDER: Record<ObservationSource, number> = { record: 0, report: 1, junit: 2, log: 3 };

const text = (v: unknown): string => JSON.stringify(v) ?? '';

function byKey<T>(items: readonly T[], key: (t: T) => string): T[] {
  return items
    .map((item) => ({ item, k: key(item) }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
    .map((x) => x.item);
}

export function canonicalInputs(inputs: TriageInputs): TriageInputs {
  return {
    ...inputs,
    // The source first (the merge prefers a record to a report to JUnit to the log), then the whole entry.
    tests: byKey(inputs.tests, (t) => `${SOURCE_ORDER[t.source]}\u0000${text(t)}`),
    files: byKey(inputs.files, text),
    unhandled: byKey(inputs.unhandled, text),
    excesses: byKey(inputs.excesses, text),
    problems: byKey(inputs.problems, text),
    logs: byKey(inputs.logs, (l) => `${l.input}\u0000${l.lines}\u0000${text(l.events)}`),
    reruns: inputs.reruns === null ? null : byKey(inputs.reruns, text),
  };
}
