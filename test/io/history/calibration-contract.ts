/**
 * `gate --slowdown auto` and `history`'s CI speeds read the same report from the store as from the
 * runs themselves: the read keys durations by the store's test ids, not by test keys, and must
 * answer exactly as the records keyed by test key do (issue 38), on both engines. The runs: two
 * Vitest projects and two files, failed and skipped tests, tests missing from some runs, tests
 * under 5 ms, more CI runs of a platform than are compared (30), runs of another machine here.
 */
import { expect, it } from 'vitest';
import { type CalibrationRunRow, sampleCalibrationRuns } from '../../../src/core/calibration/calibration-runs.js';
import { computeCiSpeedReport } from '../../../src/core/calibration/ci-speed-report.js';
import type { CiContext } from '../../../src/core/record/ci-context.js';
import type { RunRecord } from '../../../src/core/record/run-record.js';
import { testKey } from '../../../src/core/test-id.js';
import { readCalibrationSample } from '../../../src/io/history/ci-speed-read.js';
import { ingestRunRecord } from '../../../src/io/history/history-ingest.js';
import type { HistoryStore } from '../../../src/io/history/history-store.js';
import { makeRecord } from '../../core/history/history-factories.js';
import { EMPTY_STORE_SQL } from './empty-store.js';

const MINE = { id: 'aaaaaaaaaaaa', cpuModel: 'Example CPU', cores: 8 };
const TWIN = { ...MINE, id: 'bbbbbbbbbbbb' };

const ciOn = (runnerOs: string, runId: string): CiContext => ({
  provider: 'github-actions',
  workflow: 'ci',
  job: 'test',
  runId,
  attempt: 1,
  runUrl: null,
  branch: 'main',
  commit: 'c0ffee',
  runnerOs,
  shard: null,
});

/** Run `r` (0 oldest) at `speed`: 25 tests, some failed, skipped, missing or under 5 ms. */
function runOf(r: number, runId: string, platform: string, speed: number): RunRecord {
  const tests = Array.from({ length: 25 }, (_, i) => ({
    file: i % 2 === 0 ? 'test/a.test.ts' : 'test/b.test.ts',
    name: `suite > case ${i}`,
    ...(i % 3 === 0 ? { project: 'edge' } : {}),
    state: (i + r) % 13 === 0 ? ('failed' as const) : (i + r) % 17 === 0 ? ('skipped' as const) : ('passed' as const),
    durationMs:
      i === 24 ? 3 : Math.round((10 + ((i * 37 + r * 11) % 90)) * speed * (1 + ((i * r) % 7) / 40) * 100) / 100,
  })).filter((_, i) => (i + r) % 11 !== 5);
  const startedAt = new Date(Date.parse('2026-11-01T00:00:00Z') + r * 3_600_000).toISOString();
  return makeRecord({ runId, startedAt, platform, tests });
}

/** The runs, and what the store is asked to keep of each: its CI context, machine and job. */
function seededRuns(): { record: RunRecord; job: string | null }[] {
  return Array.from({ length: 68 }, (_, r) => {
    const base = runOf(r, `run-${r}`, r % 4 === 3 ? 'win32' : 'linux', r % 4 === 3 ? 3 : r % 4 === 0 ? 1 : 2);
    if (r % 4 === 0) return { record: { ...base, machine: r % 8 === 0 ? MINE : TWIN }, job: null };
    return { record: { ...base, ci: ciOn(r % 4 === 3 ? 'Windows' : 'Linux', String(r)) }, job: 'ci-1' };
  });
}

/** The sample as the records give it: passed durations keyed by test key. */
function sampleOfRecords(runs: readonly { record: RunRecord; job: string | null }[]) {
  const rows: CalibrationRunRow[] = runs.map(({ record, job }) => ({
    runId: record.runId,
    startedAt: new Date(record.startedAt).toISOString(),
    platform: record.platform,
    ci: record.ci ?? null,
    job,
    machine: record.machine ?? null,
    durations: new Map(
      record.tests.flatMap((t) =>
        t.state === 'passed' && t.durationMs !== null
          ? [[testKey({ project: t.project ?? '', file: t.file, fullName: t.fullName }), t.durationMs] as const]
          : [],
      ),
    ),
  }));
  return sampleCalibrationRuns(rows, { platform: 'linux', machine: MINE });
}

export function calibrationContract(connect: () => Promise<HistoryStore>): void {
  it('reads the CI speeds the records give, keyed by test id in the store and by test key in the records', async () => {
    const store = await connect();
    try {
      await store.query(EMPTY_STORE_SQL);
      const runs = seededRuns();
      for (const { record, job } of runs) await ingestRunRecord(store, record, { branch: 'main', job });
      const read = await readCalibrationSample(store, { platform: 'linux', machine: MINE });
      const expected = sampleOfRecords(runs);
      expect(read.local.map((r) => r.runId)).toEqual(expected.local.map((r) => r.runId));
      expect([...read.platforms.keys()].sort()).toEqual(['linux', 'windows']);
      const report = computeCiSpeedReport(read);
      expect(report).toEqual(computeCiSpeedReport(expected));
      expect(report.map((p) => [p.speed.kind, p.speed.runs, p.trend?.direction])).toEqual([
        ['estimated', 30, 'steady'],
        ['estimated', 17, 'steady'],
      ]);
    } finally {
      await store.close();
    }
  });
}
