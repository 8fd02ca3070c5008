/**
 * The gate's report: everything the terminal table, the Markdown comment and the JSON print, computed
 * once from the selection, the tries and the load measurements. Pure. `--json` prints this object
 * (schema: schemas/gate-report.schema.json, docs/gate.md, GATE_REPORT_VERSION).
 */

import { DEFAULT_BUDGET_CONFIG } from '../budget/budget-config.js';
import type { Calibration } from '../calibration/auto-slowdown.js';
import type { TestRef } from '../test-id.js';
import { type GateReportTest, type GateTestInput, toReportTest } from './gate-report-test.js';
import type { GateVerdict } from './gate-verdict.js';
import type { Contention } from './slowdown.js';

/**
 * The slowdown the tries ran at: asked, how the workers were paced, and what each phase's tries got;
 * with `auto`, how the target was chosen (core/calibration/auto-slowdown.ts).
 */
export type GateContention = Contention & { readonly calibration?: Calibration };

/**
 * 7: every try is seeded (issue 46): the report has the run's `seed` (--seed, else drawn; null in a
 * merge of shards with different seeds), each try its own `seed` (`flakeguard replay --seed`
 * replays its random draws). gate-report-versions.ts reads a version 6 (seed null).
 * 6: a test's `project` is '' for the unnamed Vitest project (was null; null means "unknown" in every
 * format, and the gate always knows); the report names its format (`format`). A test's tries beyond
 * its cold ones may be warm repeats (`cold: false`, in one worker: the reference tries, those
 * without slowdown, the confirm tries), `maxTries` defaults to 150; a `missing` check may be
 * `confirm` (a failure seen only above the reference, too few tries there to tell a limit from a
 * flake: the verdict is `inconclusive`, no longer `fragile`). gate-report-versions.ts reads a
 * version 5, 4, 3 or 2.
 * 5: every full name (a test's, its previous place's, a not-run row's, a proposal's) is `fullName`
 * (was `name`; gate-report-versions.ts reads a version 4, 3 or 2); the verdict `inconclusive` and a
 * test's `missing` came with it (first written under 4 without a bump: a new enum value is a new
 * version, docs/formats.md).
 * 4: one word per concept, a gate execution of one test is a try: `runs`/`maxRuns` are `tries`/`maxTries`
 * (--tries, --max-tries), a test's and its idle/alone counts' `runs` is `tryCount` (gate-report-versions.ts
 * reads a version 3 or 2).
 * 3: a test's tries are one array of tries (`tries`: state, durationMs, cpuMs, cold, error, slowdown);
 * the parallel `durationsMs`/`tryStates` are gone (core/gate/gate-report-versions.ts reads a version 2).
 * 2: contention has method (how the workers were paced), methodWhy, weight, busyWorkers, phases; no
 * ambient; a try's slowdown may be null with slowdownNote.
 */
export const GATE_REPORT_VERSION = 7 as const;
/** What `format` says: which of flakeguard's JSON outputs this is (schemas/gate-report.schema.json). */
export const GATE_REPORT_FORMAT = 'flakeguard-gate-report' as const;
export const GATE_VERDICTS: readonly GateVerdict[] = [
  'failing',
  'flaky',
  'order-dependent',
  'over-budget',
  'near-budget',
  'inconclusive',
  'fragile',
  'stable',
];

export interface GateLoad {
  /** Busy worker processes during the loaded phase (0 = no load). */
  readonly workers: number;
  readonly pids: readonly number[];
  readonly cpus: number;
  /** os.loadavg() at the start and end of the loaded phase (measured). */
  readonly loadavgBefore: readonly number[] | null;
  readonly loadavgAfter: readonly number[] | null;
  /** Share of all CPUs the load workers used (measured from /proc), or null. */
  readonly workersMachineShare: number | null;
  /** CPU time / wall time of the tries, each try's whole process tree (measured, /proc; the worker alone elsewhere). */
  readonly testsCpuShare: number | null;
}

/** An allowance the gate proposes for a near- or over-budget test (see proposeAllowance). */
export interface GateProposal extends TestRef {
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

export interface GateReport {
  readonly format: typeof GATE_REPORT_FORMAT;
  readonly version: typeof GATE_REPORT_VERSION;
  readonly verdict: 'pass' | 'fail';
  /** The merge-base sha the working tree was compared with. */
  readonly base: string;
  readonly baseRef: string;
  /** The run's seed (--seed, else drawn): each try's seed derives from it; null when the tries were not seeded. */
  readonly seed: number | null;
  /** --tries: the tries every test got at least. */
  readonly tries: number;
  /** --max-tries: the most tries a test got when the time budget allowed. */
  readonly maxTries: number;
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
  readonly notRun: readonly (TestRef & { readonly line: number; readonly reason: string })[];
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

interface GateCost {
  readonly loadedWallMs: number;
  readonly triesMs: number;
}

/** The report as `--json` prints it and `--merge` reads it: as it is in memory (since version 5, `fullName`; since 6, '' for the unnamed project). */
export function toGateReportJson(report: GateReport): GateReport {
  return report;
}

export type GateReportJson = ReturnType<typeof toGateReportJson>;

export interface GateReportInput {
  readonly base: string;
  readonly baseRef: string;
  /** The run's seed; absent: the tries were not seeded. */
  readonly seed?: number;
  readonly tries: number;
  readonly maxTries?: number;
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
    counts[t.result.verdict] += 1;
    return toReportTest(t);
  });
  const fragile = input.fragile ?? 'warn';
  const failed = tests.some((t) => blocks(t.verdict, fragile));
  return {
    format: GATE_REPORT_FORMAT,
    version: GATE_REPORT_VERSION,
    verdict: failed ? 'fail' : 'pass',
    base: input.base,
    baseRef: input.baseRef,
    seed: input.seed ?? null,
    tries: input.tries,
    maxTries: input.maxTries ?? input.tries,
    timeBudgetMs: input.timeBudgetMs ?? 0,
    platform: input.platform,
    warnAt: input.warnAt ?? DEFAULT_BUDGET_CONFIG.warnAt,
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
