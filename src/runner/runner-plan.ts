/**
 * What flakeguard's runner (runner/index.ts) reads about its worker: the gate's plan, the tests
 * that already ran in this worker, a task's tests in order, an error's first line.
 */
import { readFileSync } from 'node:fs';
import type { Task as RunnerTask } from '@vitest/runner';
import { PLAN_ENV, type RunnerPlan } from '../core/gate/runner-protocol.js';

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

export function testsInOrder(task: RunnerTask): RunnerTask[] {
  if (task.type === 'test') return [task];
  return 'tasks' in task ? task.tasks.flatMap(testsInOrder) : [];
}
