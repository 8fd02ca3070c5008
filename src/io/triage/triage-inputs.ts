/**
 * Gathers what a run left (run records, Vitest JSON reports, JUnit XML, CI logs, the exit code)
 * into TriageInputs. Paths written on another machine are mapped onto the root. An input that
 * cannot be read whole becomes an input problem (a finding), not a crash; only when nothing at all
 * could be read does triage stop with exit code 2.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { FlakeguardError } from '../../core/errors.js';
import { refKey } from '../../core/test-id.js';
import { compileLogMatcher } from '../../core/triage/log-matcher.js';
import { logFailuresAsTests, readLogFailures, readLogUnhandled } from '../../core/triage/log-vitest.js';
import { mapPathOntoRoot } from '../../core/triage/path-mapping.js';
import type { LogSignature } from '../../core/triage/triage-signatures.js';
import type { InputProblem, LogScan, TriageInputs } from '../../core/triage/triage-types.js';
import { displayInputPath as display, type InputTally, makeInputTally } from './input-tally.js';
import { readJunitFile } from './junit-read.js';
import { scanLog } from './log-scan.js';
import { readRecordInputs } from './record-inputs.js';
import { badInput, checkInputPath } from './triage-input-check.js';
import { applyCheckout, type LimitSettings } from './triage-limits.js';
import { addSourceLines } from './triage-source-lines.js';
import { readVitestJsonFile } from './vitest-json-read.js';

export interface TriageSources {
  readonly root: string;
  readonly records: readonly string[];
  readonly reports: readonly string[];
  readonly junit: readonly string[];
  readonly logs: readonly string[];
  readonly exitCode: number | null;
  /** Where limits come from: the checkout at the root (allowances, flakeguard.yaml) and the flags. */
  readonly limits: LimitSettings;
  /** Allowance notices and store problems met while reading limits. */
  readonly onNote?: (text: string) => void;
  readonly rerunCount: number;
}

export function makePathMapper(root: string): (p: string) => string {
  const cache = new Map<string, string>();
  const exists = (rel: string): boolean => existsSync(path.join(root, rel));
  return (p) => {
    let hit = cache.get(p);
    if (hit === undefined) {
      hit = mapPathOntoRoot(p, root, exists).path;
      cache.set(p, hit);
    }
    return hit;
  };
}

/** A log in which a run-level infrastructure signature hit (a startup error, a step before the tests, a crash). */
function stopsBeforeReporters(scan: LogScan, signatures: readonly LogSignature[]): boolean {
  return scan.events.some((e) =>
    signatures.some((s) => s.id === e.id && s.class === 'infrastructure' && s.scope !== 'test'),
  );
}

export async function gatherTriageInputs(
  sources: TriageSources,
  signatures: readonly LogSignature[],
): Promise<TriageInputs> {
  const mapFile = makePathMapper(sources.root);
  const tally = makeInputTally();
  readRecordInputs(sources.records, tally);
  readReportInputs(sources.reports, mapFile, tally);
  readJunitInputs(sources.junit, mapFile, tally);
  await scanLogInputs(sources.logs, signatures, mapFile, tally);
  checkMissingInputs(sources, signatures, tally);
  if (tally.readable === 0) {
    throw new FlakeguardError(
      'INPUT_UNREADABLE',
      `no input could be read: ${tally.unreadable.join('; ')}; pass the run's files (--record, --report, --junit, --log) as the CI job left them`,
    );
  }
  const { tests, files, recordExit } = tally;
  // The reporter's own verdicts (in a record) already applied the checkout's limits and quarantine; otherwise apply them here.
  const checkout =
    tally.recordsRead === 0
      ? await applyCheckout(sources.limits, tests, files, sources.onNote)
      : { tests, excesses: [] };
  const exitCode = sources.exitCode ?? recordExit;
  return {
    tests: await addSourceLines(sources.root, checkout.tests),
    files,
    unhandled: tally.unhandled,
    excesses: [...tally.recordExcesses, ...checkout.excesses],
    problems: tally.problems,
    logs: tally.logs,
    exitCode,
    exitCodeOrigin: sources.exitCode !== null ? '--exit-code' : recordExit !== null ? 'run record' : null,
    reruns: null,
    rerunCount: sources.rerunCount,
    runIds: tally.runIds,
    interrupted: tally.interrupted,
  };
}

function readReportInputs(reports: readonly string[], mapFile: (p: string) => string, tally: InputTally): void {
  for (const file of reports) {
    const read = readVitestJsonFile(file, display(file), mapFile);
    if (read.observations) {
      tally.tests.push(...read.observations.tests);
      tally.files.push(...read.observations.files);
      tally.readable += 1;
    } else if (read.problem?.kind !== 'missing-report') tally.unreadable.push(read.problem?.detail ?? display(file));
    if (read.problem) tally.problems.push(read.problem);
  }
}

function readJunitInputs(junit: readonly string[], mapFile: (p: string) => string, tally: InputTally): void {
  for (const file of junit) {
    const read = readJunitFile(file, display(file), mapFile);
    if (read.problem?.kind !== 'missing-report') tally.readable += 1;
    tally.tests.push(...read.tests);
    tally.unhandled.push(...read.unhandled);
    if (read.problem) tally.problems.push(read.problem);
  }
}

async function scanLogInputs(
  logs: readonly string[],
  signatures: readonly LogSignature[],
  mapFile: (p: string) => string,
  tally: InputTally,
): Promise<void> {
  const matcher = compileLogMatcher(signatures);
  // Names the reports and records know, so a log name that ends like an attempt label stays whole.
  const known = new Set(
    tally.tests.flatMap((t) => (t.file === null ? [] : [refKey({ file: t.file, fullName: t.fullName })])),
  );
  for (const file of logs) {
    if (checkInputPath('log', file, display(file)) === 'missing')
      throw badInput('log', display(file), 'does not exist');
    const scan = await scanLog(file, matcher, display(file));
    tally.logs.push(scan);
    tally.tests.push(...logFailuresAsTests(readLogFailures(scan), mapFile, known));
    tally.unhandled.push(
      ...readLogUnhandled(scan).map((u) => ({
        type: u.type,
        message: u.message,
        file: u.file === null ? null : mapFile(u.file),
        fullName: u.fullName,
        origin: u.origin,
        ...(u.cause === undefined ? {} : { cause: u.cause }),
      })),
    );
    tally.readable += 1;
  }
}

/** A report or record that was never written is evidence only when a log shows the run stopping before its reporters. */
function checkMissingInputs(sources: TriageSources, signatures: readonly LogSignature[], tally: InputTally): void {
  const missing = tally.problems.filter((p) => p.kind === 'missing-report');
  const { logs } = tally;
  if (missing.length === 0 || logs.some((scan) => stopsBeforeReporters(scan, signatures))) return;
  const first = missing[0] as InputProblem;
  const kind = sources.records.some((f) => display(f) === first.input)
    ? 'record'
    : sources.reports.some((f) => display(f) === first.input)
      ? 'report'
      : 'junit';
  throw badInput(
    kind,
    first.input,
    `does not exist${logs.length === 0 ? ' (a file the run never wrote is accepted with --log of a run that stopped before its reporters)' : ' and the log does not show the run stopping before its reporters'}`,
  );
}
