/**
 * What the gate's report is computed from (core/gate/gate-report.ts computeGateReport): the
 * arguments, the selection, the limits' notices, the proposals and the tries, when any ran.
 */
import type { Config } from '../../core/config.js';
import type { GateLoad, GateProposal, GateReportInput } from '../../core/gate/gate-report.js';
import { defaultWorkerCount } from '../../io/load/load-workers.js';
import type { GateArgs } from './gate-args.js';
import type { GateRunResult } from './gate-run.js';
import type { GateSelection } from './gate-select.js';

export interface ReportSources {
  readonly parsed: GateArgs;
  readonly config: Config;
  readonly base: { readonly sha: string; readonly ref: string };
  readonly platform: string;
  readonly selection: GateSelection;
  readonly limitNotices: readonly string[];
  /** null when nothing was selected. */
  readonly run: GateRunResult | null;
  readonly proposals: readonly GateProposal[];
  /** performance.now() when the command started. */
  readonly started: number;
}

/** The load figures of a gate that ran nothing. */
function noLoad(): GateLoad {
  return {
    workers: 0,
    pids: [],
    cpus: defaultWorkerCount(),
    loadavgBefore: null,
    loadavgAfter: null,
    workersMachineShare: null,
    testsCpuShare: null,
  };
}

/** The selected tests not run one by one, as the report and the plan list them. */
export function notRunRows(selection: GateSelection): GateReportInput['notRun'] {
  return selection.notRun.map((n) => ({
    file: n.test.file,
    fullName: n.test.fullName,
    line: n.test.line,
    reason: n.reason,
  }));
}

export function gatherReportInput(s: ReportSources): GateReportInput {
  const { parsed, run, selection } = s;
  return {
    base: s.base.sha,
    baseRef: s.base.ref,
    ...(run ? { seed: parsed.seed } : {}),
    tries: parsed.tries,
    maxTries: parsed.maxTries,
    timeBudgetMs: parsed.timeBudgetMs,
    platform: s.platform,
    warnAt: s.config.budget.warnAt,
    vitestVersion: run?.vitestVersion ?? null,
    load: run?.load ?? noLoad(),
    ...(run ? { contention: run.contention } : {}),
    fragile: s.config.gate.fragile,
    tests: run?.tests ?? [],
    notRun: notRunRows(selection),
    unchanged: selection.unchanged,
    proposals: s.proposals,
    notices: [...selection.notices, ...s.limitNotices, ...(run?.notices ?? [])],
    wallMs: performance.now() - s.started,
    shard: parsed.shard,
    ...(run ? { cost: { loadedWallMs: run.loadedWallMs, triesMs: run.triesMs } } : {}),
  };
}
