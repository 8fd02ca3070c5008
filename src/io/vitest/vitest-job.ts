/**
 * The job a flakeguard-driven Vitest process runs (see vitest-gate-child.ts) and what it reports
 * back. Shared between the parent (vitest-runs.ts) and the child.
 */
import type { RunnerPlan, TryRecord } from '../../core/gate/runner-protocol.js';

export interface JobSpec {
  /** Absolute path of a test file. */
  readonly file: string;
  /** Only the tests starting on these lines (Vitest line filters), or null for the whole file. */
  readonly lines: readonly number[] | null;
}

export interface JobBatch {
  readonly specs: readonly JobSpec[];
  readonly plan: RunnerPlan;
}

export interface VitestJob {
  readonly root: string;
  readonly runnerPath: string;
  /** Where the child writes each batch's plan before running it (the runner reads it). */
  readonly planFile: string;
  readonly resultFile: string;
  readonly batches: readonly JobBatch[];
}

export interface CollectedTest {
  readonly file: string;
  readonly fullName: string;
  readonly line: number | null;
  /** Vitest's final state for the test (after all its tries). */
  readonly state: 'passed' | 'failed' | 'skipped' | 'pending';
  readonly tries: readonly TryRecord[];
  readonly errors: readonly string[];
}

export interface BatchResult {
  readonly tests: readonly CollectedTest[];
  /** Files that failed to load or collect, or whose beforeAll failed. */
  readonly moduleErrors: readonly { readonly file: string; readonly message: string }[];
  readonly unhandledErrors: readonly string[];
}

export type VitestJobResult =
  | { readonly ok: true; readonly vitestVersion: string; readonly batches: readonly BatchResult[] }
  | { readonly ok: false; readonly reason: 'custom-runner'; readonly runner: string; readonly vitestVersion: string };
