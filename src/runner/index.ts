/**
 * `flakeguard/runner`: Vitest's own TestRunner, plus two things for the tests named in the plan
 * (env FLAKEGUARD_RUNNER_PLAN, a JSON file): it sets `test.repeats` so Vitest runs the test `runs`
 * times with its beforeEach/afterEach hooks, and it times each try (before beforeEach to after
 * afterEach) into `test.meta.flakeguardTries`. A try failed when it added errors to the test's
 * result (Vitest keeps the state at 'fail' after the first failed repeat). Other tests run as usual.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { TestRunner } from 'vitest';
// Runner types from @vitest/runner (4.1); type-only, so nothing is imported at run time and the
// runner works on 5.x, where @vitest/runner is folded into vitest.
import type { File as RunnerTestFile, Task as RunnerTask, Test as RunnerTestCase } from '@vitest/runner';
import { PLAN_ENV, TRIES_META_KEY, type ProgressLine, type RunnerPlan, type TryRecord } from '../core/gate/runner-protocol.js';
import { testKey } from '../core/test-id.js';

interface TryStart {
  readonly at: number;
  readonly cpu: NodeJS.CpuUsage;
  readonly errors: number;
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

/** The meta object as a plain record (not augmenting TaskMeta, so users' types stay untouched). */
function metaOf(test: RunnerTestCase): Record<string, unknown> {
  return test.meta as Record<string, unknown>;
}

export default class FlakeguardRunner extends TestRunner {
  private plan: RunnerPlan | null = null;
  private planned = new Set<string>();
  private starts = new WeakMap<RunnerTestCase, TryStart>();

  onBeforeRunFiles(_files: RunnerTestFile[]): void {
    this.plan = readPlan();
    this.planned = new Set((this.plan?.tests ?? []).map((t) => testKey(t.file, t.fullName)));
  }

  private isPlanned(test: RunnerTask): test is RunnerTestCase {
    if (test.type !== 'test' || this.plan === null) return false;
    return this.planned.has(testKey(test.file.filepath, test.fullTestName ?? test.name));
  }

  override onBeforeRunTask(test: RunnerTask): Promise<void> {
    if (this.isPlanned(test) && this.plan) {
      test.repeats = Math.max(0, this.plan.runs - 1);
      test.retry = 0;
      metaOf(test)[TRIES_META_KEY] = [];
    }
    return super.onBeforeRunTask(test);
  }

  override onBeforeTryTask(test: RunnerTask, ...rest: unknown[]): void {
    if (this.isPlanned(test)) {
      this.starts.set(test, { at: performance.now(), cpu: process.cpuUsage(), errors: test.result?.errors?.length ?? 0 });
    }
    (super.onBeforeTryTask as (t: RunnerTask, ...r: unknown[]) => void)(test, ...rest);
  }

  /**
   * After afterEach and onFinished. Vitest 4.1's TestRunner has no such method; 5.x has one (it
   * finishes trace attempts), so the base class's is called whenever it exists.
   */
  onAfterRetryTask(test: RunnerTestCase, ...rest: unknown[]): unknown {
    this.recordTry(test);
    const base = (TestRunner.prototype as unknown as { onAfterRetryTask?: (this: unknown, ...args: unknown[]) => unknown }).onAfterRetryTask;
    return base?.call(this, test, ...rest);
  }

  private recordTry(test: RunnerTestCase): void {
    const start = this.starts.get(test);
    if (!start || !this.isPlanned(test)) return;
    this.starts.delete(test);
    const durationMs = performance.now() - start.at;
    const cpu = process.cpuUsage(start.cpu);
    const errors = test.result?.errors ?? [];
    const failed = errors.length > start.errors;
    const state = failed ? 'failed' : test.result?.state === 'skip' ? 'skipped' : 'passed';
    const record: TryRecord = {
      state,
      durationMs,
      cpuMs: (cpu.user + cpu.system) / 1000,
      ...(failed ? { error: firstLine(errors[start.errors]) } : {}),
    };
    const meta = metaOf(test);
    const tries = (meta[TRIES_META_KEY] as TryRecord[] | undefined) ?? [];
    tries.push(record);
    meta[TRIES_META_KEY] = tries;
    const progressFile = this.plan?.progressFile;
    if (progressFile) {
      const line: ProgressLine = {
        file: test.file.filepath,
        fullName: test.fullTestName ?? test.name,
        attempt: tries.length,
        runs: this.plan?.runs ?? 1,
        state,
        durationMs,
      };
      appendFileSync(progressFile, `${JSON.stringify(line)}\n`);
    }
  }
}
