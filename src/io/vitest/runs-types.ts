/**
 * The types of the gate's Vitest calls (vitest-runs.ts): what to run, and the tries that came back.
 */
import type { ProgressLine, TryRecord } from '../../core/gate/runner-protocol.js';
import type { WaveSummary } from './vitest-job.js';
import type { VitestSetup } from './vitest-setup.js';

export interface RepeatTarget {
  /** Relative to root, with `/`. */
  readonly file: string;
  /** Titles joined with ' > '. */
  readonly fullName: string;
  /** Line the test starts on (needed by runTestsAlone). */
  readonly line: number | null;
  /** Vitest project to run it in; null or absent: the first project that includes the file. */
  readonly project?: string | null;
}

export interface TestTries {
  readonly file: string;
  /** The project it ran in ('' when unnamed). */
  readonly project: string;
  readonly fullName: string;
  /** False when Vitest did not run the test (not found, file failed to load, skipped by a filter). */
  readonly found: boolean;
  readonly tries: readonly MeasuredTry[];
  readonly errors: readonly string[];
}

/** A try with the slowdown it got (measured: core/gate/slowdown.ts trySlowdown). */
export interface MeasuredTry extends TryRecord {
  readonly slowdown: number;
}

export interface RunsOutcome {
  readonly vitestVersion: string;
  readonly tests: readonly TestTries[];
  readonly moduleErrors: readonly { readonly file: string; readonly project: string; readonly message: string }[];
  readonly unhandledErrors: readonly string[];
  readonly waves: readonly WaveSummary[];
  /** Wall time of the whole call (Vitest start included). */
  readonly wallMs: number;
  /** The group's ambient slowdown last measured by the duty cycle, when one ran. */
  readonly ambient: number | null;
  /** Why the call ended before Vitest finished, or null: the gate's deadline, or a hung try took Vitest with it. */
  readonly cutShort: 'deadline' | 'hung' | null;
}

export interface RunOptions {
  readonly root: string;
  readonly tests: readonly RepeatTarget[];
  /** Tries each test gets at least. */
  readonly runs: number;
  /** Tries a test may get when the budget allows (default: runs). */
  readonly maxRuns?: number;
  /** Wall time the tries beyond `runs` may take up to (default 0: none). */
  readonly budgetMs?: number;
  readonly setup?: VitestSetup;
  /** Duty-cycle the Vitest process group to this slowdown (ambient included); absent or <= 1: no stops. */
  readonly slowdown?: { readonly target: number; readonly ambient: number | null };
  /** One try at a time (default false). */
  readonly serial?: boolean;
  /** performance.now() at which every try still running is stopped and the outcome is what came back. */
  readonly deadline?: number;
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  readonly onProgress?: (line: ProgressLine) => void;
}
