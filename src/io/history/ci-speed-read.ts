/**
 * The runs that calibrate `gate.slowdown: auto` and `history`'s CI speeds, from the history store:
 * where and when each run ran and on which machine, the newest per CI platform and here (this
 * machine, else its class) picked in core
 * (core/calibration/calibration-runs.ts), then the passed durations of the picked runs only (one
 * row a run, core/history/history-schema-run-durations.ts), keyed
 * by the store's test ids: the estimate never names a test, and an id stands for one test key (the
 * tests' table is unique on project, file and name), so the tests' names are not read at all.
 */
import {
  CALIBRATION_RUNS,
  type CalibrationRunMeta,
  type CalibrationSample,
  type Here,
  sampleCalibrationRuns,
} from '../../core/calibration/calibration-runs.js';
import type { SpeedDurations, SpeedRun } from '../../core/calibration/ci-speed.js';
import { isMachineIdentity } from '../../core/record/machine.js';
import { numbersOfArrayText } from './array-text.js';
import type { HistoryStore } from './history-store.js';

/** Runs looked at, newest first: enough for 30 runs of each of many platforms and here. */
const RUNS_LOOKED_AT = 5000;

const RUNS_SQL = `SELECT u.id, u.run_id AS "runId",
    to_char(u.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "startedAt",
    u.platform, u.ci, u.ci_job AS "job", u.machine
  FROM flakeguard_runs u
  WHERE ($1::timestamptz IS NULL OR u.started_at >= $1::timestamptz)
  ORDER BY u.started_at DESC, u.id DESC LIMIT ${RUNS_LOOKED_AT}`;

// One row per run, its passed tests' ids and durations as array text (schema 7: kept at ingest).
const DURATIONS_SQL = `SELECT d.run_id AS id, d.tests::text AS tests, d.durations::text AS durations
  FROM flakeguard_run_durations d WHERE d.run_id = ANY($1::int[])`;

type RunRow = CalibrationRunMeta & { readonly id: number };

/** A run's tests (store ids) and their durations, two lists of one length, visited in order. */
const listed = (tests: readonly number[], ms: readonly number[]): SpeedDurations => ({
  forEach: (visit) => {
    for (let i = 0; i < tests.length; i += 1) visit(ms[i] as number, tests[i] as number);
  },
});
const NONE = listed([], []);

/** A stored machine that is not one (written by hand, or by another tool) reads as none. */
const withMachine = (row: RunRow): RunRow => (isMachineIdentity(row.machine) ? row : { ...row, machine: null });

/**
 * The newest `newest` runs here (no CI context, no CI job, on this machine's OS, of this machine or
 * else of its class) and per CI platform, with
 * their passed tests' durations. `sinceMs`: only runs started then or later (null: any).
 */
export async function readCalibrationSample(
  store: HistoryStore,
  here: Here,
  sinceMs: number | null = null,
  newest = CALIBRATION_RUNS,
): Promise<CalibrationSample> {
  return store.transaction(async (q) => {
    const since = sinceMs === null ? null : new Date(sinceMs).toISOString();
    const picked = sampleCalibrationRuns((await q.query<RunRow>(RUNS_SQL, [since])).map(withMachine), here, newest);
    const runs = [...picked.local, ...[...picked.platforms.values()].flat()];
    const rows = await q.query<{ id: number; tests: string; durations: string }>(DURATIONS_SQL, [
      runs.map((r) => r.id),
    ]);
    const durations = new Map(
      rows.map((row) => [row.id, listed(numbersOfArrayText(row.tests) ?? [], numbersOfArrayText(row.durations) ?? [])]),
    );
    const toSpeedRun = (r: RunRow): SpeedRun => ({
      runId: r.runId,
      startedAt: r.startedAt,
      durations: durations.get(r.id) ?? NONE,
    });
    return {
      local: picked.local.map(toSpeedRun),
      here: picked.here,
      platforms: new Map([...picked.platforms].map(([label, list]) => [label, list.map(toSpeedRun)])),
    };
  });
}
