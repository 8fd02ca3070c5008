/**
 * `flakeguard/runner`: Vitest's own TestRunner, plus, for the tests named in the plan (env
 * FLAKEGUARD_RUNNER_PLAN, a JSON file): each try is timed (before beforeEach to after afterEach),
 * its test function alone too (Vitest's `test.callback` trace step, with the worker's CPU and the
 * test thread's run-queue wait at both edges: what the gate measures the try's factor over,
 * core/gate/pacer.ts tryFigures), and appended as one JSON line to the plan's results file,
 * marked cold when the test had not run before in this worker; retries are off for them, so a
 * retry cannot hide a failed try; the file's tests after the last planned one are skipped (they
 * cannot affect it, and cost a try time). When the file ends, one more line says what the whole
 * worker cost (wall time since it started).
 * The file's earlier tests run as usual, so each try sees the state CI gives it.
 */
import { appendFileSync } from 'node:fs';
// Runner types from @vitest/runner (4.1); type-only, so nothing is imported at run time and the
// runner works on 5.x, where @vitest/runner is folded into vitest.
import type { Task as RunnerTask, Test as RunnerTestCase, File as RunnerTestFile } from '@vitest/runner';
import { TestRunner } from 'vitest';
import {
  formatRunnerLine,
  type GateTry,
  PACED_CGROUP_ENV,
  type PlannedTest,
  type RunnerLine,
  type RunnerPlan,
  type TryBody,
} from '../core/gate/runner-protocol.js';
// Not the globals: a test may delete or replace them (captured-globals.ts).
import { testKey } from '../core/test-id.js';
import { cpuUsage, performance } from './captured-globals.js';
import { firstLine, readPlan, reverseTasks, seenInWorker, testLine, testsInOrder } from './runner-plan.js';
import { type InstalledSeed, installSeededRandom, seedOfTry } from './try-seeding.js';
import {
  aloneInTry,
  awaitCgroup,
  killLeftovers,
  readOwnFigures,
  readTreeCpu,
  type TreeCpu,
  threadId,
} from './worker-proc.js';

interface TryStart {
  readonly at: number;
  readonly cpu: NodeJS.CpuUsage;
  readonly tree: TreeCpu | null;
  readonly errors: number;
  /** The try's seeded random source (the plan's seeding), removed when the try is recorded. */
  readonly seeded: InstalledSeed | null;
  /** The test function's span and figures, once it returned (or threw). */
  body?: Omit<TryBody, 'alone'>;
}

/** Vitest's tracing hook (VitestRunner.trace, 4.x and later): the runner wraps its `test.callback` step, the test function. */
type Trace = (name: string, attributes: unknown, cb?: () => unknown) => unknown;

/** How long a worker waits for the gate to move it into its cgroup before its tests run anyway (ms). */
const PACED_WAIT_MS = 3000;

const keyOf = (test: RunnerTask): string => testLine(test).key;

export default class FlakeguardRunner extends TestRunner {
  private plan: RunnerPlan | null = null;
  /** Each planned test by its key: its warm repeats in this worker and its own seed. */
  private planned = new Map<string, PlannedTest>();
  /** Each planned test's tries so far in this worker, by its key: the index into its `seeds`. */
  private readonly seedTries = new Map<string, number>();
  private starts = new WeakMap<RunnerTestCase, TryStart>();
  private plannedFiles = new Set<RunnerTestFile>();
  /** Time this worker's warm tries (not a test's first here) took, by file path. */
  private warmMs = new Map<string, number>();
  private readonly tid = threadId();

  /** The planned tries between onBeforeTryTask and onAfterRetryTask (one, unless tests run concurrently). */
  private readonly open = new Set<TryStart>();

  constructor(...args: ConstructorParameters<typeof TestRunner>) {
    super(...args);
    // Before the file is collected: the gate starts pacing this worker's tree now.
    const plan = readPlan();
    if (plan) appendFileSync(plan.resultsFile, formatRunnerLine({ kind: 'worker', pid: process.pid, tid: this.tid }));
    const self = this as unknown as { trace?: Trace };
    const base = self.trace;
    self.trace = (name, attributes, cb) => {
      const run = (typeof attributes === 'function' ? attributes : cb) as () => unknown;
      const step = () => (base ? base.call(this, name, attributes, cb) : run());
      return name === 'test.callback' && this.open.size === 1
        ? this.timeBody([...this.open][0] as TryStart, step)
        : step();
    };
  }

  /** Runs the test function, keeping its span and the worker's figures at both edges in the try's start. */
  private timeBody(start: TryStart, step: () => unknown): unknown {
    const own = readOwnFigures(this.tid);
    const at = performance.now();
    const end = (): void => {
      const wallMs = performance.now() - at;
      const after = readOwnFigures(this.tid);
      const figures = own && after ? { cpuMs: after.cpuMs - own.cpuMs, waitMs: after.waitMs - own.waitMs } : null;
      start.body = { startedAt: performance.timeOrigin + at, wallMs, own: figures };
    };
    let out: unknown;
    try {
      out = step();
    } catch (e) {
      end();
      throw e;
    }
    if (out instanceof Promise) return out.finally(end);
    end();
    return out;
  }

