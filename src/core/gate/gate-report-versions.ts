/**
 * A gate report read back (`gate --merge` of shard reports): the current version as it is, older
 * ones upgraded step by step, any other refused with the version it has and what to do. Pure: the
 * parsed JSON in.
 * - 2 -> 3: its `tries` already held every try; the parallel `durationsMs`/`tryStates` arrays are dropped.
 * - 3 -> 4: `runs`/`maxRuns` become `tries`/`maxTries`; a test's `runs`, and its idle and alone
 *   counts' `runs`, become `tryCount` (one word per concept: a gate execution of one test is a try).
 * - 4 -> 5: every full name `name` becomes `fullName` (one field name in every format).
 * - 5 -> 6: a test's `project` null (the unnamed project, as 5 and older wrote it) becomes '', and
 *   the report gets its `format`; 6 also adds values only (warm tries, the `confirm` missing check).
 * - 6 -> 7: the report gets its `seed` (null: its tries were not seeded); a try's `seed` is absent.
 */
import { FlakeguardError } from '../errors.js';
import { fullNameFrom } from '../test-id.js';
import { GATE_REPORT_FORMAT, GATE_REPORT_VERSION, type GateReport } from './gate-report.js';

/** The versions `gate --merge` reads. */
const READABLE_GATE_REPORT_VERSIONS = [2, 3, 4, 5, 6, GATE_REPORT_VERSION] as const;

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
  if (version === 5 || version === 6) return upgradeFrom5(parsed);
  if (version === 4) return upgradeFrom5(fromGateReportJson(parsed));
  if (version !== 2 && version !== 3)
    throw new FlakeguardError(
      'INPUT_UNREADABLE',
      `gate report ${file} is version ${JSON.stringify(version ?? null)}; gate --merge reads versions ${READABLE_GATE_REPORT_VERSIONS.join(', ')}: ${rewrite}`,
    );
  const v3 = version === 2 ? upgradeFrom2(parsed, parsed.tests, file, rewrite) : parsed;
  return upgradeFrom5(fromGateReportJson(upgradeFrom3(v3)));
}

/**
 * A version 5 or 6 report as 7: a test's null project (5 wrote it for the unnamed one) is ''; it
 * names its format; its seed is null (its tries were not seeded).
 */
function upgradeFrom5(parsed: Loose): GateReport {
  const tests = (parsed.tests as unknown[]).map((t) => (isObject(t) && t.project === null ? { ...t, project: '' } : t));
  return {
    ...parsed,
    format: GATE_REPORT_FORMAT,
    version: GATE_REPORT_VERSION,
    seed: null,
    tests,
  } as unknown as GateReport;
}

const withFullName = (o: unknown): unknown => (isObject(o) ? fullNameFrom(o, 'name') : o);

/** A version 4 report as 5: every `name` of a test (its own, its previous place's, a not-run row's, a proposal's) is `fullName`. */
function fromGateReportJson(parsed: Loose): Loose {
  const list = (v: unknown): unknown => (Array.isArray(v) ? v.map(withFullName) : v);
  const tests = (parsed.tests as unknown[]).map((t) =>
    isObject(t)
      ? { ...fullNameFrom(t, 'name'), ...('previous' in t ? { previous: withFullName(t.previous) } : {}) }
      : t,
  );
  return { ...parsed, version: 5, tests, notRun: list(parsed.notRun), proposals: list(parsed.proposals) };
}

function upgradeFrom2(parsed: Loose, tests: readonly unknown[], file: string, rewrite: string): Loose {
  const upgraded = tests.map((t: unknown, i) => {
    if (!isObject(t) || !Array.isArray(t.tries))
      throw new FlakeguardError(
        'INPUT_UNREADABLE',
        `gate report ${file} (version 2): tests[${i}] has no tries array; ${rewrite}`,
      );
    const { durationsMs: _durations, tryStates: _states, ...rest } = t;
    return rest;
  });
  return { ...parsed, version: 3, tests: upgraded };
}

/** `runs` renamed `to` in an object, when it has one. */
function renameRuns(o: Loose, to: string): Loose {
  if (!('runs' in o)) return { ...o };
  const { runs, ...rest } = o;
  return { ...rest, [to]: runs };
}

/** A test of version 3: its `runs` and its idle and alone counts' `runs` are `tryCount`. */
function upgradeTestFrom3(t: Loose): Loose {
  const out = renameRuns(t, 'tryCount');
  for (const k of ['idle', 'alone'] as const) {
    const c = t[k];
    if (isObject(c)) out[k] = renameRuns(c, 'tryCount');
  }
  return out;
}

function upgradeFrom3(parsed: Loose): Loose {
  const { maxRuns, ...top } = renameRuns(parsed, 'tries');
  const tests = (parsed.tests as unknown[]).map((t) => (isObject(t) ? upgradeTestFrom3(t) : t));
  return { ...top, ...(maxRuns === undefined ? {} : { maxTries: maxRuns }), version: 4, tests };
}
