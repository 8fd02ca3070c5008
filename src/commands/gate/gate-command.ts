/**
 * `flakeguard gate`: runs the tests a change adds or edits several times under CPU load before
 * merge and fails (exit 1) on any test that is not stable. Exit 2 when it could not run, 130 when
 * interrupted. Results to stdout (table, or --json), progress and diagnostics to stderr.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../../core/config.js';
import { parseDuration } from '../../core/duration.js';
import { FlakeguardError, interruptedError } from '../../core/errors.js';
import { systemClock } from '../../io/clock.js';
import { listenForInterrupt } from '../../io/process/interrupt.js';
import { computeGateReport, type GateReport } from '../../core/gate/gate-report.js';
import { mergeGateReports, parseGateShard, pickGateShard, type GateShard } from '../../core/gate/gate-shard.js';
import { renderGateHtml } from '../../core/html/html-gate.js';
import { writeFileAtomic } from '../../io/files/atomic-write.js';
import { loadConfig } from '../../io/files/config-file.js';
import { readGateReport } from '../../io/files/gate-report-file.js';
import { writeHtmlReport } from '../../io/files/html-file.js';
import { resolveBaseRevision } from '../../io/git/git.js';
import { defaultWorkerCount } from '../../io/load/load-workers.js';
import { formatGateMarkdown, formatGateText } from './gate-format.js';
import { createGateProgress } from './gate-progress.js';
import { prepareLimits } from './gate-limits.js';
import { buildProposals } from './gate-proposals.js';
import { runGate } from './gate-run.js';
import { selectGateTests } from './gate-select.js';
import { detectScreen } from '../../io/terminal.js';

const HELP = `flakeguard gate [--base <ref>] [--runs 5] [--load auto|<workers>|0] [--budget <duration>]
                [--json] [--markdown <file>] [--html <file>] [--write-allowances] [--root <dir>]
                [--shard <i>/<n>]
flakeguard gate --merge <shard report.json>... [--json] [--markdown <file>] [--html <file>]

Runs every test added or changed since the merge base of <ref> (default: the default branch,
origin/HEAD) --runs times under synthetic CPU load, each new test once alone, and fails on any
test that is not stable: flaky, failing, order-dependent, over or near its duration budget.
  --load auto     one busy worker per CPU (default); <n> workers; 0 for no load
  --budget <d>    the per-test budget instead of budget.test in flakeguard.yaml
  --write-allowances  write the proposed allowances for near/over-budget tests
  --shard i/n     run only the i-th of n parts of the selection (every test in exactly one part)
  --merge f...    combine the --json reports of every shard into one verdict
  --html <file>   also write a self-contained HTML page with a chart of every test's tries
Exit: 0 all stable (or nothing to run), 1 a test is not stable, 2 could not run, 130 interrupted.
Docs: docs/gate.md`;

interface GateArgs {
  readonly base: string | undefined;
  readonly runs: number;
  readonly workers: number;
  readonly budgetMs: number | null;
  readonly json: boolean;
  readonly markdown: string | null;
  readonly writeAllowances: boolean;
  readonly root: string;
  readonly html: string | null;
  readonly shard: GateShard | null;
  readonly merge: readonly string[] | null;
}

function usage(message: string): FlakeguardError {
  return new FlakeguardError('USAGE', `${message}; see flakeguard gate --help`);
}

export function parseGateArgs(args: string[]): GateArgs | 'help' {
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        base: { type: 'string' },
        html: { type: 'string' },
        shard: { type: 'string' },
        merge: { type: 'string', multiple: true },
        runs: { type: 'string', default: '5' },
        load: { type: 'string', default: 'auto' },
        budget: { type: 'string' },
        json: { type: 'boolean', default: false },
        markdown: { type: 'string' },
        'write-allowances': { type: 'boolean', default: false },
        root: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    throw usage((error as Error).message);
  }
  if (values.help) return 'help';
  const merge = values.merge ? [...values.merge, ...positionals] : null;
  if (merge === null && positionals.length > 0) throw usage(`unexpected argument "${positionals[0]}"`);
  if (merge !== null && values.shard !== undefined) throw usage('--merge combines shard reports; it does not take --shard');
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1 || runs > 1000) throw usage(`--runs "${values.runs}" must be a whole number from 1 to 1000`);
  const load = values.load.trim();
  const workers = load === 'auto' ? defaultWorkerCount() : Number(load);
  if (!Number.isInteger(workers) || workers < 0 || workers > 256) throw usage(`--load "${values.load}" must be auto, 0 (no load) or a number of workers`);
  let budgetMs: number | null = null;
  if (values.budget !== undefined) {
    const parsed = parseDuration(values.budget);
    if (!parsed.ok) throw usage(`--budget ${parsed.message}`);
    budgetMs = parsed.ms;
  }
  return {
    base: values.base,
    runs,
    workers,
    budgetMs,
    json: values.json,
    markdown: values.markdown ?? null,
    writeAllowances: values['write-allowances'],
    root: path.resolve(values.root ?? process.cwd()),
    html: values.html ?? null,
    shard: values.shard === undefined ? null : parseGateShard(values.shard),
    merge,
  };
}

export async function runGateCommand(args: string[]): Promise<number> {
  const parsed = parseGateArgs(args);
  if (parsed === 'help') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (parsed.merge !== null) {
    const reports = parsed.merge.map((f) => readGateReport(path.resolve(f)));
    return emitReport(mergeGateReports(reports, parsed.merge), parsed, `merged ${reports.length} shard reports`);
  }
  const started = performance.now();
  const loaded = loadConfig(parsed.root);
  const root = loaded.file ? loaded.root : parsed.root;
  const config: Config = parsed.budgetMs === null ? loaded.config : { ...loaded.config, budget: { ...loaded.config.budget, test: { kind: 'single', value: parsed.budgetMs } } };

  const base = await resolveBaseRevision(root, parsed.base);
  const whole = await selectGateTests(root, base.sha);
  const selection = parsed.shard === null ? whole : { ...whole, selected: pickGateShard(whole.selected, (s) => [s.test.file, s.test.fullName], parsed.shard) };
  if (parsed.shard !== null) {
    process.stderr.write(`flakeguard gate: shard ${parsed.shard.index}/${parsed.shard.count}: ${selection.selected.length} of ${whole.selected.length} selected tests\n`);
  }
  const progress = createGateProgress(detectScreen(process.stderr), selection.selected.length, parsed.workers);
  const step = (text: string): void => progress.step(text);
  step(`${selection.selected.length} new or changed test${selection.selected.length === 1 ? '' : 's'} in ${selection.changedFiles} changed test file${selection.changedFiles === 1 ? '' : 's'} since ${base.ref} (${base.sha.slice(0, 10)})`);

  const interrupt = listenForInterrupt();
  try {
    const platform = process.platform;
    const limits = await prepareLimits({ root, config, platform, tests: selection.selected.map((s) => s.test), today: systemClock.today() });
    for (const w of limits.warnings) step(`warning: ${w}`);
    const run =
      selection.selected.length === 0
        ? null
        : await runGate({
            root,
            config,
            platform,
            selected: selection.selected,
            runs: parsed.runs,
            workers: parsed.workers,
            signal: interrupt.signal,
            limitFor: limits.limitFor,
            onStep: step,
            onProgress: (phase, line, index) => progress.tryDone(phase, line, index),
          });
    progress.stop();
    const tests = run?.tests ?? [];
    const proposals = buildProposals({ root, config, platform, tests, selected: selection.selected, workers: run ? parsed.workers : 0, write: parsed.writeAllowances });
    const report: GateReport = computeGateReport({
      base: base.sha,
      baseRef: base.ref,
      runs: parsed.runs,
      platform,
      warnAt: config.budget.warnAt,
      vitestVersion: run?.vitestVersion ?? null,
      load: run?.load ?? { workers: 0, pids: [], cpus: defaultWorkerCount(), loadavgBefore: null, loadavgAfter: null, workersMachineShare: null, testsCpuShare: null },
      tests,
      notRun: selection.notRun.map((n) => ({ file: n.test.file, name: n.test.fullName, line: n.test.line, reason: n.reason })),
      unchanged: selection.unchanged,
      proposals: await proposals,
      notices: [...selection.notices, ...limits.notices, ...(run?.notices ?? [])],
      wallMs: performance.now() - started,
      shard: parsed.shard,
    });
    const nothing = selection.selected.length === 0 ? `no new or changed tests since ${base.ref} (${base.sha.slice(0, 10)})${parsed.shard ? ` in shard ${parsed.shard.index}/${parsed.shard.count}` : ''}; nothing to run` : null;
    return emitReport(report, parsed, nothing);
  } catch (error) {
    if (interrupt.signal.aborted) throw interruptedError('the test runs and the load were');
    throw error;
  } finally {
    progress.stop();
    interrupt.dispose();
  }
}

/** Prints the report (table or --json) and writes --markdown and --html; returns the exit code. */
function emitReport(report: GateReport, parsed: GateArgs, headline: string | null): number {
  if (parsed.markdown !== null) writeFileAtomic(path.resolve(parsed.markdown), formatGateMarkdown(report));
  if (parsed.html !== null) writeHtmlReport(parsed.html, renderGateHtml(report, { warnAt: report.warnAt }));
  if (parsed.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (report.tests.length === 0 && headline !== null) process.stdout.write(`flakeguard gate: ${headline}\n`);
  else process.stdout.write(formatGateText(report, detectScreen(process.stdout)));
  return report.verdict === 'pass' ? 0 : 1;
}
