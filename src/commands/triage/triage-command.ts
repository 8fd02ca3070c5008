/**
 * `flakeguard triage`: sorts every failure of a red run into infrastructure, escape, flake or
 * budget, with evidence and an action. Gathers everything first: the run's inputs
 * (src/io/triage/triage-inputs.ts, each file read once), then what planTriage says to ask for (the
 * history store's facts, the re-runs of --rerun); then decides once (src/core/triage/triage.ts) and prints.
 * Exit codes: 0 the run was green, 1 findings were classified, 2 the inputs could not be read, 130 interrupted.
 */

import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseDuration } from '../../core/duration.js';
import { FlakeguardError } from '../../core/errors.js';
import { renderTriageHtml } from '../../core/html/html-triage.js';
import { computeTriage, planTriage } from '../../core/triage/triage.js';
import { inputsShowRun } from '../../core/triage/triage-evidence-of-run.js';
import { formatTriage, toTriageJson } from '../../core/triage/triage-format.js';
import { formatTriageMarkdown } from '../../core/triage/triage-markdown.js';
import { filterFindingsByOwner, withFindingOwners } from '../../core/triage/triage-owners.js';
import { type LogSignature, mergeSignatures } from '../../core/triage/triage-signatures.js';
import type { RerunTarget, TriageReport } from '../../core/triage/triage-types.js';
import { escapeTerminal } from '../../core/untrusted-text.js';
import { systemClock } from '../../io/clock.js';
import { type LoadedConfig, loadConfig } from '../../io/config/config-file.js';
import { writeFileAtomic } from '../../io/files/atomic-write.js';
import { writeHtmlReport } from '../../io/files/html-file.js';
import { writeReportFile } from '../../io/files/input-file.js';
import { readProjectOwners, requireCodeownersFor } from '../../io/owners/codeowners-file.js';
import { type ProjectPlaces, resolveProjectPlaces } from '../../io/places/project-places.js';
import { listenForInterrupt } from '../../io/process/interrupt.js';
import { newestRunRecords, skippedFilesNotice, splitRunRecords } from '../../io/record/run-record-file.js';
import { checkSettings } from '../../io/settings-check.js';
import { detectScreen, paint } from '../../io/terminal.js';
import { gatherTriageInputs, type TriageSources } from '../../io/triage/triage-inputs.js';
import type { LimitSettings } from '../../io/triage/triage-limits.js';
import { describeProjectPlace, findVitestConfigFile } from '../../io/vitest/vitest-config-file.js';
import { commandUsageError, type ParsedValues, parseCommandArgs } from '../command-args.js';
import { triageHistory } from './triage-history-step.js';
import { type TRIAGE_OPTIONS, TRIAGE_USAGE } from './triage-options.js';
import { withFlakeSourceSignals } from './triage-source-signals.js';

const usage = (message: string): FlakeguardError => commandUsageError('flakeguard triage', message);

function durationFlag(name: string, value: string | undefined): number | null {
  if (value === undefined) return null;
  const parsed = parseDuration(value);
  if (!parsed.ok) throw usage(`--${name} ${parsed.message}`);
  return parsed.ms;
}

function intFlag(name: string, value: string | undefined, min: number, max: number): number | null {
  if (value === undefined) return null;
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw usage(`--${name} "${value}" must be a whole number of at least ${min}`);
  if (Number(value) > max) throw usage(`--${name} "${value}" must be a whole number from ${min} to ${max}`);
  return Number(value);
}

async function rerunTargets(
  root: string,
  targets: readonly RerunTarget[],
  runs: number,
  flags: { readonly config?: string; readonly project?: string[] },
) {
  const interrupt = listenForInterrupt();
  try {
    // Loaded only for --rerun: it brings execa and the gate's Vitest driver.
    const { rerunFailures } = await import('../../io/triage/triage-rerun.js');
    const vitest = {
      config: flags.config === undefined ? null : path.resolve(flags.config),
      projects: flags.project ?? [],
    };
    // Which project and config the re-runs use, in the gate's words (issue 19, class 6).
    const place = describeProjectPlace(root, findVitestConfigFile(root, vitest.config));
    process.stderr.write(`flakeguard triage: ${escapeTerminal(place)}\n`);
    return await rerunFailures({
      root,
      targets: [...targets],
      runs,
      vitest,
      signal: interrupt.signal,
      onProgress: (t) => process.stderr.write(`flakeguard: ${escapeTerminal(t)}\n`),
    });
  } finally {
    interrupt.dispose();
  }
}

type TriageFlags = ParsedValues<typeof TRIAGE_OPTIONS>;

