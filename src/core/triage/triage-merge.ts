/**
 * Several inputs describe the same run (records, JSON reports, JUnit, the log; one per shard):
 * merge their observations into one entry per test (project, file and full name: `testKey`),
 * keeping every origin as evidence. Priority for the state: record, then report, then JUnit, then
 * the log (a crash leaves JUnit saying "passed" where the JSON report says "pending").
 *
 * An input that cannot name the project (a JSON report, JUnit, a log line without `|name|`: project
 * null) joins the entry of the one project that has the test, or of the one that failed it when its
 * own observation failed; when that is still more than one project, it stays an entry of its own
 * with the project unknown rather than being given to a project it may not be from. A name without
 * a file joins the one file that has the name, the same way.
 */

import { refKey, testKey } from '../test-id.js';
import type { AttemptRef } from './log-attempts.js';
import type { ObservationSource, ObservedState, ObservedTest } from './triage-types.js';

export interface MergedTest {
  readonly kind: ObservedTest['kind'];
  /** The project an input named ('' unnamed), or null when none did. */
  readonly project: string | null;
  readonly file: string | null;
  readonly fullName: string;
  readonly line: number | null;
  readonly state: ObservedState;
  readonly durationMs: number | null;
  readonly limitMs: number | null;
  readonly errors: readonly string[];
  readonly origins: readonly string[];
  readonly sources: readonly ObservationSource[];
  /** The failed attempts any input named (Vitest 5's FAIL line labels); empty when none did. */
  readonly failedAttempts: readonly AttemptRef[];
  /** The tool that wrote every input that saw this test, when it is not Vitest (no Vitest re-run then). */
  readonly foreign: string | null;
}

const PRIORITY: Record<ObservationSource, number> = { record: 0, report: 1, junit: 2, log: 3 };

/** The one candidate entry an observation that left something out joins, or null. */
function pickEntry(
  candidates: ReadonlySet<string> | undefined,
  o: ObservedTest,
  byKey: Map<string, ObservedTest[]>,
): string | null {
  const all = [...(candidates ?? [])];
  if (all.length === 1) return all[0] ?? null;
  const sameState = all.filter((k) => (byKey.get(k) ?? []).some((x) => x.state === o.state));
  return o.state === 'failed' && sameState.length === 1 ? (sameState[0] ?? null) : null;
}

const add = <V>(m: Map<string, Set<V>>, k: string, v: V): Map<string, Set<V>> =>
  m.set(k, (m.get(k) ?? new Set()).add(v));

/** The observations of each test, keyed as the first pass found them (see the file's comment). */
function groupObservations(observations: readonly ObservedTest[]): Map<string, ObservedTest[]> {
  const sorted = [...observations].sort((a, b) => PRIORITY[a.source] - PRIORITY[b.source]);
  const byKey = new Map<string, ObservedTest[]>();
  const put = (key: string, o: ObservedTest): void => void byKey.set(key, [...(byKey.get(key) ?? []), o]);
  const byRef = new Map<string, Set<string>>();
  const byName = new Map<string, Set<string>>();
  for (const o of sorted) {
    if (o.file === null || o.project === null) continue;
    const key = testKey(o);
    put(key, o);
    add(byRef, refKey({ file: o.file, fullName: o.fullName }), key);
    add(byName, o.fullName, key);
  }
  for (const o of sorted) {
    if (o.file === null || o.project !== null) continue;
    const key = pickEntry(byRef.get(refKey({ file: o.file, fullName: o.fullName })), o, byKey) ?? testKey(o);
    if (!byKey.has(key)) add(byName, o.fullName, key);
    put(key, o);
  }
  for (const o of sorted) {
    if (o.file !== null) continue;
    // A name without a file joins only an entry of its own project (any, when it names none).
    const fits = (k: string): boolean =>
      o.project === null || (byKey.get(k) ?? []).every((x) => x.project === null || x.project === o.project);
    put(pickEntry(new Set([...(byName.get(o.fullName) ?? [])].filter(fits)), o, byKey) ?? testKey(o), o);
  }
  return byKey;
}

/** One test's observations (in priority order) as one entry. */
function mergeGroup(group: readonly ObservedTest[], first: ObservedTest): MergedTest {
  const top = group.filter((o) => PRIORITY[o.source] === PRIORITY[first.source]);
  const chosen = top.find((o) => o.state === 'failed') ?? first;
  const errors: string[] = [];
  // A passed test keeps only errors that passed observations carry (a pass after retries); a log
  // line of another attempt or run does not make it a flake.
  const carriers = chosen.state === 'passed' ? group.filter((o) => o.state === 'passed') : [chosen, ...group];
  for (const o of carriers) for (const e of o.errors) if (!errors.includes(e)) errors.push(e);
  return {
    kind: group.some((o) => o.kind === 'suite') ? 'suite' : group.some((o) => o.kind === 'file') ? 'file' : chosen.kind,
    project: group.find((o) => o.project !== null)?.project ?? null,
    file: group.find((o) => o.file !== null)?.file ?? null,
    fullName: chosen.fullName,
    line: group.find((o) => o.line !== null)?.line ?? null,
    state: chosen.state,
    durationMs: group.find((o) => o.durationMs !== null)?.durationMs ?? null,
    limitMs: group.find((o) => o.limitMs !== null)?.limitMs ?? null,
    errors,
    origins: group.map((o) => o.origin),
    sources: [...new Set(group.map((o) => o.source))],
    failedAttempts: group.flatMap((o) => o.failedAttempts ?? []),
    foreign: group.every((o) => o.foreign !== undefined) ? (first.foreign ?? null) : null,
  };
}

export function mergeObservations(observations: readonly ObservedTest[]): MergedTest[] {
  return [...groupObservations(observations).values()].flatMap((group) =>
    group[0] === undefined ? [] : [mergeGroup(group, group[0])],
  );
}

/**
 * A record's hook error (kind 'suite', no name) and the log's or JUnit's line for the same suite
 * (`FAIL a.test.ts > suite`) are one failure: fold the latter into the former.
 */
export function foldSuiteShadows(merged: readonly MergedTest[]): MergedTest[] {
  const out = [...merged];
  for (let i = 0; i < out.length; i += 1) {
    const hook = out[i];
    if (!hook || hook.kind !== 'suite' || hook.fullName !== '' || hook.state !== 'failed') continue;
    const shadows = out.filter(
      (t) =>
        t !== hook &&
        t.file === hook.file &&
        t.state === 'failed' &&
        t.kind !== 'file' &&
        t.sources.every((s) => s === 'log' || s === 'junit'),
    );
    if (shadows.length === 0) continue;
    out[i] = {
      ...hook,
      fullName: shadows[0]?.fullName ?? '',
      errors: [...hook.errors, ...shadows.flatMap((s) => s.errors).filter((e) => !hook.errors.includes(e))],
      origins: [...hook.origins, ...shadows.flatMap((s) => s.origins)],
      sources: [...new Set([...hook.sources, ...shadows.flatMap((s) => s.sources)])],
    };
    for (const s of shadows) out.splice(out.indexOf(s), 1);
    i = -1;
  }
  return out;
}
