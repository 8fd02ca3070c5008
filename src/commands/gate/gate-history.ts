/**
 * The gate with history (issue 15): when a history store is configured, each tried test's past
 * (runs, flaky and failed runs, durations) goes next to its tries. History is evidence, never a
 * reason for the gate not to run: a store that cannot be read becomes one notice.
 */
import type { GateReport } from '../../core/gate/gate-report.js';
import { summarizeTestPast } from '../../core/history/test-history-summary.js';
import type { HistoryTarget } from '../../io/history/history-store.js';

/** How many of a test's newest runs the gate summarizes. */
const PAST_RUNS = 200;

/** `target`: the store checkSettings resolved before the gate started (null: history is off). */
export async function withTestHistory(
  report: GateReport,
  target: HistoryTarget | null,
): Promise<{ report: GateReport; notice: string | null }> {
  if (report.tests.length === 0 || target === null) return { report, notice: null };
  const { openHistoryStore, describeTarget } = await import('../../io/history/history-store.js');
  try {
    const { lastRunsOfTest } = await import('../../io/history/test-history.js');
    const store = await openHistoryStore(target, { mustExist: true, wait: 'test-run' });
    try {
      const tests = [];
      for (const t of report.tests) {
        const runs = await lastRunsOfTest(
          store,
          { file: t.file, fullName: t.fullName, project: t.project ?? '' },
          { limit: PAST_RUNS },
        );
        const past = summarizeTestPast(runs);
        tests.push(past ? { ...t, history: past } : t);
      }
      return { report: { ...report, tests }, notice: null };
    } finally {
      await store.close();
    }
  } catch (error) {
    return {
      report,
      notice: `history not read from ${describeTarget(target)}: ${(error as Error).message.split('\n')[0] ?? ''}`,
    };
  }
}
