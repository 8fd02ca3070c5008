/**
 * Owners on triage findings: each finding about a test file gets the file's CODEOWNERS owners, and
 * `--owner <team>` keeps the findings that team owns (the counts follow; the verdict is the run's).
 * Pure: the edge gives the lookup.
 */

import { hasOwner, type OwnersOf } from '../owners/codeowners.js';
import type { FindingClass } from './triage-config.js';
import type { Finding, TriageReport } from './triage-types.js';

export function withFindingOwners(report: TriageReport, ownersOf: OwnersOf): TriageReport {
  return {
    ...report,
    findings: report.findings.map((f): Finding => ({ ...f, owners: f.file === null ? [] : ownersOf(f.file) })),
  };
}

/** The findings `owner` owns; `ownerFilter` says how many others were left out. */
export function filterFindingsByOwner(report: TriageReport, owner: string): TriageReport {
  const findings = report.findings.filter((f) => hasOwner(f.owners ?? [], owner));
  const counts = { infrastructure: 0, escape: 0, flake: 0, budget: 0 } as Record<FindingClass, number>;
  for (const f of findings) counts[f.class] += 1;
  return { ...report, findings, counts, ownerFilter: { owner, hidden: report.findings.length - findings.length } };
}

/** `--owner @org/web: 2 findings of other owners or of the whole run not shown`. */
export function describeOwnerFilter(filter: NonNullable<TriageReport['ownerFilter']>): string {
  const n = filter.hidden;
  return `--owner ${filter.owner}: ${n} finding${n === 1 ? '' : 's'} of other owners or of the whole run not shown`;
}