  async onBeforeRunFiles(files: RunnerTestFile[]): Promise<void> {
    // A process the first test starts before the gate moved this worker into its cgroup would stay
    // outside it, neither paced nor measured: wait for the move (the gate reads the worker's line
    // every 5 ms; on a crowded machine that can take a while).
    const cgroup = process.env[PACED_CGROUP_ENV];
    if (cgroup) await awaitCgroup(cgroup, PACED_WAIT_MS);
    this.plannedFiles.clear();
    this.plan = readPlan();
    this.planned = new Map((this.plan?.tests ?? []).map((t) => [testKey(t), t]));
    for (const file of files) {
      const tests = testsInOrder(this.plan?.order === 'reversed' ? reverseTasks(file) : file);
      const last = tests.findLastIndex((t) => this.isPlanned(t));
      if (last === -1) continue;
      this.plannedFiles.add(file);
      for (const later of tests.slice(last + 1)) {
        if (later.mode === 'run' && !later.concurrent) later.mode = 'skip';
      }
    }
  }

  override onAfterRunFiles(): void {
    for (const file of this.plannedFiles) {
      const warmMs = this.warmMs.get(file.filepath);
      const costMs = performance.now();
      this.append({
        kind: 'file',
        file: file.filepath,
        project: file.projectName ?? '',
        costMs,
        ...(warmMs ? { warmMs } : {}),
      });
    }
    this.warmMs.clear();
    if (this.plannedFiles.size > 0) killLeftovers();
    this.plannedFiles.clear();
    super.onAfterRunFiles();
  }

  private isPlanned(test: RunnerTask): test is RunnerTestCase {
    if (test.type !== 'test' || this.plan === null) return false;
    return this.planned.has(keyOf(test));
  }

  private append(line: RunnerLine): void {
    if (this.plan) appendFileSync(this.plan.resultsFile, formatRunnerLine(line));
  }

  override onBeforeRunTask(test: RunnerTask): Promise<void> {
    if (this.isPlanned(test)) {
      test.retry = 0;
      // Each repeat is one more try, warm, in this worker (runTest calls onBeforeTryTask and
      // onAfterRetryTask around each): the plan's count, or none (the user's repeats would add
      // tries the gate did not plan).
      test.repeats = this.planned.get(keyOf(test))?.repeats ?? 0;
    }
    return super.onBeforeRunTask(test);
  }

  override onBeforeTryTask(test: RunnerTask, ...rest: unknown[]): void {
    if (this.isPlanned(test)) {
      const tree = readTreeCpu();
      const at = performance.now();
      const timeoutMs = (test as { timeout?: number }).timeout ?? 0;
      const id = testLine(test);
      this.append({
        kind: 'start',
        ...id,
        pid: process.pid,
        tid: this.tid,
        startedAt: performance.timeOrigin + at,
        timeoutMs,
      });
      const seeding = this.plan?.seeding;
      const planned = this.planned.get(id.key);
      const nth = this.seedTries.get(id.key) ?? 0;
      this.seedTries.set(id.key, nth + 1);
      const own = planned?.seeds?.[nth] ?? planned?.seed;
      const seed = own ?? (seeding ? seedOfTry(seeding, id) : null);
      const seeded = seed === null ? null : installSeededRandom(seed, seeding?.nodeCrypto ?? false);
      const start: TryStart = { at, tree, cpu: cpuUsage(), errors: test.result?.errors?.length ?? 0, seeded };
      this.starts.set(test, start);
      this.open.add(start);
    }
    (super.onBeforeTryTask as (t: RunnerTask, ...r: unknown[]) => void)(test, ...rest);
  }

  /**
   * After afterEach and onFinished. Vitest 4.1's TestRunner has no such method; 5.x has one (it
   * finishes trace attempts), so the base class's is called whenever it exists.
   */
  onAfterRetryTask(test: RunnerTestCase, ...rest: unknown[]): unknown {
    this.recordTry(test);
    const base = (
      TestRunner.prototype as unknown as { onAfterRetryTask?: (this: unknown, ...args: unknown[]) => unknown }
    ).onAfterRetryTask;
    return base?.call(this, test, ...rest);
  }

  private recordTry(test: RunnerTestCase): void {
    const start = this.starts.get(test);
    if (!start || !this.isPlanned(test)) return;
    this.starts.delete(test);
    this.open.delete(start);
    const durationMs = performance.now() - start.at;
    start.seeded?.remove();
    const cpu = cpuUsage(start.cpu);
    const tree = start.tree === null ? null : readTreeCpu();
    const errors = test.result?.errors ?? [];
    const failed = errors.length > start.errors;
    const state = failed ? 'failed' : test.result?.state === 'skip' ? 'skipped' : 'passed';
    const seen = seenInWorker();
    const key = keyOf(test);
    const cold = !seen.has(key);
    seen.add(key);
    if (!cold) this.warmMs.set(test.file.filepath, (this.warmMs.get(test.file.filepath) ?? 0) + durationMs);
    const record: GateTry = {
      state,
      durationMs,
      cpuMs:
        tree !== null && start.tree !== null
          ? Math.max(0, tree.cpuMs - start.tree.cpuMs)
          : (cpu.user + cpu.system) / 1000,
      cold,
      startedAt: performance.timeOrigin + start.at,
      pid: process.pid,
      tid: this.tid,
      ...(failed ? { error: firstLine(errors[start.errors]) } : {}),
      ...(start.seeded ? { seed: start.seeded.seed } : {}),
      ...(start.body ? { body: { ...start.body, alone: aloneInTry(start.tree, tree) } } : {}),
    };
    this.append({ kind: 'try', ...testLine(test), try: record });
  }
}
