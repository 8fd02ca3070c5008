/**
 * Several inputs describe the same run (records, JSON reports, JUnit, the log; one per shard):
 * merge their observations into one entry per test (file + full name), keeping every origin as
 * evidence. Priority for the state: record, then report, then JUnit, then the log (a crash leaves
 * JUnit saying "passed" where the JSON report says "pending").
 */

import { testKey } from '../test-id.js';
import type { AttemptRef } from './log-attempts.js';
import type { ObservationSource, ObservedState, ObservedTest } from './triage-types.js';

export interface MergedTest {
  readonly kind: ObservedTest['kind'];
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

function keyOf(file: string | null, fullName: string): string {
  return testKey({ file, fullName });
}

export function mergeObservations(observations: readonly ObservedTest[]): MergedTest[] {
  const sorted = [...observations].sort((a, b) => PRIORITY[a.source] - PRIORITY[b.source]);
  const byKey = new Map<string, ObservedTest[]>();
  const byName = new Map<string, Set<string>>();
  for (const o of sorted) {
    if (o.file === null) continue;
    const key = keyOf(o.file, o.fullName);
    byKey.set(key, [...(byKey.get(key) ?? []), o]);
    byName.set(o.fullName, (byName.get(o.fullName) ?? new Set()).add(key));
  }
  for (const o of sorted) {
    if (o.file !== null) continue;
    const candidates = byName.get(o.fullName);
    const key = candidates?.size === 1 ? ([...candidates][0] ?? keyOf(null, o.fullName)) : keyOf(null, o.fullName);
    byKey.set(key, [...(byKey.get(key) ?? []), o]);
  }
  const merged: MergedTest[] = [];
  for (const group of byKey.values()) {
    const first = group[0];
    if (!first) continue;
    const top = group.filter((o) => PRIORITY[o.source] === PRIORITY[first.source]);
    const chosen = top.find((o) => o.state === 'failed') ?? first;
    const errors: string[] = [];
    // A passed test keeps only errors that passed observations carry (a pass after retries); a log
    // line of another attempt or run does not make it a flake.
    const carriers = chosen.state === 'passed' ? group.filter((o) => o.state === 'passed') : [chosen, ...group];
    for (const o of carriers) for (const e of o.errors) if (!errors.includes(e)) errors.push(e);
    merged.push({
      kind: group.some((o) => o.kind === 'suite')
        ? 'suite'
        : group.some((o) => o.kind === 'file')
          ? 'file'
          : chosen.kind,
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
    });
  }
  return merged;
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
