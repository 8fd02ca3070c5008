/**
 * Which check caught a failure: the CI provider, workflow, job, shard and run page of the run
 * records it came from. computeTriage's last step gives every finding the checks whose inputs show
 * it (`seenBy`, several when several jobs' records are triaged together) and the first of them
 * (`caughtBy`). Inputs without a CI context (reports, JUnit, logs, older records) leave null fields.
 * Pure.
 */
import { clipText, NAME_MAX, URL_MAX } from '../excerpt.js';
import { providerName } from '../record/ci-context.js';
import type { RunRecord } from '../record/run-record.js';
import { tupleKey } from '../tuple-key.js';
import type { CaughtBy, Finding, TriageInputs } from './triage-types.js';

export const UNKNOWN_CHECK: CaughtBy = { provider: null, workflow: null, job: null, shard: null, runUrl: null };

/** The check a record's run came from, or undefined when the record says nothing about it. */
export function checkOfRecord(record: Pick<RunRecord, 'ci' | 'shard'>): CaughtBy | undefined {
  const ci = record.ci ?? null;
  const shard = ci?.shard ?? record.shard ?? null;
  if (ci === null && shard === null) return undefined;
  return {
    provider: ci?.provider ?? null,
    workflow: ci?.workflow ?? null,
    job: ci?.job ?? null,
    shard,
    runUrl: ci?.runUrl ?? null,
  };
}

/** A CI check (provider, workflow, job, shard, page): not a test identity. */
const checkKey = (c: CaughtBy): string =>
  tupleKey([c.provider, c.workflow, c.job, c.shard?.index ?? null, c.shard?.count ?? null, c.runUrl]);

/** Distinct checks in one order (provider, workflow, job, shard, page), whatever order the inputs came in. */
function distinct(checks: readonly (CaughtBy | undefined)[]): CaughtBy[] {
  const byKey = new Map<string, CaughtBy>();
  for (const c of checks) if (c !== undefined) byKey.set(checkKey(c), c);
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
}

function matchingChecks(f: Finding, inputs: TriageInputs): CaughtBy[] {
  // The finding's project, or any when it or the input names none: one project's failure is not the other's check.
  const sameProject = (project: string | null): boolean =>
    f.project === null || project === null || project === f.project;
  const sameFile = (file: string | null, project: string | null): boolean =>
    f.file !== null && file === f.file && sameProject(project);
  if (f.class === 'budget')
    return distinct(
      inputs.excesses.filter((x) => sameFile(x.file, x.project) && x.fullName === f.fullName).map((x) => x.check),
    );
  const shown = inputs.tests.filter(
    (t) => sameFile(t.file, t.project) && (t.state !== 'passed' || t.errors.length > 0),
  );
  const ofTest =
    f.fullName === null ? [] : distinct(shown.filter((t) => t.fullName === f.fullName).map((t) => t.check));
  if (ofTest.length > 0) return ofTest;
  return distinct([
    ...shown.map((t) => t.check),
    ...inputs.unhandled.filter((u) => sameFile(u.file, null)).map((u) => u.check),
  ]);
}

/** Every finding with the checks that saw it; with one check among all the inputs, every finding is its. */
export function attachChecks(findings: readonly Finding[], inputs: TriageInputs): Finding[] {
  const all = distinct([
    ...inputs.tests.map((t) => t.check),
    ...inputs.unhandled.map((u) => u.check),
    ...inputs.excesses.map((x) => x.check),
  ]);
  return findings.map((f) => {
    const found = matchingChecks(f, inputs);
    const seenBy = found.length > 0 ? found : all.length === 1 ? all : [];
    return { ...f, caughtBy: seenBy[0] ?? UNKNOWN_CHECK, seenBy };
  });
}

/** `GitHub Actions CI / test (shard 1/2)`, or null when nothing is known. */
export function describeCheck(c: CaughtBy): string | null {
  const name = [c.workflow, c.job]
    .filter((p) => p !== null)
    .map((p) => clipText(p, NAME_MAX))
    .join(' / ');
  const parts = [
    c.provider === null ? null : providerName(c.provider),
    name === '' ? null : name,
    c.shard === null ? null : `(shard ${c.shard.index}/${c.shard.count})`,
  ].filter((p) => p !== null);
  return parts.length === 0 ? null : parts.join(' ');
}

/** The lines printed under a finding: the check that caught it (with its page) and the others that saw it. */
export function checkLines(f: Pick<Finding, 'caughtBy' | 'seenBy'>): string[] {
  const lines: string[] = [];
  const first = f.caughtBy === undefined ? null : describeCheck(f.caughtBy);
  const url = f.caughtBy?.runUrl ? ` ${clipText(f.caughtBy.runUrl, URL_MAX)}` : '';
  if (first !== null) lines.push(`caught by: ${first}${url}`);
  const seen = (f.seenBy ?? []).map(describeCheck).filter((d) => d !== null);
  if (seen.length > 1) lines.push(`seen by ${seen.length} checks: ${seen.join('; ')}`);
  return lines;
}
