/**
 * The flakeguard Vitest reporter: `reporters: ['default', 'flakeguard/reporter']`.
 * It gathers each finished test and file, lets the core check them against their duration limits,
 * prints the result after Vitest's summary, writes the run record and, outside watch mode, sets
 * exit code 1 when a budget is exceeded (only in onTestRunEnd, never lowering Vitest's code).
 */

import os from 'node:os';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { formatBudgetReport } from '../core/budget/budget-format.js';
import type { BudgetReport } from '../core/budget/budget-report.js';
import { buildRunRecord, type RunFacts } from '../core/budget/run-record-build.js';
import { type Config, DEFAULT_CONFIG } from '../core/config.js';
import { isFlakeguardError } from '../core/errors.js';
import type { RecordedNotice } from '../core/record/run-record.js';
import { escapeTerminal } from '../core/untrusted-text.js';
import { loadConfig } from '../io/config/config-file.js';
import type { GitState } from '../io/git/git-state.js';
import type { HistorySession } from '../io/history/reporter-history.js';
import { type ProjectPlaces, resolveProjectPlaces } from '../io/places/project-places.js';
import { detectScreen, paint } from '../io/terminal.js';
import { testFilesOf } from '../io/vitest/running-test-files.js';
import { loadReporterAllowances, type ReporterAllowances, type ReporterAllowancesInput } from './allowance-seam.js';
import { writeGithubOutput } from './github-output.js';
import { toRelative } from './observe.js';
import { describeRunFacts, type RecordLines, writeRecordOfRun } from './run-record-end.js';
import { addRecentFailures, gatherRunReport } from './run-report.js';
import { checkRunSeedEnv, missingSeedLine, provideRunSeed, recordedRunSeed } from './run-seed.js';
import { toStartupError } from './startup-error.js';

/** Environment variable that redirects run records to another folder (io/places/project-places.ts resolves it). */
export { RECORDS_ENV } from '../io/places/project-places.js';

interface RunStart {
  readonly startedAt: Date;
  readonly loadavg: readonly number[];
  readonly git: Promise<GitState | null>;
  /** Opened at the start when history is on (io/history, imported only then). */
  readonly history: Promise<HistorySession | null>;
  /** The run's seed the workers were given (`seed: true`), else null. */
  readonly runSeed: number | null;
}

/**
 * Exit code 1 when flakeguard failed the run and Vitest did not; outside watch mode only. The one
 * case flakeguard lowers Vitest's code: every failure was a test under an applying quarantine
 * (docs/quarantine.md). Vitest sets no exit code after onTestRunEnd.
 */
function setExitCode(report: BudgetReport, watch: boolean, vitestExitCode: number | null): void {
  if (report.verdict.failedByFlakeguard && !watch && !vitestExitCode) process.exitCode = 1;
  else if (report.verdict.excusedByQuarantine && !watch && vitestExitCode === 1) process.exitCode = 0;
}

/** GitHub Actions output when there, then problems on stderr, the record's lines and the report on stdout. */
function printRunEnd(vitest: Vitest, report: BudgetReport, lines: RecordLines, shard: RunFacts['shard']): void {
  const { out } = lines;
  const err = [...lines.err];
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
  /** The missing setup file is said once per process (watch mode re-runs). */
  private seedLineSaid = false;

  constructor(_options: Record<string, unknown> = {}) {}

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    try {
      const loaded = loadConfig(vitest.config.root);
      this.config = loaded.config;
      this.root = loaded.root;
      checkRunSeedEnv(loaded.config);
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
    const runSeed = this.vitest && this.config ? provideRunSeed(this.vitest, this.config, this.root) : null;
    return { startedAt: new Date(), loadavg: os.loadavg(), git, history: this.startHistory(), runSeed };
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
    const testFiles = () => testFilesOf(vitest, root);
    const loadAllowances = (input: ReporterAllowancesInput) => this.allowances(input);
    const input = { root, config, platform, testModules, unhandledErrors, reason, vitestExitCode };
    let report = await gatherRunReport({ ...input, testFiles, loadAllowances });
    let historyError: unknown = null;
    const history = await run.history.catch((error: unknown) => {
      historyError = error;
      return null;
    });
    report = await addRecentFailures(report, history);
    setExitCode(report, vitest.config.watch, vitestExitCode);

    const shard = vitest.config.shard ? { index: vitest.config.shard.index, count: vitest.config.shard.count } : null;
    const git = await run.git;
    const facts = describeRunFacts({
      vitest,
      root,
      platform,
      startedAt: run.startedAt,
      loadavgStart: run.loadavg,
      git,
      shard,
      reason,
      vitestExitCode,
      exitCode: currentExitCode(),
      runSeed: recordedRunSeed(config, report.tests, run.runSeed),
      seedNodeCrypto: config.seedNodeCrypto === true,
    });
    const record = buildRunRecord(report, facts, config);
    const lines = await writeRecordOfRun(root, this.places(), record, history, historyError);
    const seedLine = this.seedLineSaid ? null : missingSeedLine(config, report.tests);
    if (seedLine !== null) this.seedLineSaid = true;
    printRunEnd(vitest, report, seedLine === null ? lines : { ...lines, err: [...lines.err, seedLine] }, shard);
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
