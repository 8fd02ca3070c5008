/**
 * `flakeguard/runner`: Vitest's own TestRunner, plus, for the tests named in the plan (env
 * FLAKEGUARD_RUNNER_PLAN, a JSON file): each try is timed (before beforeEach to after afterEach)
 * and appended as one JSON line to the plan's results file, marked cold when the test had not run
 * before in this worker; retries are off for them, so a retry cannot hide a failed try; the file's
 * tests after the last planned one are skipped (they cannot affect it, and cost a try time). When
 * the file ends, one more line says what the whole worker cost (wall time since it started).
 * The file's earlier tests run as usual, so each try sees the state CI gives it.
 */
import { appendFileSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
// Runner types from @vitest/runner (4.1); type-only, so nothing is imported at run time and the
// runner works on 5.x, where @vitest/runner is folded into vitest.
import type { Task as RunnerTask, Test as RunnerTestCase, File as RunnerTestFile } from '@vitest/runner';
import { TestRunner } from 'vitest';
import { parseStat } from '../core/gate/proc-text.js';
import {
  descendantsOf,
  formatRunnerLine,
  type GateTry,
  PLAN_ENV,
  type RunnerLine,
  type RunnerPlan,
} from '../core/gate/runner-protocol.js';
import { testKey } from '../core/test-id.js';

interface TryStart {
  readonly at: number;
  readonly cpu: NodeJS.CpuUsage;
  readonly treeCpuMs: number | null;
  readonly errors: number;
}

/** Tests that already ran in this worker; kept on globalThis so a reused worker remembers them. */
const SEEN_KEY = Symbol.for('flakeguard.runner.seen');
function seenInWorker(): Set<string> {
  const holder = globalThis as unknown as Record<symbol, Set<string> | undefined>;
  const seen = holder[SEEN_KEY] ?? new Set<string>();
  holder[SEEN_KEY] = seen;
  return seen;
}

/** pid -> [parent, CPU ms of the process, CPU ms of its reaped children] of every process (Linux /proc), or null. */
function readProcTable(): Map<number, readonly [number, number, number]> | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return null;
  }
  const table = new Map<number, readonly [number, number, number]>();
  for (const e of entries) {
    try {
      const stat = parseStat(readFileSync(`/proc/${e}/stat`, 'utf8'));
      if (stat) table.set(Number(e), [stat.ppid, stat.cpuMs, stat.childCpuMs]);
    } catch {
      // gone
    }
  }
  return table;
}

/** CPU ms of this worker's whole tree: itself, the children it reaped, the descendants still running; null without /proc. */
function readTreeCpuMs(): number | null {
  const table = readProcTable();
  const self = table?.get(process.pid);
  if (!table || !self) return null;
  const parents = new Map([...table].map(([pid, v]) => [pid, v[0]]));
  return descendantsOf(process.pid, parents).reduce((sum, pid) => sum + (table.get(pid)?.[1] ?? 0), self[1] + self[2]);
}

/**
 * Kills what the file's tests started and left running, detached ones included (they left the
 * process group but are still this worker's children): the try ends with its file (Linux /proc).
 */
function killLeftovers(): void {
  const table = readProcTable();
  if (!table) return;
  for (const pid of descendantsOf(process.pid, new Map([...table].map(([p, v]) => [p, v[0]])))) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

/** This thread's id: the worker's pid in a forks pool, its own thread id in a threads pool (Linux), else the pid. */
function threadId(): number {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').at(-1)) || process.pid;
  } catch {
    return process.pid;
  }
}

function readPlan(): RunnerPlan | null {
  const file = process.env[PLAN_ENV];
  if (!file) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as RunnerPlan;
}

function firstLine(error: unknown): string {
  const e = error as { name?: string; message?: string } | undefined;
  const text = `${e?.name && e.name !== 'Error' ? `${e.name}: ` : ''}${e?.message ?? String(error)}`;
  return text.split('\n')[0] ?? '';
}

function testsInOrder(task: RunnerTask): RunnerTask[] {
  if (task.type === 'test') return [task];
  return 'tasks' in task ? task.tasks.flatMap(testsInOrder) : [];
}