export async function runTriageCommand(args: string[]): Promise<number> {
  const parsed = parseCommandArgs('flakeguard triage', TRIAGE_USAGE, args);
  if (parsed === 'help') return 0;
  const flags = parsed.values;
  if (flags.json && flags.markdown !== undefined) throw usage('--json and --markdown are exclusive');
  if (flags.owner !== undefined && flags.owner.trim() === '')
    throw usage('--owner needs a team or user, as CODEOWNERS names it (@org/team)');
  // Flag values first: a bad --rerun or --exit-code is named even when the inputs are missing too.
  const rerunCount = intFlag('rerun', flags.rerun, 1, 100) ?? 0;
  const exitCode = intFlag('exit-code', flags['exit-code'], 0, 255);
  const start = path.resolve(flags.root ?? process.cwd());
  const loaded = loadConfig(start);
  const root = flags.root !== undefined ? start : loaded.root;
  if (flags['no-history'] !== true) checkSettings(root, loaded.config);
  const signatures = mergeSignatures(loaded.config.triage.patterns);
  const limits = readLimitSettings(flags, root, loaded);
  const places = resolveProjectPlaces(root, loaded.config);
  const files = resolveTriageFiles(flags, root, places);
  if (rerunCount === 0 && (flags.config !== undefined || flags.project !== undefined))
    throw usage('--config and --project are passed to Vitest on re-runs: use them with --rerun <n>');
  if (flags.config !== undefined && !existsSync(path.resolve(flags.config)))
    throw usage(`--config ${flags.config}: no such Vitest config file`);
  const sources = {
    root,
    ...files,
    exitCode,
    limits,
    rerunCount,
    onNote: (text: string) => process.stderr.write(`flakeguard: ${escapeTerminal(text)}\n`),
  };
  if (flags.history && flags['no-history']) throw usage('--history and --no-history are exclusive');
  const computed = await computeTriageOfSources(sources, signatures, places, loaded.config.history, flags);
  const report = withFlakeSourceSignals(computed, root);
  const owners = readProjectOwners(root);
  requireCodeownersFor(flags.owner, owners, 'flakeguard triage');
  let owned = withFindingOwners(report, owners.ownersOf);
  if (flags.owner !== undefined) owned = filterFindingsByOwner(owned, flags.owner);
  printTriageReport(owned, flags);
  return owned.verdict === 'green' ? 0 : 1;
}

function readLimitSettings(flags: TriageFlags, root: string, loaded: LoadedConfig): LimitSettings {
  const testFlag = durationFlag('budget', flags.budget);
  const fileFlag = durationFlag('file-budget', flags['file-budget']);
  return {
    root,
    config: loaded.config,
    configFile:
      loaded.file === null ? null : path.relative(process.cwd(), loaded.file).split(path.sep).join('/') || loaded.file,
    platform: process.platform,
    today: systemClock.today(),
    testFlagMs: testFlag,
    fileFlagMs: fileFlag,
  };
}

interface TriageFiles {
  readonly records: string[];
  readonly reports: string[];
  readonly junit: string[];
  readonly logs: string[];
}

/** The input files the flags name, else the newest run record; prints which given files were skipped. */
function resolveTriageFiles(flags: TriageFlags, root: string, places: ProjectPlaces): TriageFiles {
  const resolveAll = (list: string[] | undefined): string[] => (list ?? []).map((f) => path.resolve(f));
  // Files that are not run records are skipped beside a record; given alone, reading them says why.
  const given = splitRunRecords(resolveAll(flags.record));
  let records = given.records.length > 0 ? given.records : resolveAll(flags.record);
  const skipped = given.records.length > 0 ? [...given.skipped] : [];
  const reports = resolveAll(flags.report);
  const junit = resolveAll(flags.junit);
  const logs = resolveAll(flags.log);
  if (records.length + reports.length + junit.length + logs.length === 0) {
    const newest = newestRunRecords(root, places.records, 1);
    skipped.push(...newest.skipped);
    if (newest.records[0] === undefined)
      throw usage(
        `no inputs: pass --record, --report, --junit or --log (no run record under ${places.recordsShown}/ either)`,
      );
    records = [newest.records[0]];
  }
  const notice = skippedFilesNotice(skipped);
  if (notice !== null) process.stderr.write(`${notice}\n`);
  return { records, reports, junit, logs };
}

/** Gather: the run's inputs, then the history and re-runs the plan asks for; then decide once. */
async function computeTriageOfSources(
  sources: TriageSources & TriageFiles,
  signatures: readonly LogSignature[],
  places: ProjectPlaces,
  historyConfig: LoadedConfig['config']['history'],
  flags: TriageFlags,
): Promise<TriageReport> {
  const gathered = await gatherTriageInputs(sources, signatures);
  const plan = planTriage(gathered, signatures);
  const history = await triageHistory({
    places,
    config: historyConfig,
    flags,
    runIds: gathered.runIds ?? [],
    tests: plan.historyQuestions,
  });
  const reruns =
    sources.rerunCount > 0 && plan.rerunTargets.length > 0
      ? await rerunTargets(sources.root, plan.rerunTargets, sources.rerunCount, flags)
      : null;
  const inputs = { ...gathered, history, reruns };
  const report = computeTriage(inputs, signatures);
  if (report.verdict === 'green' && !inputsShowRun(inputs)) {
    const given = [...sources.records, ...sources.reports, ...sources.junit, ...sources.logs]
      .map((f) => path.relative(process.cwd(), f) || f)
      .join(', ');
    throw new FlakeguardError(
      'INPUT_UNREADABLE',
      `no input shows a run (${given}: no test result, no Vitest summary, no failure, no exit code); pass the files the CI job left (--report, --junit, --record, the whole --log) or --exit-code`,
    );
  }
  return report;
}

function printTriageReport(report: TriageReport, flags: TriageFlags): void {
  if (flags.json) process.stdout.write(`${JSON.stringify(toTriageJson(report))}\n`);
  else {
    const screen = detectScreen();
    process.stdout.write(formatTriage(report, (style, text) => paint(screen, style, text)));
    const markdown = flags.markdown;
    if (markdown !== undefined)
      writeReportFile('--markdown', markdown, () =>
        writeFileAtomic(path.resolve(markdown), formatTriageMarkdown(report)),
      );
  }
  const html = flags.html;
  if (html !== undefined)
    writeReportFile('--html', html, () => writeHtmlReport(html, renderTriageHtml(toTriageJson(report))));
}
