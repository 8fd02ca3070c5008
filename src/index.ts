/**
 * Library API: the pure core, the config loader, and the types of every JSON output: the run record
 * (RunRecord), `gate --json` (GateReportJson) and `--plan` (GatePlanJson), `triage --json`
 * (TriageJson), `history --json` (HistoryJson), `allowances list --json` (AllowanceListJson) and
 * `quarantine list --json` (QuarantineListJson). Their JSON Schemas ship in `flakeguard/schemas/*`
 * (docs/formats.md).
 */

export type { AllowanceListJson, AllowanceRow } from './core/allowances/allowance-list.js';
export type { CiSpeedJson } from './core/calibration/ci-speed-report.js';
export type { CauseClass, CauseEvidence, CauseEvidenceKind, CauseFinding } from './core/cause/cause.js';
export * from './core/config.js';
export * from './core/duration.js';
export * from './core/errors.js';
export type { GatePlan, GatePlanJson } from './core/gate/gate-plan.js';
export {
  GATE_REPORT_FORMAT,
  GATE_REPORT_VERSION,
  GATE_VERDICTS,
  type GateContention,
  type GateLoad,
  type GateProposal,
  type GateReport,
  type GateReportJson,
} from './core/gate/gate-report.js';
export type { GateReportTest } from './core/gate/gate-report-test.js';
export type { GateVerdict } from './core/gate/gate-verdict-types.js';
export type { GateTry } from './core/gate/runner-protocol.js';
export type { SelectionKind } from './core/gate/test-selection.js';
export type { HistoryPlatformJson, HistoryReportJson, HistoryTestJson } from './core/history/history-json.js';
export type { HistoryTest } from './core/history/history-report.js';
export type { HistoryJson } from './core/history-output.js';
export * from './core/platform-value.js';
export type { QuarantineListJson, QuarantineRow } from './core/quarantine/quarantine-list.js';
export type { QuarantineProposals } from './core/quarantine/quarantine-proposals.js';
export * from './core/record/run-record.js';
export type { FindingClass, PatternRule, TriageConfig } from './core/triage/triage-config.js';
export type { TriageJson } from './core/triage/triage-format.js';
export { type CaughtBy, type Finding, TRIAGE_FORMAT, TRIAGE_VERSION } from './core/triage/triage-types.js';
export * from './core/yaml-values.js';
export { findConfigFile, type LoadedConfig, loadConfig } from './io/config/config-file.js';