const nameOf = (test: RunnerTask): string => test.fullTestName ?? test.name;

export default class FlakeguardRunner extends TestRunner {
  private plan: RunnerPlan | null = null;
  private planned = new Set<string>();
  private starts = new WeakMap<RunnerTestCase, TryStart>();
  private plannedFiles = new Set<RunnerTestFile>();
  private readonly tid = threadId();

  constructor(...args: ConstructorParameters<typeof TestRunner>) {
    super(...args);
    // Before the file is collected: the gate starts pacing this worker's tree now.
    const plan = readPlan();
    if (plan) appendFileSync(plan.resultsFile, formatRunnerLine({ kind: 'worker', pid: process.pid, tid: this.tid }));
  }

  onBeforeRunFiles(files: RunnerTestFile[]): void {
    this.plannedFiles.clear();
    this.plan = readPlan();
    this.planned = new Set((this.plan?.tests ?? []).map(testKey));
    for (const file of files) {
      const tests = testsInOrder(file);
      const last = tests.findLastIndex((t) => this.isPlanned(t));
      if (last === -1) continue;
      this.plannedFiles.add(file);
      for (const later of tests.slice(last + 1)) {
        if (later.mode === 'run' && !later.concurrent) later.mode = 'skip';
      }
    }
  }

  override onAfterRunFiles(): void {
    for (const file of this.plannedFiles)
      this.append({ kind: 'file', file: file.filepath, project: file.projectName ?? '', costMs: performance.now() });
    if (this.plannedFiles.size > 0) killLeftovers();
    this.plannedFiles.clear();
    super.onAfterRunFiles();
  }

  private isPlanned(test: RunnerTask): test is RunnerTestCase {
    if (test.type !== 'test' || this.plan === null) return false;
    return this.planned.has(testKey({ file: test.file.filepath, fullName: nameOf(test) }));
  }

  private append(line: RunnerLine): void {
    if (this.plan) appendFileSync(this.plan.resultsFile, formatRunnerLine(line));
  }

  override onBeforeRunTask(test: RunnerTask): Promise<void> {
    if (this.isPlanned(test)) test.retry = 0;
    return super.onBeforeRunTask(test);
  }

  override onBeforeTryTask(test: RunnerTask, ...rest: unknown[]): void {
    if (this.isPlanned(test)) {
      const treeCpuMs = readTreeCpuMs();
      const at = performance.now();
      const timeoutMs = (test as { timeout?: number }).timeout ?? 0;
      this.append({
        kind: 'start',
        file: test.file.filepath,
        project: test.file.projectName ?? '',
        fullName: nameOf(test),
        pid: process.pid,
        tid: this.tid,
        startedAt: performance.timeOrigin + at,
        timeoutMs,
      });
      this.starts.set(test, {
        at,
        treeCpuMs,
        cpu: process.cpuUsage(),
        errors: test.result?.errors?.length ?? 0,
      });
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
    const durationMs = performance.now() - start.at;
    const cpu = process.cpuUsage(start.cpu);
    const treeCpuMs = start.treeCpuMs === null ? null : readTreeCpuMs();
    const errors = test.result?.errors ?? [];
    const failed = errors.length > start.errors;
    const state = failed ? 'failed' : test.result?.state === 'skip' ? 'skipped' : 'passed';
    const seen = seenInWorker();
    const key = testKey({ file: test.file.filepath, fullName: nameOf(test) });
    const cold = !seen.has(key);
    seen.add(key);
    const record: GateTry = {
      state,
      durationMs,
      cpuMs:
        treeCpuMs !== null && start.treeCpuMs !== null
          ? Math.max(0, treeCpuMs - start.treeCpuMs)
          : (cpu.user + cpu.system) / 1000,
      cold,
      startedAt: performance.timeOrigin + start.at,
      pid: process.pid,
      tid: this.tid,
      ...(failed ? { error: firstLine(errors[start.errors]) } : {}),
    };
    this.append({
      kind: 'try',
      file: test.file.filepath,
      project: test.file.projectName ?? '',
      fullName: nameOf(test),
      try: record,
    });
  }
}
