/**
 * Gathers what a run left (run records, Vitest JSON reports, JUnit XML, CI logs, the exit code)
 * into TriageInputs. Paths written on another machine are mapped onto the root. An input that
 * cannot be read whole becomes an input problem (a finding), not a crash; only when nothing at all
 * could be read does triage stop with exit code 2.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { FlakeguardError, isFlakeguardError } from '../../core/errors.js';
import { testKey } from '../../core/test-id.js';
import { compileLogMatcher } from '../../core/triage/log-matcher.js';
import { logFailuresAsTests, readLogFailures, readLogUnhandled } from '../../core/triage/log-vitest.js';
import { mapPathOntoRoot } from '../../core/triage/path-mapping.js';
import { readRecordObservations, salvageRecordTests } from '../../core/triage/triage-record.js';
import type { LogSignature } from '../../core/triage/triage-signatures.js';
import type {
  BudgetExcess,
  InputProblem,
  LogScan,
  ObservedFile,
  ObservedTest,
  ObservedUnhandled,
  TriageInputs,
} from '../../core/triage/triage-types.js';
import { readRunRecord } from '../record/run-record-file.js';
import { readJunitFile } from './junit-read.js';
import { scanLog } from './log-scan.js';
import { badInput, checkInputPath, describeJson } from './triage-input-check.js';
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

function display(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return (rel === '' || rel.startsWith('..') ? file : rel).split(path.sep).join('/');
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

function parseWhole(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
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
  const tests: ObservedTest[] = [];
  const files: ObservedFile[] = [];
  const unhandled: ObservedUnhandled[] = [];
  const recordExcesses: BudgetExcess[] = [];
  const problems: InputProblem[] = [];
  const logs: LogScan[] = [];
  const unreadable: string[] = [];
  let readable = 0;
  let recordExit: number | null = null;
  let recordsRead = 0;
  const runIds: string[] = [];
  for (const file of sources.records) {
    if (checkInputPath('record', file, display(file)) === 'missing') {
      problems.push({
        input: display(file),
        kind: 'missing-report',
        cutAtByte: null,
        salvaged: 0,
        detail: `${display(file)} does not exist`,
      });
      continue;
    }
    try {
      const record = readRunRecord(file, display(file));
      runIds.push(record.runId);
      const obs = readRecordObservations(record, display(file));
      tests.push(...obs.tests);
      files.push(...obs.files);
      unhandled.push(...obs.unhandled);
      recordExcesses.push(...obs.excesses);
      if (obs.exitCode !== null) recordExit = Math.max(recordExit ?? 0, obs.exitCode);
      recordsRead += 1;
      readable += 1;
    } catch (error) {
      if (!isFlakeguardError(error)) throw error;
      const text = readFileSync(file, 'utf8');
      // Whole JSON that is not a record (a package.json, a Vitest report) is the wrong file, not a cut record.
      const whole = parseWhole(text);
      if (whole.ok)
        throw badInput(
          'record',
          display(file),
          `is JSON but not a run record (${describeJson(whole.value)}): ${error.message}`,
        );
      // A cut record: keep its complete test entries, and report where it was cut.
      const salvaged = salvageRecordTests(text, display(file));
      if (salvaged.tests.length === 0 && !text.trimStart().startsWith('{'))
        throw badInput('record', display(file), `is not a run record (${error.message})`);
      tests.push(...salvaged.tests);
      if (salvaged.tests.length > 0) readable += 1;
      else unreadable.push(error.message);
      problems.push({
        input: display(file),
        kind: salvaged.truncated ? 'truncated' : 'corrupt',
        cutAtByte: salvaged.truncated ? statSync(file).size : salvaged.cutAtByte,
        salvaged: salvaged.tests.length,
        detail: `${error.message}; ${salvaged.tests.length} complete test entries salvaged`,
      });
    }
  }
  for (const file of sources.reports) {
    const read = readVitestJsonFile(file, display(file), mapFile);
    if (read.observations) {
      tests.push(...read.observations.tests);
      files.push(...read.observations.files);
      readable += 1;
    } else if (read.problem?.kind !== 'missing-report') unreadable.push(read.problem?.detail ?? display(file));
    if (read.problem) problems.push(read.problem);
  }
  for (const file of sources.junit) {
    const read = readJunitFile(file, display(file), mapFile);
    if (read.problem?.kind !== 'missing-report') readable += 1;
    tests.push(...read.tests);
    unhandled.push(...read.unhandled);
    if (read.problem) problems.push(read.problem);
  }
  const matcher = compileLogMatcher(signatures);
  // Names the reports and records know, so a log name that ends like an attempt label stays whole.
  const known = new Set(tests.map((t) => testKey(t.file, t.name)));
  for (const file of sources.logs) {
    if (checkInputPath('log', file, display(file)) === 'missing')
      throw badInput('log', display(file), 'does not exist');
    const scan = await scanLog(file, matcher, display(file));
    logs.push(scan);
    tests.push(...logFailuresAsTests(readLogFailures(scan), mapFile, known));
    unhandled.push(
      ...readLogUnhandled(scan).map((u) => ({
        type: u.type,
        message: u.message,
        file: u.file === null ? null : mapFile(u.file),
        test: u.test,
        origin: u.origin,
        ...(u.cause === undefined ? {} : { cause: u.cause }),
      })),
    );
    readable += 1;
  }
  // A report or record that was never written is evidence only when a log shows the run stopping before its reporters.
  const missing = problems.filter((p) => p.kind === 'missing-report');
  if (missing.length > 0 && !logs.some((scan) => stopsBeforeReporters(scan, signatures))) {
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
  if (readable === 0) {
    throw new FlakeguardError(
      'INPUT_UNREADABLE',
      `no input could be read: ${unreadable.join('; ')}; pass the run's files (--record, --report, --junit, --log) as the CI job left them`,
    );
  }
  // The reporter's own verdicts (in a record) already applied the checkout's limits and quarantine; otherwise apply them here.
  const checkout =
    recordsRead === 0 ? await applyCheckout(sources.limits, tests, files, sources.onNote) : { tests, excesses: [] };
  const exitCode = sources.exitCode ?? recordExit;
  return {
    tests: await addSourceLines(sources.root, checkout.tests),
    files,
    unhandled,
    excesses: [...recordExcesses, ...checkout.excesses],
    problems,
    logs,
    exitCode,
    exitCodeOrigin: sources.exitCode !== null ? '--exit-code' : recordExit !== null ? 'run record' : null,
    reruns: null,
    rerunCount: sources.rerunCount,
    runIds,
  };
}
