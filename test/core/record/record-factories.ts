/** A valid run record built the way the reporter builds one, for tests that read records back. */

import type { ObservedTest } from '../../../src/core/budget/budget-report.js';
import { computeBudgetReport } from '../../../src/core/budget/budget-report.js';
import { buildRunRecord, makeRunId, type RunFacts } from '../../../src/core/budget/run-record-build.js';
import type { RunRecord } from '../../../src/core/record/run-record.js';
import { makeConfig, makeFile, makeInput, makeTest } from '../budget/budget-factories.js';

export const SAMPLE_FACTS: RunFacts = {
  runId: makeRunId('2026-11-30T15:55:45.123Z', 'abc123', null, false),
  startedAt: '2026-11-30T15:55:45.123Z',
  endedAt: '2026-11-30T15:56:45.123Z',
  root: '/project',
  platform: 'linux',
  arch: 'x64',
  cpus: 2,
  loadavgStart: [1, 1, 1],
  loadavgEnd: [2, 1, 1],
  nodeVersion: 'v20.20.2',
  vitestVersion: '4.1.12',
  git: { commit: 'a'.repeat(40), dirty: false },
  shard: null,
  ci: null,
  machine: { id: '3f9a1c2b7d10', cpuModel: 'Example CPU @ 2.20GHz', cores: 2 },
  merged: false,
  watch: false,
  exitReason: 'passed',
  vitestExitCode: null,
  exitCode: 1,
};

export function makeRecord(
  tests: readonly Partial<ObservedTest>[] = [{ durationMs: 5310.456 }, { fullName: 'quick', durationMs: 3 }],
): RunRecord {
  const report = computeBudgetReport(makeInput({ tests: tests.map((t) => makeTest(t)), files: [makeFile()] }));
  return buildRunRecord(report, SAMPLE_FACTS, makeConfig());
}
