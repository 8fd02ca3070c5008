/**
 * The machines the listed tests ran on in the window (core/history/history-machines.ts): a bounded
 * read, only the listed tests' results in the window (each result carries its run's start and
 * branch: an index range per test), joined with their runs for the machine. Runs stored before
 * machines were recorded have machine null.
 */
import type { TestMachine } from '../../core/history/history-machines.js';
import type { TestAggregate } from '../../core/history/history-report.js';
import { isMachineIdentity } from '../../core/record/machine.js';
import { type TestId, testKey } from '../../core/test-id.js';
import { type HistoryFilter, windowStartMs } from './history-query.js';
import type { HistoryStore } from './history-store.js';

const MACHINES_SQL = `SELECT t.project, t.file, t.name AS "fullName", u.machine, count(*)::int AS runs,
    count(*) FILTER (WHERE u.ci IS NOT NULL OR u.ci_job IS NOT NULL)::int AS "ciRuns"
  FROM flakeguard_results r
  JOIN flakeguard_runs u ON u.id = r.run_id
  JOIN flakeguard_tests t ON t.id = r.test_id
  WHERE r.test_id = ANY($3::int[]) AND r.started_at >= $1::timestamptz
    AND ($2::text IS NULL OR r.branch = $2) AND r.state IN ('passed', 'failed')
  GROUP BY t.id, t.project, t.file, t.name, u.machine`;

const NO_MACHINE = { id: null, cpuModel: null, cores: null } as const;

/** Per test (testKey) of `tests`, the machines it ran on in the window. */
export async function readTestMachines(
  store: HistoryStore,
  filter: HistoryFilter,
  tests: readonly Pick<TestAggregate, 'testId'>[],
): Promise<Map<string, TestMachine[]>> {
  const found = new Map<string, TestMachine[]>();
  if (tests.length === 0) return found;
  const rows = await store.query<TestId & { machine: unknown; runs: number; ciRuns: number }>(MACHINES_SQL, [
    new Date(windowStartMs(filter.cutoffMs)).toISOString(),
    filter.branch,
    tests.map((t) => t.testId),
  ]);
  for (const row of rows) {
    const m = isMachineIdentity(row.machine) ? row.machine : null;
    const list = found.get(testKey(row)) ?? [];
    list.push({
      id: m?.id ?? null,
      cpuModel: m?.cpuModel ?? null,
      cores: m?.cores ?? null,
      runs: row.runs,
      ciRuns: row.ciRuns,
    });
    found.set(testKey(row), list);
  }
  // Rows of a malformed machine and of none are one "no machine recorded" entry.
  for (const [key, list] of found) {
    const none = list.filter((m) => m.id === null);
    if (none.length > 1)
      found.set(key, [
        ...list.filter((m) => m.id !== null),
        { ...NO_MACHINE, runs: none.reduce((n, m) => n + m.runs, 0), ciRuns: none.reduce((n, m) => n + m.ciRuns, 0) },
      ]);
  }
  return found;
}
