/**
 * The flakeguard Vitest reporter: `reporters: ['default', 'flakeguard/reporter']`.
 * It gathers each finished test and file, lets the core check them against their duration limits,
 * prints the result after Vitest's summary, writes the run record and, outside watch mode, sets
 * exit code 1 when a budget is exceeded (only in onTestRunEnd, never lowering Vitest's code).
 */

import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { formatBudgetReport } from '../core/budget/budget-format.js';
import { testsNamedWithoutLine, withReportPlaces } from '../core/budget/budget-places.js';
import { computeBudgetReport } from '../core/budget/budget-report.js';
import { quarantinedFailures } from '../core/budget/budget-text.js';
import { type Config, DEFAULT_CONFIG } from '../core/config.js';
import { isFlakeguardError } from '../core/errors.js';
import { withRecentFailures } from '../core/quarantine/run-quarantine.js';
import { readCiContext } from '../core/record/ci-context.js';
import type { RecordedNotice } from '../core/record/run-record.js';
import { buildRunRecord, makeRunId } from '../core/record/run-record-build.js';
import { testKey } from '../core/test-id.js';
import { escapeTerminal } from '../core/untrusted-text.js';
import { loadConfig } from '../io/config/config-file.js';
import type { GitState } from '../io/git/git-state.js';
import type { HistorySession } from '../io/history/reporter-history.js';
import { readProjectOwners } from '../io/owners/codeowners-file.js';
import { type ProjectPlaces, resolveProjectPlaces } from '../io/places/project-places.js';
import { writeRunRecord } from '../io/record/run-record-file.js';
import { detectScreen, paint } from '../io/terminal.js';
import { testFilesOf } from '../io/vitest/running-test-files.js';
import { loadReporterAllowances, type ReporterAllowances } from './allowance-seam.js';
import { writeGithubOutput } from './github-output.js';
import { observeRun, observeUnhandledError, toRelative } from './observe.js';
import { toStartupError } from './startup-error.js';
import { findTestPlaces, type TestPlace } from './test-lines.js';

/** How many recent runs the quarantine block counts failures over. */
const QUARANTINE_HISTORY_WINDOW = 20;

/** Environment variable that redirects run records to another folder (io/places/project-places.ts resolves it). */
export { RECORDS_ENV } from '../io/places/project-places.js';

interface RunStart {
  readonly startedAt: Date;
  readonly loadavg: readonly number[];
  readonly git: Promise<GitState | null>;
  /** Opened at the start when history is on (io/history, imported only then). */
  readonly history: Promise<HistorySession | null>;
}

function currentExitCode(): number | null {
  const code = process.exitCode;
  if (code === undefined || code === null || code === '') return null;
  const n = Number(code);
  return Number.isFinite(n) ? n : null;
}

export default class FlakeguardReporter implements Reporter {
  private vitest: Vitest | undefined;
  private config: Config | undefined;
  private root = process.cwd();
  private run: RunStart | undefined;

