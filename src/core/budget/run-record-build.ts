/**
 * buildRunRecord: the run record from the budget report and the facts the reporter gathered
 * about the machine and the run. Pure; see docs/run-record.md for each field.
 */

import { resolvePlatformValue } from '../platform-value.js';
import type { CiContext } from '../record/ci-context.js';
import type { MachineIdentity } from '../record/machine.js';
import {
  type RecordedFile,
  type RecordedTest,
  RUN_RECORD_FORMAT,
  RUN_RECORD_VERSION,
  type RunRecord,
} from '../record/run-record.js';
import { causeKinds } from '../record/run-verdict.js';
import { resolveTestLimit } from './budget.js';
import type { BudgetConfig } from './budget-config.js';
import type { BudgetReport, CheckedFile, CheckedTest } from './budget-report.js';
import { formatVerdictLine } from './budget-text.js';

/** What the reporter knows about the run besides the budget report: the record's run-level fields. */
export type RunFacts = Pick<
  RunRecord,
  | 'runId'
  | 'startedAt'
  | 'endedAt'
  | 'root'
  | 'platform'
  | 'arch'
  | 'cpus'
  | 'loadavgStart'
  | 'loadavgEnd'
  | 'nodeVersion'
  | 'vitestVersion'
  | 'git'
  | 'shard'
  | 'merged'
  | 'exitReason'
  | 'exitCode'
  | 'runSeed'
  | 'seedNodeCrypto'
> & {
  /** Where the run ran (CI variables, read once by the reporter); null outside a known CI. */
  readonly ci: CiContext | null;
  /** The machine the run ran on (io/machine.ts). */
  readonly machine: MachineIdentity | null;
  readonly watch: boolean;
  readonly vitestExitCode: number | null;
};

const round = (ms: number | null): number | null => (ms === null ? null : Math.round(ms * 100) / 100);

/**
 * The record's `key` field as 0.1.0 wrote it (docs/run-record.md): for people reading the JSON, not
 * a key flakeguard reads back (it reads project, file and name: core/test-id.ts testKey).
 */
const recordedKey = (t: CheckedTest): string => `${t.file}::${t.fullName}`;

function toRecordedTest(t: CheckedTest): RecordedTest {
  return {
    key: recordedKey(t),
    file: t.file,
    fullName: t.fullName,
    line: t.line,
    column: t.column,
    project: t.project,
    state: t.state,
    durationMs: round(t.durationMs),
    retries: t.retries,
    flaky: t.flaky,
    errors: t.errors,
    limitMs: t.limitMs,
    limitSource: t.limitSource,
    limitKey: t.limitKey,
    ...(t.allowanceId === undefined ? {} : { allowanceId: t.allowanceId }),
    budgetStatus: t.status,
    ...(t.quarantine === undefined ? {} : { quarantine: t.quarantine }),
    ...(t.seeds === undefined
      ? {}
      : { seeds: t.seeds.seeds, ...(t.seeds.failedSeed === null ? {} : { failedSeed: t.seeds.failedSeed }) }),
    ...(t.attempts && t.attempts.length > 0
      ? { triesMs: t.attempts.map((a) => round(a.durationMs) ?? 0), tryStates: t.attempts.map((a) => a.state) }
      : {}),
  };
}

function toRecordedFile(f: CheckedFile): RecordedFile {
  return {
    file: f.file,
    project: f.project,
    state: f.state,
    durationMs: round(f.durationMs),
    limitMs: f.limitMs,
    limitKey: f.limitKey,
    budgetStatus: f.status,
    errors: f.errors,
    hookErrors: f.hookErrors,
  };
}

/** The record's `budget`: the configured limits resolved for the run's platform. */
function recordedBudget(config: { readonly budget: BudgetConfig }, platform: string): RunRecord['budget'] {
  const file = config.budget.file === null ? undefined : resolvePlatformValue(config.budget.file, platform);
  return {
    testMs: resolveTestLimit({ config, platform }).limitMs,
    fileMs: file?.value ?? null,
    warnAt: config.budget.warnAt,
  };
}

export function buildRunRecord(
  report: BudgetReport,
  facts: RunFacts,
  config: { readonly budget: BudgetConfig },
): RunRecord {
  return {
    format: RUN_RECORD_FORMAT,
    version: RUN_RECORD_VERSION,
    runId: facts.runId,
    startedAt: facts.startedAt,
    endedAt: facts.endedAt,
    root: facts.root,
    platform: facts.platform,
    arch: facts.arch,
    cpus: facts.cpus,
    loadavgStart: facts.loadavgStart,
    loadavgEnd: facts.loadavgEnd,
    nodeVersion: facts.nodeVersion,
    vitestVersion: facts.vitestVersion,
    git: facts.git,
    shard: facts.shard,
    ci: facts.ci,
    machine: facts.machine,
    ...(facts.runSeed === undefined ? {} : { runSeed: facts.runSeed }),
    ...(facts.seedNodeCrypto === true ? { seedNodeCrypto: true } : {}),
    merged: facts.merged,
    watch: facts.watch,
    exitReason: facts.exitReason,
    vitestExitCode: facts.vitestExitCode,
    exitCode: facts.exitCode,
    unhandledErrors: report.unhandledErrors,
    budget: recordedBudget(config, facts.platform),
    violations: report.violations.map((v) => ({ ...v, durationMs: round(v.durationMs) ?? 0 })),
    verdict: {
      red: report.verdict.red,
      failedByFlakeguard: report.verdict.failedByFlakeguard,
      ...(report.verdict.excusedByQuarantine ? { excusedByQuarantine: true } : {}),
      causes: causeKinds(report.verdict),
      summary: formatVerdictLine(report),
    },
    notices: report.notices,
    tests: report.tests.map(toRecordedTest),
    files: report.files.map(toRecordedFile),
  };
}

/** `20261130T155545123Z-a1b2c3` plus `-shard-2-of-3` or `-merged`: sortable by time, unique. */
export function makeRunId(startedAtIso: string, random: string, shard: RunFacts['shard'], merged: boolean): string {
  const stamp = startedAtIso.replace(/[-:]/g, '').replace('.', '');
  const suffix = shard ? `-shard-${shard.index}-of-${shard.count}` : merged ? '-merged' : '';
  return `${stamp}-${random}${suffix}`;
}
