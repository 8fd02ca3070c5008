/**
 * The gate with history (issue 15): when a history store is configured, each tried test's past
 * (runs, flaky and failed runs, durations) goes next to its tries. History is evidence, never a
 * reason for the gate not to run: a store that cannot be read becomes one notice.
 */
import type { Config } from '../../core/config.js';
import type { GateReport } from '../../core/gate/gate-report.js';
import { summarizeTestPast } from '../../core/history/test-history-summary.js';

/** How many of a test's newest runs the gate summarizes. */
const PAST_RUNS = 200;

export async function withTestHistory(report: GateReport, root: string, config: Config): Promise<{ report: GateReport; notice: string | null }> {
  if (report.tests.length === 0) return { report, notice: null };
  const { resolveHistoryTarget, openHistoryStore, describeTarget } = await import('../../io/history/history-store.js');
  const { resolveProjectPlaces } = await import('../../io/places/project-places.js');
  const target = resolveHistoryTarget(resolveProjectPlaces(root, config), config.history, process.env);
  if (target === null) return { report, notice: null };
  try {
    const { lastRunsOfTest } = await import('../../io/history/test-history.js');
    const store = await openHistoryStore(target, { mustExist: true, wait: 'test-run' });
    try {
      const tests = [];
      for (const t of report.tests) {
        const runs = await lastRunsOfTest(store, { file: t.file, name: t.name, project: t.project ?? '' }, { limit: PAST_RUNS });
        const past = summarizeTestPast(runs);
        tests.push(past ? { ...t, history: past } : t);
      }
      return { report: { ...report, tests }, notice: null };
    } finally {
      await store.close();
    }
  } catch (error) {
    return { report, notice: `history not read from ${describeTarget(target)}: ${(error as Error).message.split('\n')[0] ?? ''}` };
  }
}
