/**
 * `flakeguard gate`: runs the tests a change adds or edits several times under CPU load before
 * merge and fails (exit 1) on any test that is not stable. Exit 2 when it could not run, 130 when
 * interrupted. Results to stdout (table, or --json), progress and diagnostics to stderr.
 */
import path from 'node:path';
import type { Calibration } from '../../core/calibration/auto-slowdown.js';
import type { Config } from '../../core/config.js';
import { interruptedError } from '../../core/errors.js';
import { formatGateMarkdown } from '../../core/gate/gate-markdown.js';
import { computeGateReport, type GateReport, toGateReportJson } from '../../core/gate/gate-report.js';
import { mergeGateReports, pickGateShard } from '../../core/gate/gate-shard.js';
import { gateDeadline } from '../../core/gate/try-ceiling.js';
import { renderGateHtml } from '../../core/html/html-gate.js';
import { systemClock } from '../../io/clock.js';
import { loadConfig } from '../../io/config/config-file.js';
import { writeFileAtomic } from '../../io/files/atomic-write.js';
import { writeHtmlReport } from '../../io/files/html-file.js';
import { requireFilesNotFolders, writeReportFile } from '../../io/files/input-file.js';
import { readGateReport } from '../../io/gate/gate-report-file.js';
import { resolveBaseRevision } from '../../io/git/git.js';
import type { HistoryTarget } from '../../io/history/history-store.js';
import { readProjectOwners } from '../../io/owners/codeowners-file.js';
import { listenForInterrupt } from '../../io/process/interrupt.js';
import { checkSettings } from '../../io/settings-check.js';
import { detectScreen } from '../../io/terminal.js';
import { customRunnerError } from '../../io/vitest/tries-outcome.js';
import { type GateArgs, parseGateArgs } from './gate-args.js';
import { checkPlatformOption, resolveGateSlowdown } from './gate-calibration.js';
import { formatGateText } from './gate-format.js';
import { withTestHistory } from './gate-history.js';
import { type GateLimits, prepareLimits } from './gate-limits.js';
import { placedStep } from './gate-place.js';
import { printGatePlan } from './gate-plan-print.js';
import { createGateProgress, type GateProgressPrinter } from './gate-progress.js';
import { buildProposals } from './gate-proposals.js';
import { gatherReportInput } from './gate-report-input.js';
import { runGate } from './gate-run.js';
import type { GateRunOptions } from './gate-run-options.js';
import { type GateSelection, selectGateTests } from './gate-select.js';

export async function runGateCommand(args: string[]): Promise<number> {
  const parsed = parseGateArgs(args);
  if (parsed === 'help') return 0;
  if (parsed.merge !== null) {
    requireFilesNotFolders('--merge', parsed.merge);
    const reports = parsed.merge.map((f) => readGateReport(path.resolve(f)));
    return emitReport(mergeGateReports(reports, parsed.merge), parsed, `merged ${reports.length} shard reports`);
  }
  const started = performance.now();
  const loaded = loadConfig(parsed.root);
  const root = loaded.file ? loaded.root : parsed.root;
  const config: Config =
    parsed.budgetMs === null
      ? loaded.config
      : { ...loaded.config, budget: { ...loaded.config.budget, test: { kind: 'single', value: parsed.budgetMs } } };
  const settings = checkSettings(root, config);
  checkPlatformOption(parsed.slowdown ?? config.gate.slowdown, parsed.platform);

  const base = await resolveBaseRevision(root, parsed.base);
  const interrupt = listenForInterrupt();
  try {
    return await runSelectedGate(parsed, {
      root,
      config,
      base,
      started,
      signal: interrupt.signal,
      history: settings.history,
    });
  } catch (error) {
    if (interrupt.signal.aborted) throw interruptedError('the tries and the load were');
    throw error;
  } finally {
    interrupt.dispose();
  }
}

interface GateContext {
  readonly root: string;
  readonly config: Config;
  readonly base: { readonly sha: string; readonly ref: string };
  /** performance.now() when the command started. */
  readonly started: number;
  readonly signal: AbortSignal;
  readonly history: HistoryTarget | null;
}

async function runSelectedGate(parsed: GateArgs, context: GateContext): Promise<number> {
  const { root, base, signal } = context;
  const whole = await selectGateTests(root, base.sha, { setup: parsed.setup, affected: parsed.affected, signal });
  const selection = pickShard(parsed, whole);
  if (parsed.plan) {
    const say = (text: string): void => void process.stderr.write(`flakeguard gate: ${text}\n`);
    const step = await placedStep(say, root, base.sha, whole);
    step(describeSelection(selection, base, parsed.affected));
    return printGatePlan({ parsed, root, config: context.config, base, selection, step, history: context.history });
  }
  // One line per test and Vitest project it runs in.
  const targetCount = selection.selected.reduce((n, s) => n + (selection.projectsOf.get(s.test.file)?.length ?? 1), 0);
  const progress = createGateProgress(detectScreen(process.stderr), targetCount, parsed.workers);
  const step = await placedStep((text) => progress.step(text), root, base.sha, whole);
  step(describeSelection(selection, base, parsed.affected));
  try {
    // Refused here, from the listing, before any load worker or tries Vitest starts.
    if (selection.selected.length > 0 && selection.customRunner !== null)
      throw customRunnerError(selection.customRunner);
    const report = await runAndReport(parsed, context, selection, step, progress);
    const nothing =
      selection.selected.length === 0
        ? `no new or changed tests since ${base.ref} (${base.sha.slice(0, 10)})${parsed.shard ? ` in shard ${parsed.shard.index}/${parsed.shard.count}` : ''}; nothing to run`
        : null;
    return emitReport(report, parsed, nothing);
  } finally {
    progress.stop();
  }
}

