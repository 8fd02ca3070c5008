/**
 * Budget excesses measured from report durations, for runs without a run record (the record's
 * violations are authoritative: they include allowances). Only passed tests count: a failed test
 * is explained by its failure. Allowances are not applied here, and the cause says so.
 */
import { formatDuration } from '../duration.js';
import type { BudgetExcess, ObservedFile, ObservedTest } from './triage-types.js';
import { testKey } from '../test-id.js';

export interface TriageBudget {
  readonly testMs: number | null;
  readonly fileMs: number | null;
  /** Where the limits came from: `--budget`, `flakeguard.yaml budget.test (linux)`. */
  readonly source: string;
}

export function measureExcesses(tests: readonly ObservedTest[], files: readonly ObservedFile[], budget: TriageBudget): BudgetExcess[] {
  const out: BudgetExcess[] = [];
  const seen = new Set<string>();
  const testMs = budget.testMs;
  if (testMs !== null) {
    for (const t of tests) {
      if (t.kind !== 'test' || t.state !== 'passed' || t.file === null || t.durationMs === null || t.durationMs <= testMs) continue;
      const key = testKey(t.file, t.name);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ kind: 'test', file: t.file, name: t.name, durationMs: t.durationMs, limitMs: testMs, origin: `${t.origin}: duration ${formatDuration(t.durationMs)} > ${formatDuration(testMs)} (${budget.source}; allowances not checked without a run record)` });
    }
  }
  const fileMs = budget.fileMs;
  if (fileMs !== null) {
    for (const f of files) {
      if (f.durationMs === null || f.durationMs <= fileMs || seen.has(`file:${f.file}`)) continue;
      seen.add(`file:${f.file}`);
      out.push({ kind: 'file', file: f.file, name: null, durationMs: f.durationMs, limitMs: fileMs, origin: `${f.origin}: file duration ${formatDuration(f.durationMs)} > ${formatDuration(fileMs)} (${budget.source})` });
    }
  }
  return out;
}