  constructor(_options: Record<string, unknown> = {}) {}

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    try {
      const loaded = loadConfig(vitest.config.root);
      this.config = loaded.config;
      this.root = loaded.root;
    } catch (error) {
      throw toStartupError(error);
    }
  }

  onTestRunStart(): void {
    this.run = this.beginRun();
  }

  private places(): ProjectPlaces {
    return resolveProjectPlaces(this.root, this.config ?? DEFAULT_CONFIG);
  }

  private beginRun(): RunStart {
    const places = this.places();
    const exclude = [toRelative(this.root, places.records), toRelative(this.root, places.cache)];
    const git = import('../io/git/git-state.js').then((m) => m.readGitState(this.root, exclude)).catch(() => null);
    return { startedAt: new Date(), loadavg: os.loadavg(), git, history: this.startHistory() };
  }

  private startHistory(): Promise<HistorySession | null> {
    const config = this.config;
    // Watch mode re-runs a few files at a time: partial runs would read as runs of every test.
    if (
      !config ||
      this.vitest?.config.watch ||
      (config.history.kind === 'off' && !process.env['FLAKEGUARD_HISTORY_URL'])
    )
      return Promise.resolve(null);
    const input = { places: this.places(), history: config.history, env: process.env };
    return import('../io/history/reporter-history.js').then((m) => m.startHistorySession(input));
  }

  async onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
    reason: 'passed' | 'failed' | 'interrupted',
  ): Promise<void> {
    const vitest = this.vitest;
    const config = this.config;
    if (!vitest || !config) return;
    const vitestExitCode = currentExitCode();
    const run = this.run ?? this.beginRun();
    this.run = undefined;
    const root = this.root;
    const platform = process.platform;
    const observed = observeRun(testModules, root);
    const unhandled = unhandledErrors.map((e) =>
      observeUnhandledError(e as Parameters<typeof observeUnhandledError>[0], root),
    );
    const { allowances, quarantine, notices } = await this.allowances({
      root,
      config,
      platform,
      tests: observed.tests,
      testFiles: () => testFilesOf(vitest, root),
    });
    const { ownersOf } = readProjectOwners(root);
    let report = computeBudgetReport({
      config,
      platform,
      tests: observed.tests,
      files: observed.files,
      unhandledErrors: unhandled,
      allowances,
      quarantine,
      notices,
      reason,
      vitestExitCode,
      ownersOf,
    });
    // Lines for the tests the report names, when Vitest did not record locations: added, not recomputed.
    const named = testsNamedWithoutLine(report);
    if (named.length > 0)
      report = withReportPlaces(report, await findTestPlaces(root, named).catch(() => new Map<string, TestPlace>()));
    let historyError: unknown = null;
    const history = await run.history.catch((error: unknown) => {
      historyError = error;
      return null;
    });
    const excused = quarantinedFailures(report);
    if (history && excused.length > 0) {
      const recent = await history.recentFailures(
        excused.map((q) => ({ file: q.file, name: q.name })),
        QUARANTINE_HISTORY_WINDOW,
      );
      report = withRecentFailures(report, recent, (q) => testKey(q.file, q.name));
    }
    const watch = vitest.config.watch;
    if (report.verdict.failedByFlakeguard && !watch && !vitestExitCode) process.exitCode = 1;
    // The one case flakeguard lowers Vitest's code: every failure was a test under an applying
    // quarantine (docs/quarantine.md). Vitest sets no exit code after onTestRunEnd.
    else if (report.verdict.excusedByQuarantine && !watch && vitestExitCode === 1) process.exitCode = 0;

    const shard = vitest.config.shard ? { index: vitest.config.shard.index, count: vitest.config.shard.count } : null;
    const merged = Boolean(vitest.config.mergeReports);
    const git = await run.git;
    const runId = makeRunId(run.startedAt.toISOString(), randomBytes(3).toString('hex'), shard, merged);
    const record = buildRunRecord(
      report,
      {
        runId,
        startedAt: run.startedAt.toISOString(),
        endedAt: new Date().toISOString(),
        root,
        platform,
        arch: process.arch,
        cpus: os.availableParallelism?.() ?? os.cpus().length,
        loadavgStart: run.loadavg,
        loadavgEnd: os.loadavg(),
        nodeVersion: process.version,
        vitestVersion: vitest.version,
        git: { commit: git?.commit ?? null, dirty: git?.dirty ?? null },
        shard,
        ci: readCiContext(process.env, shard),
        merged,
        watch,
        exitReason: reason,
        vitestExitCode,
        exitCode: currentExitCode(),
      },
      config,
    );
    const out: string[] = [];
    const err: string[] = [];
    let written: string | null = null;
    try {
      written = writeRunRecord(root, this.places().records, record);
      out.push(`flakeguard: run record ${toRelative(root, written)}`);
    } catch (error) {
      err.push(
        `flakeguard: could not write the run record under ${this.places().recordsShown}: ${(error as Error).message}`,
      );
    }
    if (historyError !== null) err.push(`flakeguard: warning: history unavailable: ${String(historyError)}`);
    if (history) {
      const lines = await history.finish(record, written === null ? null : toRelative(root, written));
      out.push(...lines.out);
      err.push(...lines.err);
    }
    const github = writeGithubOutput(
      report,
      process.env,
      shard ? `flakeguard (shard ${shard.index}/${shard.count})` : 'flakeguard',
    );
    if (github?.summaryError) err.push(github.summaryError);
    const screen = detectScreen(process.stdout);
    // Each line holds text the project wrote (paths, store messages): one line each, no control characters.
    for (const line of err) vitest.logger.error(escapeTerminal(line));
    if (github?.annotations) vitest.logger.log(github.annotations.trimEnd());
    vitest.logger.log(
      [
        '',
        ...out.map(escapeTerminal),
        formatBudgetReport(report, { paint: (style, text) => paint(screen, style, text) }).trimEnd(),
      ].join('\n'),
    );
  }

  private async allowances(input: Parameters<typeof loadReporterAllowances>[0]): Promise<ReporterAllowances> {
    try {
      return await loadReporterAllowances(input);
    } catch (error) {
      const message = isFlakeguardError(error)
        ? error.message
        : `allowances could not be loaded (a flakeguard bug): ${(error as Error).stack ?? String(error)}`;
      const notice: RecordedNotice = { level: 'error', message };
      return { allowances: new Map(), quarantine: new Map(), notices: [notice] };
    }
  }
}
