/**
 * Lines for the tests a budget report names, added after it was computed: when Vitest recorded no
 * locations, the reporter reads them from the sources of the few tests the report names and puts
 * them in here, so the report is computed once (issue 20). The lists keep their order: by place,
 * tests before whole files. Pure.
 */

import { refKey, type TestRef, testKey } from '../test-id.js';
import type { BudgetReport, CheckedTest } from './budget-report.js';
import { byPlace } from './budget-report.js';

export interface TestPlace {
  readonly line: number;
  readonly column: number;
}

/** A test's place in its source is the same in every Vitest project: keyed without the project. */
export const placeKey = (t: TestRef): string => refKey(t);

/** The tests without a line that the report names: over or near budget, failed, flaky, quarantined. */
export function testsNamedWithoutLine(report: BudgetReport): CheckedTest[] {
  const flaky = new Set(report.flaky.map(testKey));
  return report.tests.filter(
    (t) =>
      t.line === null && (t.status === 'over' || t.status === 'near' || t.state === 'failed' || flaky.has(testKey(t))),
  );
}

type Placed = {
  readonly kind?: 'test' | 'file';
  readonly file: string;
  readonly fullName: string | null;
  readonly line: number | null;
};

function place<T extends Placed>(items: readonly T[], places: ReadonlyMap<string, TestPlace>): T[] {
  const out = items.map((item) => {
    const found =
      item.line === null && item.kind !== 'file' && item.fullName !== null
        ? places.get(placeKey({ file: item.file, fullName: item.fullName }))
        : undefined;
    return found ? { ...item, line: found.line } : item;
  });
  const fileLast = (a: T, b: T): number => (a.kind === 'file' ? 1 : 0) - (b.kind === 'file' ? 1 : 0);
  return out.sort((a, b) => fileLast(a, b) || byPlace(a, b));
}

export function withReportPlaces(report: BudgetReport, places: ReadonlyMap<string, TestPlace>): BudgetReport {
  if (places.size === 0) return report;
  const tests = report.tests.map((t) => {
    const found = t.line === null ? places.get(placeKey(t)) : undefined;
    return found ? { ...t, line: found.line, column: found.column } : t;
  });
  const byKey = new Map(tests.map((t) => [t.key, t]));
  return {
    ...report,
    tests,
    violations: place(report.violations, places),
    near: place(report.near, places),
    flaky: place(report.flaky, places),
    failing: report.failing.map((t) => byKey.get(t.key) ?? t).sort(byPlace),
    quarantined: place(report.quarantined, places),
  };
}
