/**
 * What the gate's phases are given (gate-run.ts runGate), and what each of its phases shares: the
 * options, a progress sink per phase and whether the deadline still allows a phase to start.
 */
import type { resolveTestLimit } from '../../core/budget/budget.js';
import type { Config } from '../../core/config.js';
import type { ProgressLine, TrySeed } from '../../core/gate/runner-protocol.js';
import type { SelectedTest } from '../../core/gate/test-selection.js';
import type { SourceTest } from '../../core/source/test-source.js';
import type { VitestSession } from '../../io/vitest/vitest-session.js';
import type { VitestSetup } from '../../io/vitest/vitest-setup.js';

export interface GateRunOptions {
  readonly root: string;
  readonly config: Config;
  readonly setup: VitestSetup;
  readonly selected: readonly SelectedTest<SourceTest>[];
  /** The Vitest projects each file runs in. */
  readonly projectsOf: ReadonlyMap<string, readonly string[]>;
  readonly affectedBy: ReadonlyMap<string, readonly string[]>;
  readonly tries: number;
  readonly maxTries: number;
  readonly timeBudgetMs: number;
  /** --time-budget was given: it is kept as it is (the default grows to cover the must-have checks). */
  readonly timeBudgetGiven: boolean;
  /** performance.now() when the command started: the time budget counts from it. */
  readonly started: number;
  readonly workers: number;
  /** The run's seed: every try's random source is seeded from it (io/vitest/vitest-session.ts). */
  readonly seed?: TrySeed;
  /** The reference slowdown factor asked for (1: no stops). */
  readonly slowdown: number;
  /** performance.now() by which every try ends (core/gate/try-ceiling.ts gateDeadline), as first set. */
  readonly deadline: number;
  readonly signal: AbortSignal;
  /** The limit of a test (budget or its allowance). */
  readonly limitFor: (test: SourceTest) => ReturnType<typeof resolveTestLimit>;
  readonly onProgress: (phase: string, line: ProgressLine, index: number) => void;
  readonly onStep: (text: string) => void;
  /** The gate's one Vitest, every check's tries run on it (io/vitest/vitest-session.ts); runGate opens it. */
  readonly session?: VitestSession | undefined;
}

/** What every phase of the gate reads. */
export interface GatePhase {
  readonly options: GateRunOptions;
  /** The progress sink for one phase, named as the progress line shows it. */
  readonly progress: (phase: string) => (line: ProgressLine) => void;
  /** True while performance.now() is before the gate's deadline. */
  readonly inTime: () => boolean;
  /** The deadline now: the default time budget grows to cover the must-have checks (gate-budget-fit.ts). */
  readonly deadline: () => number;
}
