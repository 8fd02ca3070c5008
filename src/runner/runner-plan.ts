/**
 * What flakeguard's runner (runner/index.ts) reads about its worker: the gate's plan, the tests
 * that already ran in this worker, a task's tests in order, an error's first line.
 */
import { readFileSync } from 'node:fs';
import type { Task as RunnerTask } from '@vitest/runner';
import { PLAN_ENV, type RunnerPlan } from '../core/gate/runner-protocol.js';
import { testKey } from '../core/test-id.js';

const nameOf = (test: RunnerTask): string => test.fullTestName ?? test.name;

/** A test as the gate's plan names it, and as every try and start line carries it: its spec's project ('' unnamed), its file, full name and key. */
export function testLine(test: RunnerTask): { file: string; project: string; fullName: string; key: string } {
  const id = { project: test.file.projectName ?? '', file: test.file.filepath, fullName: nameOf(test) };
  return { ...id, key: testKey(id) };
}

/** Tests that already ran in this worker; kept on globalThis so a reused worker remembers them. */
const SEEN_KEY = Symbol.for('flakeguard.runner.seen');
export function seenInWorker(): Set<string> {
  const holder = globalThis as unknown as Record<symbol, Set<string> | undefined>;
  const seen = holder[SEEN_KEY] ?? new Set<string>();
  holder[SEEN_KEY] = seen;
  return seen;
}

export function readPlan(): RunnerPlan | null {
  const file = process.env[PLAN_ENV];
  if (!file) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as RunnerPlan;
}

export function firstLine(error: unknown): string {
  const e = error as { name?: string; message?: string } | undefined;
  const text = `${e?.name && e.name !== 'Error' ? `${e.name}: ` : ''}${e?.message ?? String(error)}`;
  return text.split('\n')[0] ?? '';
}

/** A file's tests and suites, at every level, put in reverse order (the plan's `order: 'reversed'`); the task itself back. */
export function reverseTasks<T extends RunnerTask>(task: T): T {
  if (!('tasks' in task)) return task;
  task.tasks.reverse();
  for (const child of task.tasks) reverseTasks(child);
  return task;
}

export function testsInOrder(task: RunnerTask): RunnerTask[] {
  if (task.type === 'test') return [task];
  return 'tasks' in task ? task.tasks.flatMap(testsInOrder) : [];
}
