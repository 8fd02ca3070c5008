/**
 * The process budget of the e2e and release tiers (test/helpers/process-budget-setup.ts checks it
 * when a tier's run ends, from counts taken at run time): per test file, at most this many whole
 * gates (`flakeguard gate` that runs tests), fixture Vitest runs, other flakeguard CLI runs and
 * embedded-store creations (a store the reporter or the CLI made in an empty folder; a copy of the
 * run's template, test/helpers/history-template.ts, is counted as storeCopy and not budgeted). Like
 * LONG_FUNCTIONS in test/boundaries.test.ts, a line may only shrink: when a test gets cheaper, lower
 * its line to the printed count; never raise one (make the test cheaper). A file that counts a
 * process and has no line fails the run too: add its line from the printed counts.
 */
export const KINDS = ['gate', 'vitest', 'cli', 'storeCreate', 'storeCopy', 'vitestStarts'] as const;
export type ProcessKind = (typeof KINDS)[number];
export type ProcessCounts = Record<ProcessKind, number>;
export type ProcessBudget = Omit<ProcessCounts, 'storeCopy' | 'vitestStarts'>;
/**
 * `vitestStarts`: the Vitest processes a whole gate started (its "vitest: N starts" step line, and
 * the one that lists the test files), counted from each gate run's output: no line per file, but
 * at most this many per gate the file ran (issue 45: one Vitest for every check).
 */
export const VITEST_STARTS_PER_GATE = 2;