/** With --shard, this shard's part of the selection (said on stderr). */
function pickShard(parsed: GateArgs, whole: GateSelection): GateSelection {
  if (parsed.shard === null) return whole;
  const selection = {
    ...whole,
    selected: pickGateShard(whole.selected, (s) => [s.test.file, s.test.fullName], parsed.shard),
  };
  process.stderr.write(
    `flakeguard gate: shard ${parsed.shard.index}/${parsed.shard.count}: ${selection.selected.length} of ${whole.selected.length} selected tests\n`,
  );
  return selection;
}

/** The step line that says what was selected and against which base. */
function describeSelection(
  selection: GateSelection,
  base: { readonly sha: string; readonly ref: string },
  affectedAsked: boolean,
): string {
  const affected = selection.selected.filter((s) => s.kind === 'affected').length;
  const changedCount = selection.selected.length - affected;
  return (
    `${changedCount} new or changed test${changedCount === 1 ? '' : 's'} in ${selection.changedFiles} changed test file${selection.changedFiles === 1 ? '' : 's'} since ${base.ref} (${base.sha.slice(0, 10)})` +
    (affectedAsked
      ? `; ${affected} test${affected === 1 ? '' : 's'} in ${selection.affectedBy.size} file${selection.affectedBy.size === 1 ? '' : 's'} importing a changed module`
      : '')
  );
}

/** Limits, the tries (when anything was selected), proposals, then the report with each test's past and owners. */
async function runAndReport(
  parsed: GateArgs,
  context: GateContext,
  selection: GateSelection,
  step: (text: string) => void,
  progress: GateProgressPrinter,
): Promise<GateReport> {
  const { root, config } = context;
  const platform = process.platform;
  const tests = selection.selected.map((s) => s.test);
  const limits = await prepareLimits({ root, config, platform, tests, today: systemClock.today() });
  for (const w of limits.warnings) step(`warning: ${w}`);
  const asked = { slowdown: parsed.slowdown ?? config.gate.slowdown, platform: parsed.platform };
  const slowdown =
    selection.selected.length === 0
      ? null
      : await resolveGateSlowdown({ ...asked, history: context.history, here: platform }, step);
  const run =
    slowdown === null
      ? null
      : await runGate(gateRunOptions(parsed, context, selection, limits, step, progress, slowdown.target));
  progress.stop();
  const proposals = await buildProposals({
    root,
    config,
    platform,
    tests: run?.tests ?? [],
    selected: selection.selected,
    workers: run ? parsed.workers : 0,
    write: parsed.writeAllowances,
  });
  const sources = { parsed, config, base: context.base, platform, selection, run, proposals };
  const computed = computeGateReport(
    gatherReportInput({ ...sources, limitNotices: limits.notices, started: context.started }),
  );
  return addPastAndOwners(withCalibration(computed, slowdown?.calibration ?? null), context.history, root);
}

/** With auto, how the target was chosen goes with the contention it ran at (`contention.calibration`). */
function withCalibration(report: GateReport, calibration: Calibration | null): GateReport {
  if (calibration === null || report.contention === undefined) return report;
  return { ...report, contention: { ...report.contention, calibration } };
}

function gateRunOptions(
  parsed: GateArgs,
  context: GateContext,
  selection: GateSelection,
  limits: GateLimits,
  step: (text: string) => void,
  progress: GateProgressPrinter,
  slowdown: number,
): GateRunOptions {
  return {
    root: context.root,
    config: context.config,
    setup: parsed.setup,
    selected: selection.selected,
    projectsOf: selection.projectsOf,
    affectedBy: selection.affectedBy,
    tries: parsed.tries,
    maxTries: parsed.maxTries,
    timeBudgetMs: parsed.timeBudgetMs,
    timeBudgetGiven: parsed.timeBudgetGiven,
    started: context.started,
    workers: parsed.workers,
    slowdown,
    seed: { kind: 'derived', runSeed: parsed.seed, nodeCrypto: parsed.seedNodeCrypto },
    deadline: gateDeadline(context.started, parsed.timeBudgetMs, slowdown),
    signal: context.signal,
    limitFor: limits.limitFor,
    onStep: step,
    onProgress: (phase, line, index) => progress.tryDone(phase, line, index),
  };
}

/** The report with each test's past (the history store, when one is set) and owners (CODEOWNERS). */
async function addPastAndOwners(
  computed: GateReport,
  history: HistoryTarget | null,
  root: string,
): Promise<GateReport> {
  const past = await withTestHistory(computed, history);
  const { ownersOf } = readProjectOwners(root);
  const owned = { ...past.report, tests: past.report.tests.map((t) => ({ ...t, owners: ownersOf(t.file) })) };
  return past.notice === null ? owned : { ...owned, notices: [...owned.notices, past.notice] };
}

/** Prints the report (table or --json) and writes --markdown and --html; returns the exit code. */
function emitReport(report: GateReport, parsed: GateArgs, headline: string | null): number {
  if (parsed.json) process.stdout.write(`${JSON.stringify(toGateReportJson(report), null, 2)}\n`);
  else if (report.tests.length === 0 && headline !== null) process.stdout.write(`flakeguard gate: ${headline}\n`);
  else process.stdout.write(formatGateText(report, detectScreen(process.stdout)));
  // stdout first: a --markdown/--html path that cannot be written (exit 2) still leaves the report.
  const { markdown, html } = parsed;
  if (markdown !== null)
    writeReportFile('--markdown', markdown, () => writeFileAtomic(path.resolve(markdown), formatGateMarkdown(report)));
  if (html !== null)
    writeReportFile('--html', html, () => writeHtmlReport(html, renderGateHtml(report, { warnAt: report.warnAt })));
  return report.verdict === 'pass' ? 0 : 1;
}
