/**
 * The process budget's counter, called by the spawning helpers (test/helpers/fixture.ts, packed.ts,
 * history-template.ts) in the test workers: one line per whole gate, fixture Vitest run, other CLI
 * spawn, store creation or store copy, for the file that runs now. process-budget-setup.ts makes the
 * counter file and checks the sums against test/process-budget-table.ts when the tier ends.
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { expect, inject } from 'vitest';
import type { ProcessKind } from '../process-budget-table.js';
import './provided.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** Counts one process (or store creation) for the test file running now; no-op outside the e2e and release tiers. */
export function countProcess(kind: ProcessKind): void {
  const counter = inject('processCounter');
  if (!counter) return;
  const testPath = expect.getState().testPath ?? 'unknown';
  const rel = path.relative(REPO_ROOT, testPath).split(path.sep).join('/');
  appendFileSync(counter, `${rel}\t${kind}\n`);
}

/**
 * Counts the Vitest processes a gate run started, from its output: the checks' (its "vitest: N
 * starts" step line) and the one that listed the test files; nothing for a gate that ran no tests.
 */
export function countVitestStarts(stderr: string): void {
  const m = /flakeguard gate: vitest: (\d+) starts? for the checks/.exec(stderr);
  if (!m) return;
  for (let i = 0; i < Number(m[1]) + 1; i += 1) countProcess('vitestStarts');
}

/** The kind a flakeguard CLI run counts as: a gate that runs tests, or any other command. */
export function cliKind(args: readonly string[]): ProcessKind {
  return args[0] === 'gate' && !args.includes('--merge') && !args.includes('--plan') ? 'gate' : 'cli';
}