export const PROCESS_BUDGET: Readonly<Record<string, ProcessBudget>> = {
  'test/commands/html-flag.test.ts': { gate: 0, vitest: 1, cli: 2, storeCreate: 0 },
  'test/commands/init/init.test.ts': { gate: 0, vitest: 0, cli: 3, storeCreate: 0 },
  'test/e2e/allowances-cli.test.ts': { gate: 0, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/allowances-follow.test.ts': { gate: 0, vitest: 1, cli: 0, storeCreate: 0 },
  'test/e2e/allowances-lineage.test.ts': { gate: 1, vitest: 3, cli: 0, storeCreate: 0 },
  'test/e2e/allowances-writers.test.ts': { gate: 0, vitest: 0, cli: 10, storeCreate: 0 },
  'test/e2e/bad-input/arguments.test.ts': { gate: 1, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/bad-input/causes.test.ts': { gate: 0, vitest: 4, cli: 0, storeCreate: 0 },
  'test/e2e/bad-input/foreign-lock.test.ts': { gate: 0, vitest: 1, cli: 1, storeCreate: 0 },
  'test/e2e/bad-input/hostile-values.test.ts': { gate: 0, vitest: 1, cli: 0, storeCreate: 0 },
  'test/e2e/bad-input/long-text.test.ts': { gate: 0, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/bad-input/misleading-causes.test.ts': { gate: 2, vitest: 1, cli: 0, storeCreate: 0 },
  'test/e2e/bad-input/output-paths.test.ts': { gate: 0, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/bad-input/pasted-command.test.ts': { gate: 0, vitest: 2, cli: 3, storeCreate: 0 },
  'test/e2e/bad-input/records-folder.test.ts': { gate: 0, vitest: 2, cli: 0, storeCreate: 0 },
  'test/e2e/bad-input/reports-git.test.ts': { gate: 0, vitest: 3, cli: 1, storeCreate: 0 },
  'test/e2e/bad-input/rounding.test.ts': { gate: 0, vitest: 0, cli: 2, storeCreate: 0 },
  'test/e2e/bad-input/secrets.test.ts': { gate: 1, vitest: 2, cli: 0, storeCreate: 0 },
  'test/e2e/bad-input/special-files.test.ts': { gate: 1, vitest: 1, cli: 4, storeCreate: 0 },
  'test/e2e/bad-input/stores-locks.test.ts': { gate: 0, vitest: 2, cli: 3, storeCreate: 1 },
  'test/e2e/bad-input/untrusted-text.test.ts': { gate: 1, vitest: 1, cli: 0, storeCreate: 0 },
  'test/e2e/bad-input/wrong-answers.test.ts': { gate: 0, vitest: 2, cli: 0, storeCreate: 0 },
  'test/e2e/ci-context.test.ts': { gate: 0, vitest: 3, cli: 0, storeCreate: 0 },
  'test/e2e/ci-history.test.ts': { gate: 0, vitest: 3, cli: 0, storeCreate: 0 },
  'test/e2e/cli-smoke.test.ts': { gate: 2, vitest: 0, cli: 7, storeCreate: 0 },
  'test/e2e/gate-calibration.test.ts': { gate: 1, vitest: 1, cli: 1, storeCreate: 0 },
  'test/e2e/gate-cause.test.ts': { gate: 1, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/gate-cleanup.test.ts': { gate: 4, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/gate-cold.test.ts': { gate: 1, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/gate-repeat-only.test.ts': { gate: 1, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/gate-replay.test.ts': { gate: 1, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/gate-evidence.test.ts': { gate: 3, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/gate-globals.test.ts': { gate: 1, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/gate-comment.test.ts': { gate: 1, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/gate-contention.test.ts': { gate: 2, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/gate-history.test.ts': { gate: 1, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/gate-setup.test.ts': { gate: 1, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/gate-shard.test.ts': { gate: 2, vitest: 0, cli: 2, storeCreate: 0 },
  'test/e2e/gate.test.ts': { gate: 1, vitest: 0, cli: 1, storeCreate: 0 },
  'test/e2e/history-html.test.ts': { gate: 0, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/history-machines.test.ts': { gate: 0, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/history-postgres.test.ts': { gate: 0, vitest: 1, cli: 4, storeCreate: 0 },
  'test/e2e/history-trend.test.ts': { gate: 0, vitest: 3, cli: 0, storeCreate: 0 },
  'test/e2e/history.test.ts': { gate: 0, vitest: 4, cli: 0, storeCreate: 1 },
  'test/e2e/old-formats.test.ts': { gate: 0, vitest: 0, cli: 0, storeCreate: 0 },
  'test/e2e/owners.test.ts': { gate: 0, vitest: 1, cli: 0, storeCreate: 0 },
  'test/e2e/packed-install.test.ts': { gate: 2, vitest: 10, cli: 8, storeCreate: 0 },
  'test/e2e/pnpm-workspace.test.ts': { gate: 1, vitest: 2, cli: 2, storeCreate: 0 },
  'test/e2e/projects.test.ts': { gate: 0, vitest: 3, cli: 0, storeCreate: 0 },
  'test/e2e/quarantine-history.test.ts': { gate: 0, vitest: 1, cli: 0, storeCreate: 0 },
  'test/e2e/quarantine.test.ts': { gate: 0, vitest: 3, cli: 0, storeCreate: 0 },
  'test/e2e/ci-seed.test.ts': { gate: 0, vitest: 3, cli: 3, storeCreate: 0 },
  'test/e2e/replay.test.ts': { gate: 0, vitest: 0, cli: 16, storeCreate: 0 },
  'test/e2e/signals.test.ts': { gate: 3, vitest: 1, cli: 3, storeCreate: 0 },
  'test/e2e/triage-corpus.test.ts': { gate: 0, vitest: 32, cli: 0, storeCreate: 0 },
  'test/e2e/triage-history.test.ts': { gate: 0, vitest: 3, cli: 0, storeCreate: 0 },
  'test/e2e/triage-inputs.test.ts': { gate: 0, vitest: 1, cli: 0, storeCreate: 0 },
  'test/e2e/triage-rerun.test.ts': { gate: 0, vitest: 2, cli: 0, storeCreate: 0 },
  'test/e2e/triage.test.ts': { gate: 0, vitest: 3, cli: 0, storeCreate: 0 },
  'test/io/history/embedded-store.test.ts': { gate: 0, vitest: 0, cli: 0, storeCreate: 0 },
  'test/io/triage/triage-inputs.test.ts': { gate: 0, vitest: 1, cli: 0, storeCreate: 0 },
  'test/reporter/attempts.test.ts': { gate: 0, vitest: 1, cli: 0, storeCreate: 0 },
  'test/reporter/budget.test.ts': { gate: 0, vitest: 6, cli: 0, storeCreate: 0 },
  'test/reporter/config-errors.test.ts': { gate: 0, vitest: 4, cli: 0, storeCreate: 0 },
  'test/reporter/github.test.ts': { gate: 0, vitest: 1, cli: 0, storeCreate: 0 },
  'test/reporter/process-state.test.ts': { gate: 0, vitest: 2, cli: 0, storeCreate: 0 },
  'test/reporter/red-run.test.ts': { gate: 0, vitest: 3, cli: 0, storeCreate: 0 },
  'test/reporter/shard.test.ts': { gate: 0, vitest: 3, cli: 0, storeCreate: 0 },
  'test/reporter/watch.test.ts': { gate: 0, vitest: 1, cli: 0, storeCreate: 0 },
};
