/**
 * `flakeguard gate --plan`: what a gate would run and within which limits, without running anything
 * (a CI preview: which tests a change selects, in which Vitest projects, with which duration limit,
 * at how many tries and which slowdown). Pure: the selection, the limits and the settings in, the
 * versioned plan out (docs/gate.md "Plan" has the schema).
 */

import type { Calibration } from '../calibration/auto-slowdown.js';
import type { LimitSource } from '../record/run-record.js';
import type { TestRef } from '../test-id.js';
import { specKey } from '../tuple-key.js';
import { estimateMustHave, type MustHaveEstimate } from './check-plan.js';
import { describeChecks } from './gate-checks.js';
import type { GateReport } from './gate-report.js';
import type { GateReportTest } from './gate-report-test.js';
import type { GateShard } from './gate-shard.js';
import type { SelectionKind } from './test-selection.js';

/**
 * 4: a test's `project` is '' for an unnamed Vitest project (was null, which means "unknown" in
 * every format); the plan names its format (`format`). 3: every full name is `fullName` (was `name`). 2: `limits.runs`/`limits.maxRuns` are
 * `limits.tries`/`limits.maxTries` (--tries, --max-tries). Nothing reads a plan back.
 */
const GATE_PLAN_VERSION = 4;
const GATE_PLAN_FORMAT = 'flakeguard-gate-plan' as const;

/** A report row's place, selection and limit (core/gate/gate-report-test.ts): what the gate would try. */
type GatePlanTest = Pick<
  GateReportTest,
  | 'file'
  | 'fullName'
  | 'line'
  | 'project'
  | 'selection'
  | 'previous'
  | 'affectedBy'
  | 'limitMs'
  | 'limitSource'
  | 'allowanceId'
>;

type PlannedCheck = ReturnType<typeof describeChecks>[number];

export interface GatePlan {
  readonly format: typeof GATE_PLAN_FORMAT;
  readonly version: typeof GATE_PLAN_VERSION;
  readonly base: string;
  readonly baseRef: string;
  /** The Vitest config that listed the tests, relative to the root; null for Vitest's defaults. */
  readonly vitestConfig: string | null;
  readonly shard: GateShard | null;
  readonly platform: string;
  readonly limits: {
    readonly tries: number;
    readonly maxTries: number;
    readonly timeBudgetMs: number;
    /** The target factor the tries would run at (with auto: the one history gives, or the default). */
    readonly slowdown: number;
    /** With auto, how the target was chosen (the gate report's contention.calibration); else absent. */
    readonly calibration?: Calibration;
    readonly loadWorkers: number;
    readonly warnAt: number;
  };
  readonly tests: readonly GatePlanTest[];
  /** The must-have checks before any try, at their most, and the time they would take (core/gate/check-plan.ts). */
  readonly mustHave: MustHaveEstimate;
  /** The gate's checks in the order it makes them (core/gate/gate-checks.ts): which, must-have or nice-to-have, under what, at what cost. */
  readonly checks: readonly PlannedCheck[];
  readonly notRun: GateReport['notRun'];
  readonly unchanged: number;
  readonly changedFiles: number;
  readonly notices: readonly string[];
}

interface PlanTestSource {
  readonly file: string;
  readonly fullName: string;
  readonly line: number;
}

export interface GatePlanSelected<T extends PlanTestSource = PlanTestSource> {
  readonly kind: SelectionKind;
  readonly test: T;
  readonly previous: Pick<TestRef, 'file' | 'fullName'> | null;
}

export interface GatePlanInput<T extends PlanTestSource>
  extends Omit<GatePlan, 'format' | 'version' | 'tests' | 'mustHave' | 'checks'> {
  /** Cores the tries would share (the estimate's parallelism), and whether --time-budget was given. */
  readonly cpus: number;
  readonly timeBudgetGiven: boolean;
  readonly selected: readonly GatePlanSelected<T>[];
  /** The Vitest projects each file runs in ('' for an unnamed one); a file not listed runs once. */
  readonly projectsOf: ReadonlyMap<string, readonly string[]>;
  readonly affectedBy: ReadonlyMap<string, readonly string[]>;
  readonly limitFor: (test: T) => {
    readonly limitMs: number;
    readonly source: LimitSource;
    readonly allowanceId?: string;
  };
}

/** The plan as `--plan` prints it: as it is in memory (since version 3 every full name is `fullName`, since 4 an unnamed project is '', as in the gate report). */
export function toGatePlanJson(plan: GatePlan): GatePlan {
  return plan;
}

export type GatePlanJson = ReturnType<typeof toGatePlanJson>;

/** One row per selected test and project it runs in, in the selection's order. */
export function computeGatePlan<T extends PlanTestSource>(input: GatePlanInput<T>): GatePlan {
  const { selected, projectsOf, affectedBy, limitFor, cpus, timeBudgetGiven, ...rest } = input;
  const tests = selected.flatMap((s) => {
    const limit = limitFor(s.test);
    const projects = projectsOf.get(s.test.file) ?? [''];
    return projects.map(
      (project): GatePlanTest => ({
        file: s.test.file,
        fullName: s.test.fullName,
        line: s.test.line,
        project,
        selection: s.kind,
        previous: s.previous === null ? null : { file: s.previous.file, fullName: s.previous.fullName },
        affectedBy: affectedBy.get(s.test.file) ?? [],
        limitMs: limit.limitMs,
        limitSource: limit.source,
        allowanceId: limit.allowanceId ?? null,
      }),
    );
  });
  const mustHave = estimateMustHave({
    files: new Set(tests.map((t) => specKey(t.file, t.project))).size,
    newTests: tests.filter((t) => t.selection === 'new').length,
    tries: input.limits.tries,
    slowdown: input.limits.slowdown,
    cpus,
    timeBudgetMs: input.limits.timeBudgetMs,
    given: timeBudgetGiven,
  });
  return { format: GATE_PLAN_FORMAT, version: GATE_PLAN_VERSION, ...rest, tests, mustHave, checks: describeChecks() };
}
