/**
 * The history report as `flakeguard history --json` writes it (schemas/history-report.schema.json):
 * without its chart points, naming its format. The command adds the CI speeds and the quarantine
 * proposals (core/history-output.ts). Pure.
 */
import type { HistoryPlatform } from './history-platform.js';
import type { HistoryReport, HistoryTest } from './history-report.js';

/** What `history --json`'s `format` says. */
const HISTORY_REPORT_FORMAT = 'flakeguard-history-report' as const;

/** A platform's figures as the JSON has them: its chart points and fitted trend left out. */
export type HistoryPlatformJson = Omit<HistoryPlatform, 'points' | 'trend'>;

export type HistoryTestJson = Omit<HistoryTest, 'platforms'> & { readonly platforms: readonly HistoryPlatformJson[] };

/** The report as JSON: named, and each test's platforms without their chart points. */
export type HistoryReportJson = Omit<HistoryReport, 'tests'> & {
  readonly format: typeof HISTORY_REPORT_FORMAT;
  readonly tests: readonly HistoryTestJson[];
};

/** The report as the JSON that leaves the program (chart points left out). */
export function toHistoryJson(report: HistoryReport): HistoryReportJson {
  return {
    format: HISTORY_REPORT_FORMAT,
    ...report,
    tests: report.tests.map((t) => ({
      ...t,
      platforms: t.platforms.map(({ points: _points, trend: _trend, ...p }) => p),
    })),
  };
}
