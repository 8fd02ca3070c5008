/**
 * All of `flakeguard history --json` (schemas/history-report.schema.json): the report, the CI speeds
 * (docs/history.md "CI speed") and the quarantine proposals (docs/quarantine.md), in one object.
 */
import type { CiSpeedJson } from './calibration/ci-speed-report.js';
import { type HistoryReportJson, toHistoryJson } from './history/history-json.js';
import type { HistoryReport } from './history/history-report.js';
import type { QuarantineProposals } from './quarantine/quarantine-proposals.js';

export type HistoryJson = HistoryReportJson & {
  readonly ciSpeed: readonly CiSpeedJson[];
  readonly proposals: QuarantineProposals;
};

export function toHistoryQueryJson(
  report: HistoryReport,
  ciSpeed: readonly CiSpeedJson[],
  proposals: QuarantineProposals,
): HistoryJson {
  return { ...toHistoryJson(report), ciSpeed, proposals };
}
