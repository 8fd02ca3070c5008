/**
 * `flakeguard triage`: sorts every failure of a red run into infrastructure, escape, flake or
 * budget, with evidence and an action. Gathers inputs (src/io/files/triage-inputs.ts), optionally
 * re-runs the failures in the checkout, computes (src/core/triage/triage.ts) and prints.
 * Exit codes: 0 the run was green, 1 findings were classified, 2 the inputs could not be read.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseDuration } from '../../core/duration.js';
import { FlakeguardError } from '../../core/errors.js';
import { listenForInterrupt } from '../../io/process/interrupt.js';
import { resolvePlatformValue } from '../../core/platform-value.js';
import { computeTriage } from '../../core/triage/triage.js';
import { formatTriage, formatTriageMarkdown, toTriageJson } from '../../core/triage/triage-format.js';
import type { TriageBudget } from '../../core/triage/triage-budget.js';
import { mergeSignatures } from '../../core/triage/triage-signatures.js';
import type { RerunTarget } from '../../core/triage/triage-types.js';
import { renderTriageHtml } from '../../core/html/html-triage.js';
import { writeFileAtomic } from '../../io/files/atomic-write.js';
import { loadConfig } from '../../io/files/config-file.js';
import { writeHtmlReport } from '../../io/files/html-file.js';
import { listRunRecords } from '../../io/files/run-record-file.js';
import { gatherTriageInputs } from '../../io/files/triage-inputs.js';
import { detectScreen, paint } from '../../io/terminal.js';
import { testKey } from '../../core/test-id.js';

const HELP = `flakeguard triage: sort every failure of a red run into infrastructure, escape, flake or budget

Usage:
  flakeguard triage [--record <run record>]... [--report <vitest json>]... [--junit <xml>]...
                    [--log <ci log>] [--exit-code <n>] [--root <project dir>]
                    [--budget <duration>] [--file-budget <duration>] [--rerun <n>]
                    [--json | --markdown <file>] [--html <file>]

Inputs are what the run left; several reports or records (shards) are one run. Without any input,
the newest run record under the records folder is read. --rerun <n> re-runs each failure n times
in --root with the project's Vitest (escape: every re-run failed; flake: some passed); without it,
escape vs flake is inferred and the finding says so. --html writes a self-contained page with the
classes and their evidence (docs/html-report.md). See docs/triage.md.
Exit codes: 0 the run was green, 1 findings were classified, 2 the inputs could not be read.`;

function usage(message: string): FlakeguardError {
  return new FlakeguardError('USAGE', `${message}; see flakeguard triage --help`);
}

function durationFlag(name: string, value: string | undefined): number | null {
  if (value === undefined) return null;
  const parsed = parseDuration(value);
  if (!parsed.ok) throw usage(`--${name} ${parsed.message}`);
  return parsed.ms;
}

function intFlag(name: string, value: string | undefined, min: number): number | null {
  if (value === undefined) return null;
  if (!/^\d+$/.test(value) || Number(value) < min) throw usage(`--${name} "${value}" must be a whole number of at least ${min}`);
  return Number(value);
}

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: false,
      options: {
        record: { type: 'string', multiple: true },
        report: { type: 'string', multiple: true },
        junit: { type: 'string', multiple: true },
        log: { type: 'string', multiple: true },
        'exit-code': { type: 'string' },
        root: { type: 'string' },
        budget: { type: 'string' },
        'file-budget': { type: 'string' },
        rerun: { type: 'string' },
        json: { type: 'boolean' },
        markdown: { type: 'string' },
        html: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    throw usage((error as Error).message);
  }
}

export async function runTriageCommand(args: string[]): Promise<number> {
  const flags = parse(args);
  if (flags.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (flags.json && flags.markdown !== undefined) throw usage('--json and --markdown are exclusive');
  const start = path.resolve(flags.root ?? process.cwd());
  const loaded = loadConfig(start);
  const root = flags.root !== undefined ? start : loaded.root;
  const signatures = mergeSignatures(loaded.config.triage.patterns);
  const testFlag = durationFlag('budget', flags.budget);
  const fileFlag = durationFlag('file-budget', flags['file-budget']);
  const fromConfig = loaded.file !== null;
  const configTest = fromConfig ? (resolvePlatformValue(loaded.config.budget.test, process.platform)?.value ?? null) : null;
  const configFile = fromConfig && loaded.config.budget.file ? (resolvePlatformValue(loaded.config.budget.file, process.platform)?.value ?? null) : null;
  const budget: TriageBudget = {
    testMs: testFlag ?? configTest,
    fileMs: fileFlag ?? configFile,
    source: testFlag !== null || fileFlag !== null ? 'the --budget/--file-budget flags' : `flakeguard.yaml budget (${process.platform})`,
  };
  const resolveAll = (list: string[] | undefined): string[] => (list ?? []).map((f) => path.resolve(f));
  let records = resolveAll(flags.record);
  const reports = resolveAll(flags.report);
  const junit = resolveAll(flags.junit);
  const logs = resolveAll(flags.log);
  if (records.length + reports.length + junit.length + logs.length === 0) {
    const newest = listRunRecords(root, loaded.config.records).at(-1);
    if (newest === undefined) throw usage(`no inputs: pass --record, --report, --junit or --log (no run record under ${loaded.config.records}/ either)`);
    records = [newest];
  }
  const rerunCount = intFlag('rerun', flags.rerun, 1) ?? 0;
  const sources = { root, records, reports, junit, logs, exitCode: intFlag('exit-code', flags['exit-code'], 0), budget, rerunCount };
  const inputs = await gatherTriageInputs(sources, signatures);
  let report = computeTriage(inputs, signatures);
  if (rerunCount > 0) {
    const targets = new Map<string, RerunTarget>();
    for (const f of report.findings) if (f.rerunTarget) targets.set(testKey(f.rerunTarget.file, f.rerunTarget.name), f.rerunTarget);
    if (targets.size > 0) {
      const interrupt = listenForInterrupt();
      try {
        // Loaded only for --rerun: it brings execa and the gate's Vitest driver.
        const { rerunFailures } = await import('../../io/vitest/triage-rerun.js');
        const reruns = await rerunFailures({ root, targets: [...targets.values()], runs: rerunCount, signal: interrupt.signal, onProgress: (t) => process.stderr.write(`flakeguard: ${t}\n`) });
        report = computeTriage({ ...inputs, reruns }, signatures);
      } finally {
        interrupt.dispose();
      }
    }
  }
  if (flags.json) process.stdout.write(`${JSON.stringify(toTriageJson(report))}\n`);
  else {
    const screen = detectScreen();
    process.stdout.write(formatTriage(report, (style, text) => paint(screen, style, text)));
    if (flags.markdown !== undefined) writeFileAtomic(path.resolve(flags.markdown), formatTriageMarkdown(report));
  }
  if (flags.html !== undefined) writeHtmlReport(flags.html, renderTriageHtml(toTriageJson(report)));
  return report.verdict === 'green' ? 0 : 1;
}
