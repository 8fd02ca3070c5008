/**
 * A gate report read back (`gate --merge` of shard reports): the current version as it is, version 2
 * upgraded (its `tries` already held every try; the parallel `durationsMs`/`tryStates` arrays are
 * dropped), any other refused with the version it has and what to do. Pure: the parsed JSON in.
 */
import { FlakeguardError } from '../errors.js';
import { GATE_REPORT_VERSION, type GateReport } from './gate-report.js';

/** The versions `gate --merge` reads. */
const READABLE_GATE_REPORT_VERSIONS = [2, GATE_REPORT_VERSION] as const;

type Loose = Record<string, unknown>;

const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);

export function upgradeGateReport(parsed: unknown, file: string): GateReport {
  const rewrite = `write it again with this flakeguard (flakeguard gate --shard <i>/<n> --json > ${file})`;
  if (!isObject(parsed) || !Array.isArray(parsed.tests))
    throw new FlakeguardError(
      'INPUT_UNREADABLE',
      `gate report ${file} is not a flakeguard gate report (expected {"version":${GATE_REPORT_VERSION},"tests":[...]}); ${rewrite}`,
    );
  const version = parsed.version;
  if (version === GATE_REPORT_VERSION) return parsed as unknown as GateReport;
  if (version !== 2)
    throw new FlakeguardError(
      'INPUT_UNREADABLE',
      `gate report ${file} is version ${JSON.stringify(version ?? null)}; gate --merge reads versions ${READABLE_GATE_REPORT_VERSIONS.join(' and ')}: ${rewrite}`,
    );
  const tests = parsed.tests.map((t: unknown, i) => {
    if (!isObject(t) || !Array.isArray(t.tries))
      throw new FlakeguardError(
        'INPUT_UNREADABLE',
        `gate report ${file} (version 2): tests[${i}] has no tries array; ${rewrite}`,
      );
    const { durationsMs: _durations, tryStates: _states, ...rest } = t;
    return rest;
  });
  return { ...parsed, version: GATE_REPORT_VERSION, tests } as unknown as GateReport;
}
