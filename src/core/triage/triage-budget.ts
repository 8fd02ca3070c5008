/**
 * Budget excesses measured from the durations a report, JUnit or a salvaged record gives, for runs
 * without the reporter's own verdicts. Each test is held to the limit the checkout gives it (its
 * allowance, else the budget) and the evidence names that limit and where it came from. Only
 * passed tests count: a failed test is explained by its failure.
 */
import { formatDuration } from '../duration.js';
import { testKey } from '../test-id.js';
import type { BudgetExcess, ObservedFile, ObservedTest } from './triage-types.js';

export interface TriageLimit {
  readonly limitMs: number;
  /** Which limit and where it came from: `allowance 3f2a in allowances/test/a.test.ts.yaml (linux)`, `--budget`. */
  readonly from: string;
}

export interface TriageLimits {
  /** The limit of one test, or null when nothing limits it. */
  readonly test: (file: string, name: string) => TriageLimit | null;
  readonly file: TriageLimit | null;
}

export function measureExcesses(
  tests: readonly ObservedTest[],
  files: readonly ObservedFile[],
  limits: TriageLimits,
): BudgetExcess[] {
  const out: BudgetExcess[] = [];
  const seen = new Set<string>();
  for (const t of tests) {
    if (t.kind !== 'test' || t.state !== 'passed' || t.file === null || t.durationMs === null) continue;
    const key = testKey(t);
    if (seen.has(key)) continue;
    const limit = limits.test(t.file, t.fullName);
    if (limit === null || t.durationMs <= limit.limitMs) continue;
    seen.add(key);
    out.push({
      kind: 'test',
      project: t.project,
      file: t.file,
      fullName: t.fullName,
      durationMs: t.durationMs,
      limitMs: limit.limitMs,
      origin: `${t.origin}: duration ${formatDuration(t.durationMs)} > ${formatDuration(limit.limitMs)} (limit: ${limit.from})`,
    });
  }
  const fileLimit = limits.file;
  if (fileLimit !== null) {
    for (const f of files) {
      if (f.durationMs === null || f.durationMs <= fileLimit.limitMs || seen.has(`file:${f.file}`)) continue;
      seen.add(`file:${f.file}`);
      out.push({
        kind: 'file',
        project: null,
        file: f.file,
        fullName: null,
        durationMs: f.durationMs,
        limitMs: fileLimit.limitMs,
        origin: `${f.origin}: file duration ${formatDuration(f.durationMs)} > ${formatDuration(fileLimit.limitMs)} (limit: ${fileLimit.from})`,
      });
    }
  }
  return out;
}
