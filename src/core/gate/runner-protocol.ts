/**
 * What flakeguard's runner (inside Vitest's test workers) and the process that drives Vitest share:
 * the plan (which tests to time) and one JSON line per try and per file run, appended by the worker
 * to the results file the plan names. A try is one run of one test: the first in a worker is cold
 * (a fresh worker: what CI sees), and a planned test with `repeats` runs that many more times in the
 * same worker, warm (Vitest's own `repeats`, its hooks around each), one try line each.
 */
export const PLAN_ENV = 'FLAKEGUARD_RUNNER_PLAN';
/**
 * The cgroup folder name the gate paces this call's workers in (absent: none). A process a test
 * starts before its worker is in it stays outside, neither paced nor measured: the runner waits,
 * after announcing itself and before the first test runs, until its thread is in it.
 */
export const PACED_CGROUP_ENV = 'FLAKEGUARD_PACED_CGROUP';

export interface PlannedTest {
  /** The Vitest project of its spec ('' unnamed): a file two projects run is tried in each apart. */
  readonly project: string;
  /** Absolute path of the test file. */
  readonly file: string;
  /** Titles joined with ' > ', without the file. */
  readonly fullName: string;
  /** Warm repeats after its first try in the worker (absent or 0: one try, the user's own `repeats` off). */
  readonly repeats?: number;
  /** A fixed seed for every try of this test (a replay's), over the plan's seeding; absent: the plan's. */
  readonly seed?: number;
  /**
   * The seeds of its first tries in each worker, in order (null: the plan's seeding for that try):
   * a paired replay of earlier tries' draws (the tries without slowdown replay the reference's
   * failed seeds, core/gate/paired-seeds.ts). After the list, `seed` or the plan's.
   */
  readonly seeds?: readonly (number | null)[];
}

export interface RunnerPlan {
  readonly tests: readonly PlannedTest[];
  /** JSON-lines file the runner appends a RunnerLine to after each planned test and each file. */
  readonly resultsFile: string;
  /** How each planned try's random source is seeded (runner/try-seeding.ts); absent: not seeded. */
  readonly seeding?: TrySeeding;
  /**
   * `reversed`: each planned file runs its tests (and suites, at every level) in reverse order, so
   * each planned test runs after the tests written below it and before those above it (the gate's
   * order check, core/gate/gate-checks.ts `reversed`); absent: as written.
   */
  readonly order?: 'reversed';
}

/**
 * The random source of each planned try (issue 46): `Math.random`, and `crypto.getRandomValues` and
 * `crypto.randomUUID` on globalThis, replaced by a seeded generator (core/replay/seeded-random.ts)
 * from before beforeEach to after afterEach; with `nodeCrypto`, `node:crypto`'s randomBytes,
 * randomInt and randomUUID too.
 * - `derived`: the gate's. A try's seed is deriveTrySeed(runSeed, the test's key with its file
 *   relative to `root`, the try's number); the number is claimed in `claimDir` (one file per try,
 *   created exclusively), so side-by-side workers never share one and every try of a gate run has
 *   its own number, 0 upwards, whatever job it ran in.
 * - `fixed`: a replay's (`flakeguard replay --seed`): every try starts from `seed`.
 */
export type TrySeeding =
  | {
      readonly kind: 'derived';
      readonly runSeed: number;
      readonly root: string;
      readonly claimDir: string;
      readonly nodeCrypto: boolean;
    }
  | { readonly kind: 'fixed'; readonly seed: number; readonly nodeCrypto: boolean };

/** A call's seeding, before the job names its folders (TrySeeding without root and claimDir). */
export type TrySeed =
  | { readonly kind: 'derived'; readonly runSeed: number; readonly nodeCrypto: boolean }
  | { readonly kind: 'fixed'; readonly seed: number; readonly nodeCrypto: boolean };

/** `hung`: still running past its ceiling (test timeout x slowdown + margin); the gate killed its worker. */
export type TryState = 'passed' | 'failed' | 'skipped' | 'hung';

/**
 * One try: one gate execution of one test, in one shape from the runner's line (state, duration,
 * CPU, cold, the worker's ids) through measurement (the gate adds the factor the try's tree got:
 * io/vitest/tries-outcome.ts) to the verdict and the report (core/gate/gate-verdict.ts reportedTry
 * keeps the fields that mean something outside the machine: no pid, tid or startedAt).
 */
