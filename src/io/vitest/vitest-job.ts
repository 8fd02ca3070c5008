/**
 * The job a flakeguard-driven Vitest process runs (see vitest-gate-child.ts) and what it reports
 * back. Shared between the parent (vitest-tries.ts) and the child. The tries themselves come back
 * as JSON lines in the results file (core/gate/runner-protocol.ts), written by the test workers.
 */
import type { TrySeeding } from '../../core/gate/runner-protocol.js';
import type { VitestSetup } from './vitest-setup.js';

export interface JobSpec {
  /** Absolute path of a test file. */
  readonly file: string;
  /** The Vitest project to run it in; null for the first project that includes the file. */
  readonly project: string | null;
  /** Only the tests starting on these lines (Vitest line filters), or null for the whole file. */
  readonly lines: readonly number[] | null;
}

export interface JobTest {
  readonly file: string;
  readonly fullName: string;
  /** Index in VitestJob.specs of the spec that runs it. */
  readonly spec: number;
  /** A fixed seed for its tries (a replay's), over the job's seeding. */
  readonly seed?: number;
  /** The seeds of its first tries in each worker (PlannedTest.seeds). */
  readonly seeds?: readonly (number | null)[];
}

export interface VitestJob {
  readonly root: string;
  readonly setup: VitestSetup;
  readonly runnerPath: string;
  /** The runner's plan (tests to time), written by the child. */
  readonly planFile: string;
  /** The JSON-lines file the test workers append their tries to. */
  readonly resultsFile: string;
  readonly resultFile: string;
  readonly specs: readonly JobSpec[];
  readonly tests: readonly JobTest[];
  readonly minTries: number;
  readonly maxTries: number;
  /** Wall time the phase may take for tries beyond minTries. */
  readonly budgetMs: number;
  /** One try at a time (the check without slowdown: tries must not slow each other down). */
  readonly serial: boolean;
  /** After the cold tries, the extra ones as warm repeats (core/gate/warm-schedule.ts), within the budget. */
  readonly warm?: boolean;
  /** Copies of each file in the first wave (default minTries). */
  readonly coldTries?: number;
  /** How the tries' random sources are seeded (the runner's plan carries it); absent: not seeded. */
  readonly seeding?: TrySeeding;
  /** Warm repeats of every planned test in each worker (a replay), instead of the schedule's. */
  readonly repeats?: number;
  /** Each file's tests in reverse order (the order check); absent: as written. */
  readonly reversed?: boolean;
  /** What an earlier call measured, by index: each test's mean try (`tests`) and each spec's cold cost (`specs`); null: not measured. */
  readonly hints?: { readonly testMs: readonly (number | null)[]; readonly specMs: readonly (number | null)[] };
  /**
   * Test workers side by side for a project that sets no worker count of its own (a paced call:
   * core/gate/paced-workers.ts); absent: Vitest's default.
   */
  readonly workers?: number;
  /** The job's environment in a session child (vitest-session-jobs.ts): set for its runs only. */
  readonly env?: Readonly<Record<string, string>>;
}

export interface WaveSummary {
  /** Tries of files (workers) the wave started. */
  readonly specs: number;
  readonly wallMs: number;
}

export type VitestJobResult =
  | {
      readonly ok: true;
      readonly vitestVersion: string;
      /** The project each spec ran in (its name, '' when unnamed). */
      readonly specProjects: readonly string[];
      readonly waves: readonly WaveSummary[];
      /** Files that failed to load or collect, or whose beforeAll failed. */
      readonly moduleErrors: readonly { readonly file: string; readonly project: string; readonly message: string }[];
      readonly unhandledErrors: readonly string[];
    }
  | { readonly ok: false; readonly reason: 'custom-runner'; readonly runner: string; readonly vitestVersion: string }
  | {
      readonly ok: false;
      readonly reason: 'no-project';
      readonly project: string;
      readonly known: readonly string[];
      readonly vitestVersion: string;
    };
