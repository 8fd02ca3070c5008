/**
 * The gate's report: everything the terminal table, the Markdown comment and the JSON print, computed
 * once from the selection, the runs and the load measurements. Pure. `--json` prints this object
 * (schema: docs/gate.md, version 1).
 */
import { DEFAULT_CONFIG } from '../config.js';
import { describeFailureRate } from './failure-rate.js';
import type { GateTestResult, GateTry, GateTryOutcome, GateVerdict } from './gate-verdict.js';

export type GateTryState = GateTry['state'];

import type { Contention } from './slowdown.js';
import type { SelectionKind } from './test-selection.js';

/** The slowdown the tries ran at: asked, measured before, how made, and the median the tries got. */
export type GateContention = Contention & { readonly achieved: number | null };

import type { TestPast } from '../history/test-history-summary.js';

export const GATE_REPORT_VERSION = 1 as const;
export const GATE_VERDICTS: readonly GateVerdict[] = [
  'failing',
  'flaky',
  'order-dependent',
  'over-budget',
  'near-budget',
  'fragile',
  'stable',
];

export interface GateLoad {
  /** Busy worker processes during the main run (0 = no load). */
  readonly workers: number;
  readonly pids: readonly number[];
  readonly cpus: number;
  /** os.loadavg() at the start and end of the loaded run (measured). */
  readonly loadavgBefore: readonly number[] | null;
  readonly loadavgAfter: readonly number[] | null;
  /** Share of all CPUs the load workers used (measured from /proc), or null. */
  readonly workersMachineShare: number | null;
  /** CPU time / wall time of the tries, each try's whole process tree (measured, /proc; the worker alone elsewhere). */
  readonly testsCpuShare: number | null;
}

/** An allowance the gate proposes for a near- or over-budget test (see proposeAllowance). */
export interface GateProposal {
  readonly file: string;
  readonly name: string;
  readonly id: string;
  readonly limitMs: number;
  readonly platformKey: string;
  readonly reason: string;
  /** The allowance file it belongs in (relative to the root). */
  readonly storeFile: string;
  /** The entry as YAML, ready to paste. */
  readonly yaml: string;
  /** True when --write-allowances wrote it. */
  readonly written: boolean;
}

export interface GateTestInput {
  readonly file: string;
  readonly name: string;
  readonly line: number;
  /** The Vitest project it ran in, when the config names projects (a file in two runs in each). */
  readonly project?: string | null;
  readonly selection: SelectionKind;
  readonly previous: { readonly file: string; readonly name: string } | null;
  /** `affected`: the changed modules its file imports (directly or through others). */
  readonly affectedBy?: readonly string[];
  readonly result: GateTestResult;
}

export interface GateReportTest {
  readonly file: string;
  readonly name: string;
  readonly line: number;
  /** Vitest project name, or null when the config has no named projects. */
  readonly project: string | null;
  readonly selection: SelectionKind;
  readonly previous: { readonly file: string; readonly name: string } | null;
  /** For `affected` tests: the changed modules the file imports; else empty. */
  readonly affectedBy: readonly string[];
  readonly verdict: GateVerdict;
  readonly loadSensitive: boolean;
  readonly passes: number;
  readonly runs: number;
  readonly durationsMs: readonly number[];
  /** Each loaded try's outcome, in the order of durationsMs. */
  readonly tryStates: readonly GateTryState[];
  /** Each loaded try: state, duration and whether it was cold (a fresh worker, as in CI). */
  readonly tries: readonly GateTryOutcome[];
  readonly medianMs: number | null;
  readonly maxMs: number | null;
  readonly limitMs: number;
  readonly limitSource: 'budget' | 'allowance';
  readonly allowanceId: string | null;
  /** One-sided 95% Clopper-Pearson upper bound on the failure rate, from the loaded tries. */
  readonly failureRateUpper: number | null;
  readonly failureRateText: string | null;
  readonly idle: { readonly passes: number; readonly runs: number } | null;
  readonly alone: { readonly passes: number; readonly runs: number } | null;
  readonly reason: string;
  /** Highest slowdown factor with every try passed, lowest with a failed try (null: none failed / not tried). */
  readonly holdsAt?: number | null;
  readonly breaksAt?: number | null;
  readonly error: string | null;
  /** The test's past from the history store, when one is configured and knows the test. */
  readonly history?: TestPast;
  /** Its owners from the repository's CODEOWNERS (empty: none, or no CODEOWNERS). */
  readonly owners?: readonly string[];
}

