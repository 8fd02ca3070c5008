/**
 * `flakeguard gate`: runs the tests a change adds or edits several times under CPU load before
 * merge and fails (exit 1) on any test that is not stable. Exit 2 when it could not run, 130 when
 * interrupted. Results to stdout (table, or --json), progress and diagnostics to stderr.
 */
import path from 'node:path';
import type { Config } from '../../core/config.js';
import { interruptedError } from '../../core/errors.js';
import { formatGateMarkdown } from '../../core/gate/gate-markdown.js';
import { computeGateReport, type GateReport } from '../../core/gate/gate-report.js';
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
import { defaultWorkerCount } from '../../io/load/load-workers.js';
import { readProjectOwners } from '../../io/owners/codeowners-file.js';
import { listenForInterrupt } from '../../io/process/interrupt.js';
import { checkSettings } from '../../io/settings-check.js';
import { detectScreen } from '../../io/terminal.js';
import { type GateArgs, parseGateArgs } from './gate-args.js';
import { formatGateText } from './gate-format.js';
import { withTestHistory } from './gate-history.js';
import { prepareLimits } from './gate-limits.js';
import { placedStep } from './gate-place.js';
import { createGateProgress } from './gate-progress.js';
import { buildProposals } from './gate-proposals.js';
import { runGate } from './gate-run.js';
import { selectGateTests } from './gate-select.js';

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
    if (interrupt.signal.aborted) throw interruptedError('the test runs and the load were');
    throw error;
  } finally {
    interrupt.dispose();
  }
}

async function runSelectedGate(
  parsed: GateArgs,
  context: {
    readonly root: string;
    readonly config: Config;
    readonly base: { readonly sha: string; readonly ref: string };
    readonly started: number;
    readonly signal: AbortSignal;
    readonly history: HistoryTarget | null;
  },
): Promise<number> {
  const { root, config, base, started, signal, history } = context;
  const whole = await selectGateTests(root, base.sha, { setup: parsed.setup, affected: parsed.affected, signal });
  const selection =
    parsed.shard === null
      ? whole
      : { ...whole, selected: pickGateShard(whole.selected, (s) => [s.test.file, s.test.fullName], parsed.shard) };
  if (parsed.shard !== null) {
    process.stderr.write(
      `flakeguard gate: shard ${parsed.shard.index}/${parsed.shard.count}: ${selection.selected.length} of ${whole.selected.length} selected tests\n`,
    );
  }
  // One line per test and Vitest project it runs in.
  const runCount = selection.selected.reduce((n, s) => n + (selection.projectsOf.get(s.test.file)?.length ?? 1), 0);
  const progress = createGateProgress(detectScreen(process.stderr), runCount, parsed.workers);
  const step = await placedStep((text) => progress.step(text), root, base.sha, whole);
  const affected = selection.selected.filter((s) => s.kind === 'affected').length;
  const changedCount = selection.selected.length - affected;
  step(
    `${changedCount} new or changed test${changedCount === 1 ? '' : 's'} in ${selection.changedFiles} changed test file${selection.changedFiles === 1 ? '' : 's'} since ${base.ref} (${base.sha.slice(0, 10)})` +
      (parsed.affected
        ? `; ${affected} test${affected === 1 ? '' : 's'} in ${selection.affectedBy.size} file${selection.affectedBy.size === 1 ? '' : 's'} importing a changed module`
        : ''),
  );

  try {
    const platform = process.platform;
    const limits = await prepareLimits({
      root,
      config,
      platform,
      tests: selection.selected.map((s) => s.test),
      today: systemClock.today(),
    });
    for (const w of limits.warnings) step(`warning: ${w}`);
    const run =
      selection.selected.length === 0
        ? null
        : await runGate({
            root,
            config,
            setup: parsed.setup,
            selected: selection.selected,
            projectsOf: selection.projectsOf,
            affectedBy: selection.affectedBy,
            runs: parsed.runs,
            maxRuns: parsed.maxRuns,
            timeBudgetMs: parsed.timeBudgetMs,
            workers: parsed.workers,
            slowdown: parsed.slowdown ?? config.gate.slowdown,
            deadline: gateDeadline(started, parsed.timeBudgetMs, parsed.slowdown ?? config.gate.slowdown),
            signal,
            limitFor: limits.limitFor,
            onStep: step,
            onProgress: (phase, line, index) => progress.tryDone(phase, line, index),
          });
    progress.stop();
    const tests = run?.tests ?? [];
    const proposals = buildProposals({
      root,
      config,
      platform,
      tests,
      selected: selection.selected,
      workers: run ? parsed.workers : 0,
      write: parsed.writeAllowances,
    });
    const computed: GateReport = computeGateReport({
      base: base.sha,
      baseRef: base.ref,
      runs: parsed.runs,
      maxRuns: parsed.maxRuns,
      timeBudgetMs: parsed.timeBudgetMs,
      platform,
      warnAt: config.budget.warnAt,
      vitestVersion: run?.vitestVersion ?? null,
      load: run?.load ?? {
        workers: 0,
        pids: [],
        cpus: defaultWorkerCount(),
        loadavgBefore: null,
        loadavgAfter: null,
        workersMachineShare: null,
        testsCpuShare: null,
      },
      ...(run ? { contention: run.contention } : {}),
      fragile: config.gate.fragile,
      tests,
      notRun: selection.notRun.map((n) => ({
        file: n.test.file,
        name: n.test.fullName,
        line: n.test.line,
        reason: n.reason,
      })),
      unchanged: selection.unchanged,
      proposals: await proposals,
      notices: [...selection.notices, ...limits.notices, ...(run?.notices ?? [])],
      wallMs: performance.now() - started,
      shard: parsed.shard,
      ...(run ? { cost: { loadedWallMs: run.loadedWallMs, triesMs: run.triesMs } } : {}),
    });
    const past = await withTestHistory(computed, history);
    const { ownersOf } = readProjectOwners(root);
    const owned = { ...past.report, tests: past.report.tests.map((t) => ({ ...t, owners: ownersOf(t.file) })) };
    const report: GateReport = past.notice === null ? owned : { ...owned, notices: [...owned.notices, past.notice] };
    const nothing =
      selection.selected.length === 0
        ? `no new or changed tests since ${base.ref} (${base.sha.slice(0, 10)})${parsed.shard ? ` in shard ${parsed.shard.index}/${parsed.shard.count}` : ''}; nothing to run`
        : null;
    return emitReport(report, parsed, nothing);
  } finally {
    progress.stop();
  }
}

/** Prints the report (table or --json) and writes --markdown and --html; returns the exit code. */
function emitReport(report: GateReport, parsed: GateArgs, headline: string | null): number {
  if (parsed.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
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