export interface GateTry {
  readonly state: TryState;
  /** From before beforeEach to after afterEach (hooks included), measured in the test worker. */
  readonly durationMs: number;
  /**
   * CPU time the try's process tree got: the worker, the child processes it reaped, the descendants
   * still running (Linux /proc, 10 ms ticks); elsewhere the worker alone (process.cpuUsage).
   * Absent only in a try read back from a version-2 gate report.
   */
  readonly cpuMs?: number;
  /**
   * True when the test had not run before in this worker (process or thread): what CI sees. False
   * when the project reuses workers (isolate: false) and the test already ran in this one. The
   * runner always sets it; a try built by hand without it reads as warm (reportedTry says false).
   */
  readonly cold?: boolean;
  /** First line of the first error this try added, when it failed. */
  readonly error?: string;
  /**
   * The seed its random source started from (RunnerPlan.seeding): `flakeguard replay --seed` with
   * it draws the same values. Absent when the try was not seeded (a report before version 7).
   */
  readonly seed?: number;
  /** The factor the try's own process tree got (measured by the gate; core/gate/pacer.ts tryFactor), or null and slowdownNote says why; absent before the gate measured it. */
  readonly slowdown?: number | null;
  /** Why slowdown is null: "too short to measure (2.1 ms of CPU)". */
  readonly slowdownNote?: string;
  /**
   * Of the span the factor is measured over (its test function, else the whole try), the wall time
   * its tree was blocked: neither on a CPU, waiting for one, nor stopped by the pacer (wall - CPU -
   * run-queue wait - stopped; core/gate/pacer.ts blockedOf). The test's own clock counts it and the
   * factor does not: wall / CPU = slowdown + blockedMs / CPU. Measured by the gate; absent when not.
   */
  readonly blockedMs?: number;
  /** When the try started: performance.timeOrigin + performance.now() in the worker (ms since the epoch). */
  readonly startedAt?: number;
  /** The worker's process id (the gate kills a hung try's process tree by it). */
  readonly pid?: number;
  /** The worker's thread id (its pid in a forks pool): the gate's pacer keys the worker's tree by it. */
  readonly tid?: number;
  /** The test function alone, as the runner timed it: the span the gate measures the try's factor over. */
  readonly body?: TryBody;
  /**
   * Its duration at the factor asked, when it got more than 10% above it (core/gate/judged-duration.ts):
   * what its budget is judged on; durationMs stays the raw figure. Set by the gate's verdict.
   */
  readonly atAskedMs?: number;
}

/**
 * The test function of one try (after beforeEach, before afterEach), timed by the runner around
 * Vitest's `test.callback` step: what the try's factor is about, without the worker's own work
 * around it (hooks, the runner's lines, Vitest's reporting).
 */
export interface TryBody {
  /** performance.timeOrigin + performance.now() in the worker when the function was called. */
  readonly startedAt: number;
  readonly wallMs: number;
  /**
   * Over exactly that span: the CPU of the worker process and the run-queue wait of the thread
   * that ran the test (a cgroup's throttling shows as wait), read at both edges by that thread;
   * null in a threads pool or without /proc (runner/worker-proc.ts readOwnFigures).
   */
  readonly own: { readonly cpuMs: number; readonly waitMs: number } | null;
  /**
   * True when the worker process was the try's whole tree: no process below it at the try's start
   * or end, and none reaped during it. Else the processes below it are seen only by the pacer's
   * samples, added to these reads over the same span (core/gate/pacer.ts tryFigures).
   */
  readonly alone: boolean;
}

export type RunnerLine =
  | {
      /** A worker started (before it collects its file): the gate paces its process tree from now on. */
      readonly kind: 'worker';
      readonly pid: number;
      readonly tid: number;
    }
  | {
      readonly kind: 'try';
      readonly file: string;
      /** Vitest project name ('' when unnamed). */
      readonly project: string;
      readonly fullName: string;
      /** The test's key (core/test-id.ts testKey of project, file, full name), as the plan names it: readers use it. */
      readonly key: string;
      readonly try: GateTry;
    }
  | {
      /** A planned test's try began (the parent kills its worker when it outlives its ceiling). */
      readonly kind: 'start';
      readonly file: string;
      readonly project: string;
      readonly fullName: string;
      /** As on a try line. */
      readonly key: string;
      readonly pid: number;
      readonly tid?: number;
      /** performance.timeOrigin + performance.now() in the worker. */
      readonly startedAt: number;
      /** The test's own timeout (0: none). */
      readonly timeoutMs: number;
    }
  | {
      readonly kind: 'file';
      readonly file: string;
      readonly project: string;
      /** Wall time from the worker's start to the end of the file: what one try of this file costs, warm repeats included. */
      readonly costMs: number;
      /** Of costMs, the warm repeats' tries (absent: none): a cold try of the file costs costMs less this. */
      readonly warmMs?: number;
    };

/** What one cold try of a file costs, from its line: the worker's wall time less its warm repeats. */
export const coldCostMs = (line: { readonly costMs: number; readonly warmMs?: number }): number =>
  Math.max(0, line.costMs - (line.warmMs ?? 0));

/** A finished try as the results file carries it. */
type TryLine = Extract<RunnerLine, { readonly kind: 'try' }>;

/** One finished try, as the progress display gets it: its line (file relative to the root) and how many of the test's tries are done. */
export type ProgressLine = Omit<TryLine, 'kind' | 'key'> & {
  /** How many tries of this test have finished, this one included. */
  readonly attempt: number;
  /** The most tries the test can get in this phase. */
  readonly maxTries: number;
};

/** Every process below `root` in a pid -> parent table (children, their children, ...). Pure. */
export function descendantsOf(root: number, parents: ReadonlyMap<number, number>): number[] {
  const out: number[] = [];
  const queue = [root];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const [child, parent] of parents) {
      if (parent === pid && !out.includes(child)) {
        out.push(child);
        queue.push(child);
      }
    }
  }
  return out;
}

/** One line of the results file, as every writer (the runner, the gate's watchdog) appends it. */
export const formatRunnerLine = (line: RunnerLine): string => `${JSON.stringify(line)}\n`;

/**
 * The complete lines of `text` (a chunk read from the results file) and what is left of an
 * unfinished last line, to be prefixed to the next chunk.
 */
export function parseRunnerLines(text: string): { lines: RunnerLine[]; rest: string } {
  const complete = text.lastIndexOf('\n') + 1;
  const lines = text
    .slice(0, complete)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as RunnerLine);
  return { lines, rest: text.slice(complete) };
}
