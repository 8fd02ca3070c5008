/**
 * The types of the gate's Vitest calls (vitest-tries.ts): what to run, and the tries that came back.
 */
import type { GateTry, ProgressLine, TrySeed } from '../../core/gate/runner-protocol.js';
import { testKey } from '../../core/test-id.js';
import type { PaceMethod } from '../load/pacer.js';
import type { WaveSummary } from './vitest-job.js';
import type { VitestSession } from './vitest-session.js';
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
  /** runTestsAlone: an earlier test of the file, by its line, run before it in the same worker (a replay's --after). */
  readonly afterLine?: number | null;
  /** A fixed seed for this target's tries (a replay's), over the call's seeding. */
  readonly seed?: number | null;
  /** The seeds of its first tries in each worker, in order (PlannedTest.seeds): a paired replay of earlier draws. */
  readonly seeds?: readonly (number | null)[] | null;
}

/**
 * A target's key, as its tries come back: a target asked of the first project that includes its
 * file (project null: the only, unnamed one) reports as project ''.
 */
export const targetKey = (t: RepeatTarget): string => testKey({ ...t, project: t.project ?? '' });

export interface TestTries {
  readonly file: string;
  /** The project it ran in ('' when unnamed). */
  readonly project: string;
  readonly fullName: string;
  /** False when Vitest did not run the test (not found, file failed to load, skipped by a filter). */
  readonly found: boolean;
  /** Each try with the factor its tree got (slowdown, or null with slowdownNote). */
  readonly tries: readonly GateTry[];
  readonly errors: readonly string[];
}

/** How a call's workers were paced and the factor its tries got (CPU-weighted; null when none could be measured). */
export interface CallPace {
  readonly method: PaceMethod;
  readonly asked: number;
  readonly factor: number | null;
}

export interface TriesOutcome {
  readonly vitestVersion: string;
  readonly tests: readonly TestTries[];
  readonly moduleErrors: readonly { readonly file: string; readonly project: string; readonly message: string }[];
  readonly unhandledErrors: readonly string[];
  readonly waves: readonly WaveSummary[];
  /** The slowest try of each file in each project ('' unnamed): worker start to the file's end. */
  readonly fileCosts: readonly { readonly file: string; readonly project: string; readonly costMs: number }[];
  /** Every file try's cost summed: over the waves' wall time, how many ran at once. */
  readonly busyMs: number;
  /** Wall time of the whole call (Vitest start included). */
  readonly wallMs: number;
  readonly pace: CallPace;
  /** Why the call ended before Vitest finished, or null: the gate's deadline, or a hung try took Vitest with it. */
  readonly cutShort: 'deadline' | 'hung' | null;
}

export interface TryOptions {
  readonly root: string;
  readonly tests: readonly RepeatTarget[];
  /** Tries each test gets at least. */
  readonly tries: number;
  /** Tries a test may get when the budget allows (default: tries). */
  readonly maxTries?: number;
  /** Wall time the tries beyond `tries` may take up to (default 0: none). */
  readonly budgetMs?: number;
  readonly setup?: VitestSetup;
  /** Pace each test worker's tree to this factor (io/load/pacer.ts); absent or <= 1: measured, not paced. */
  readonly slowdown?: number;
  /** One try at a time (default false). */
  readonly serial?: boolean;
  /** The tries beyond `tries` as warm repeats in one worker per file (core/gate/warm-schedule.ts), not cold workers. */
  readonly warm?: boolean;
  /** Cold tries of each file before the warm ones (default `tries`; fewer with `warm`: cheap tests reach `tries` warm). */
  readonly coldTries?: number;
  /** Each file's tests in reverse order: each test after the ones written below it (the gate's order check). */
  readonly reversed?: boolean;
  /**
   * What an earlier call measured of each target (by targetKey): its mean try and its file's cold
   * cost. A call of one cold try and warm repeats then plans the repeats into its first wave.
   */
  readonly costHints?: ReadonlyMap<string, { readonly testMs: number; readonly fileMs: number }>;
  /** Test workers side by side where the project sets no count of its own (absent: a paced call's, core/gate/paced-workers.ts, else Vitest's). */
  readonly workers?: number;
  /** Busy loops running beside the call (the gate's --workers): the cores they take are not filled with paced workers (core/gate/paced-workers.ts). */
  readonly busyWorkers?: number;
  /** Without slowdown, at the kernel's maximum CPU weight where a cgroup can be made (io/load/pacer.ts). */
  readonly unslowed?: boolean;
  /** performance.now() at which every try still running is stopped and the outcome is what came back. */
  readonly deadline?: number;
  readonly env?: Readonly<Record<string, string>>;
  /**
   * How each try's random source is seeded (core/gate/runner-protocol.ts TrySeeding): a run seed
   * each try derives its own from, or one fixed seed for every try (a replay). Absent: the
   * session's (the gate's run seed), else none.
   */
  readonly seed?: TrySeed;
  /** Warm repeats of each test after its first try in each worker (a replay without --cold); absent: as the schedule plans. */
  readonly repeats?: number;
  /** The gate's one Vitest (vitest-session.ts): the call runs on it instead of a Vitest of its own. */
  readonly session?: VitestSession | undefined;
  readonly signal?: AbortSignal;
  readonly onProgress?: (line: ProgressLine) => void;
}