export interface GateReport {
  readonly version: typeof GATE_REPORT_VERSION;
  readonly verdict: 'pass' | 'fail';
  /** The merge-base sha the working tree was compared with. */
  readonly base: string;
  readonly baseRef: string;
  readonly runs: number;
  /** --max-runs: the most tries a test got when the time budget allowed. */
  readonly maxRuns: number;
  /** --time-budget: wall time the loaded tries could take beyond the minimum. */
  readonly timeBudgetMs: number;
  readonly platform: string;
  /** budget.warnAt: share of the limit at or above which a test is near budget. */
  readonly warnAt: number;
  readonly vitestVersion: string | null;
  readonly load: GateLoad;
  /** The slowdown the tries ran at (absent in reports of older versions). */
  readonly contention?: GateContention;
  /** gate.fragile: a fragile test is a warning (warn) or fails the gate (block); absent in older reports. */
  readonly fragile?: 'warn' | 'block';
  readonly tests: readonly GateReportTest[];
  readonly counts: Readonly<Record<GateVerdict, number>>;
  /** Changed tests the gate could not run one by one, with why (they do not fail the gate). */
  readonly notRun: readonly {
    readonly file: string;
    readonly name: string;
    readonly line: number;
    readonly reason: string;
  }[];
  readonly unchanged: number;
  readonly proposals: readonly GateProposal[];
  readonly notices: readonly string[];
  readonly wallMs: number;
  /** `--shard i/n`: the part of the selection this report covers; null for a whole gate. */
  readonly shard: { readonly index: number; readonly count: number } | null;
  /**
   * What the loaded tries cost: the wall time of that phase (Vitest's start included) and the sum of
   * the tries' own durations (hooks and body). Absent when nothing ran.
   */
  readonly cost?: GateCost;
  /** For a `--merge` report: how many shard reports were combined. */
  readonly mergedShards?: number;
}

export interface GateCost {
  readonly loadedWallMs: number;
  readonly triesMs: number;
}

export interface GateReportInput {
  readonly base: string;
  readonly baseRef: string;
  readonly runs: number;
  readonly maxRuns?: number;
  readonly timeBudgetMs?: number;
  readonly platform: string;
  /** budget.warnAt; the config default when not given. */
  readonly warnAt?: number;
  readonly vitestVersion: string | null;
  readonly load: GateLoad;
  readonly contention?: GateContention;
  /** gate.fragile: whether a fragile test fails the gate (default warn). */
  readonly fragile?: 'warn' | 'block';
  readonly tests: readonly GateTestInput[];
  readonly notRun: GateReport['notRun'];
  readonly unchanged: number;
  readonly proposals: readonly GateProposal[];
  readonly notices: readonly string[];
  readonly wallMs: number;
  readonly shard?: { readonly index: number; readonly count: number } | null;
  readonly cost?: GateCost;
}

/** Whether a verdict fails the gate: anything but stable, and fragile only when configured to block. */
export function blocks(verdict: GateVerdict, fragile: 'warn' | 'block' = 'warn'): boolean {
  return verdict !== 'stable' && (verdict !== 'fragile' || fragile === 'block');
}

export function computeGateReport(input: GateReportInput): GateReport {
  const counts = Object.fromEntries(GATE_VERDICTS.map((v) => [v, 0])) as Record<GateVerdict, number>;
  const tests = input.tests.map((t): GateReportTest => {
    const r = t.result;
    counts[r.verdict] += 1;
    return {
      file: t.file,
      name: t.name,
      line: t.line,
      project: t.project ?? null,
      selection: t.selection,
      previous: t.previous,
      affectedBy: t.affectedBy ?? [],
      verdict: r.verdict,
      loadSensitive: r.loadSensitive,
      passes: r.passes,
      runs: r.runs,
      durationsMs: r.durationsMs,
      tryStates: r.tryStates,
      tries: r.tries,
      medianMs: r.medianMs,
      maxMs: r.maxMs,
      limitMs: r.limit.limitMs,
      limitSource: r.limit.source,
      allowanceId: r.limit.allowanceId ?? null,
      failureRateUpper: r.failureRate ? Math.round(r.failureRate.upper * 10_000) / 10_000 : null,
      failureRateText: r.failureRate ? describeFailureRate(r.failureRate) : null,
      idle: r.idle,
      alone: r.alone,
      reason: r.reason,
      holdsAt: r.holdsAt ?? null,
      breaksAt: r.breaksAt ?? null,
      error: r.firstError,
    };
  });
  const fragile = input.fragile ?? 'warn';
  const failed = tests.some((t) => blocks(t.verdict, fragile));
  return {
    version: GATE_REPORT_VERSION,
    verdict: failed ? 'fail' : 'pass',
    base: input.base,
    baseRef: input.baseRef,
    runs: input.runs,
    maxRuns: input.maxRuns ?? input.runs,
    timeBudgetMs: input.timeBudgetMs ?? 0,
    platform: input.platform,
    warnAt: input.warnAt ?? DEFAULT_CONFIG.budget.warnAt,
    vitestVersion: input.vitestVersion,
    load: input.load,
    fragile,
    ...(input.contention ? { contention: input.contention } : {}),
    tests,
    counts,
    notRun: input.notRun,
    unchanged: input.unchanged,
    proposals: input.proposals,
    notices: input.notices,
    wallMs: Math.round(input.wallMs),
    shard: input.shard ?? null,
    ...(input.cost
      ? { cost: { loadedWallMs: Math.round(input.cost.loadedWallMs), triesMs: Math.round(input.cost.triesMs) } }
      : {}),
  };
}
