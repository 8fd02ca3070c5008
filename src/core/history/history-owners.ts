/**
 * Owners in history's lists: each listed test gets its file's CODEOWNERS owners, and `--owner` keeps
 * the tests a team owns before the lists are chosen (so the top 10 are that team's top 10). Pure.
 */
import { hasOwner, type OwnersOf } from '../owners/codeowners.js';
import type { HistoryReport, TestAggregate } from './history-report.js';

export function withHistoryOwners(report: HistoryReport, ownersOf: OwnersOf): HistoryReport {
  return { ...report, tests: report.tests.map((t) => ({ ...t, owners: ownersOf(t.file) })) };
}

/** The predicate the store's rows pass through for `--owner`, or null to keep every test. */
export function ownerFilterOf(
  owner: string | undefined,
  ownersOf: OwnersOf,
): ((t: Pick<TestAggregate, 'file'>) => boolean) | null {
  return owner === undefined ? null : (t) => hasOwner(ownersOf(t.file), owner);
}
