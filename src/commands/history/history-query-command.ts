/** `flakeguard history [--test] [--file] [--branch] [--since] [--json | --markdown <file>] [--html <file>]`. */

import path from 'node:path';
import { isoDayOf } from '../../core/calendar.js';
import { type CiPlatformSpeed, formatCiSpeedReport, toCiSpeedJson } from '../../core/calibration/ci-speed-report.js';
import { parseAge } from '../../core/history/history-age.js';
import { formatHistoryMarkdown, formatHistoryReport } from '../../core/history/history-format.js';
import { withTestMachines } from '../../core/history/history-machines.js';
import { ownerFilterOf, withHistoryOwners } from '../../core/history/history-owners.js';
import { computeHistoryReport } from '../../core/history/history-report.js';
import { toHistoryQueryJson } from '../../core/history-output.js';
import { renderHistoryHtml } from '../../core/html/history-html.js';
import {
  DEFAULT_QUARANTINE_POLICY,
  formatQuarantineProposals,
  toQuarantineProposalsJson,
} from '../../core/quarantine/quarantine-proposals.js';
import { testKey } from '../../core/test-id.js';
import { escapeTerminal } from '../../core/untrusted-text.js';
import { systemClock } from '../../io/clock.js';
import { loadConfig } from '../../io/config/config-file.js';
import { writeFileAtomic } from '../../io/files/atomic-write.js';
import { writeHtmlReport } from '../../io/files/html-file.js';
import { displayPath, writeReportFile } from '../../io/files/input-file.js';
import { readTestMachines } from '../../io/history/history-machines-query.js';
import { readHistoryInput } from '../../io/history/history-query.js';
import { readProjectOwners, requireCodeownersFor } from '../../io/owners/codeowners-file.js';
import { printProposedTimeouts, readCiSpeeds } from './history-ci-speed.js';
import { parsePolicy, proposalBranch, readQuarantineProposals, writeQuarantineProposals } from './history-proposals.js';

/** A quarantine written from history's proposals ends after this many days unless renewed. */
const PROPOSED_QUARANTINE_DAYS = 30;

import { commandUsageError, type ParsedValues, parseCommandArgs } from '../command-args.js';
import { HISTORY_COMMAND, HISTORY_QUERY_USAGE } from './history-options.js';
import { openPlaceStore, resolveHistoryPlace } from './history-place.js';

type QueryFlags = ParsedValues<typeof HISTORY_QUERY_USAGE.options>;

export async function runHistoryQuery(args: string[]): Promise<number> {
  const parsed = parseCommandArgs(HISTORY_COMMAND, HISTORY_QUERY_USAGE, args);
  if (parsed === 'help') return 0;
  const flags = parsed.values;
  if (flags.json && flags.markdown !== undefined)
    throw commandUsageError(HISTORY_COMMAND, '--json and --markdown are exclusive');
  const { age, top } = parseQueryWindow(flags);
  const policy = parsePolicy(flags['quarantine-above'], flags['release-after'], DEFAULT_QUARANTINE_POLICY);
  const place = resolveHistoryPlace(flags);
  const config = loadConfig(place.root).config;
  const owners = readProjectOwners(place.root);
  requireCodeownersFor(flags.owner, owners, 'flakeguard history');
  const branch = await proposalBranch(place.root, flags.branch ?? null);
  const query = {
    since: age.since,
    branch: flags.branch ?? null,
    fullNamePart: flags.test ?? null,
    file: flags.file ?? null,
    top: Number(top),
    warnAt: config.budget.warnAt,
  };
  const filter = { cutoffMs: age.cutoffMs, branch: query.branch, fullNamePart: query.fullNamePart, file: query.file };
  const store = await openPlaceStore(place, true);
  let input: Awaited<ReturnType<typeof readHistoryInput>>;
  let proposals: Awaited<ReturnType<typeof readQuarantineProposals>>;
  let ciSpeeds: CiPlatformSpeed[];
  let report: ReturnType<typeof withHistoryOwners>;
  try {
    ciSpeeds = await readCiSpeeds(store, age.cutoffMs);
    input = await readHistoryInput(store, filter, query, ownerFilterOf(flags.owner, owners.ownersOf));
    proposals = await readQuarantineProposals({
      store,
      root: place.root,
      config,
      branch,
      policy,
      filter,
      query,
      queried: input,
    });
    report = await withMachines(store, filter, input, withHistoryOwners(computeHistoryReport(input), owners.ownersOf));
  } finally {
    await store.close();
  }
  if (flags['propose-timeouts']) return printProposedTimeouts(ciSpeeds, config);
  if (flags.write) await writeProposals(place.root, config, proposals);
  printHistoryQuery(report, proposals, flags, ciSpeeds);
  return 0;
}

/** The listed tests with the machines they ran on (read for them only). */
async function withMachines<R extends ReturnType<typeof withHistoryOwners>>(
  store: Parameters<typeof readTestMachines>[0],
  filter: Parameters<typeof readTestMachines>[1],
  input: Awaited<ReturnType<typeof readHistoryInput>>,
  report: R,
): Promise<R> {
  const listed = new Set(report.tests.map(testKey));
  const machines = await readTestMachines(
    store,
    filter,
    input.tests.filter((t) => listed.has(testKey(t))),
  );
  return { ...report, tests: withTestMachines(report.tests, machines) };
}

function printHistoryQuery(
  report: ReturnType<typeof withHistoryOwners>,
  proposals: Awaited<ReturnType<typeof readQuarantineProposals>>,
  flags: QueryFlags,
  ciSpeeds: readonly CiPlatformSpeed[],
): void {
  process.stdout.write(
    flags.json
      ? `${JSON.stringify(toHistoryQueryJson(report, toCiSpeedJson(ciSpeeds), toQuarantineProposalsJson(proposals)), null, 2)}\n`
      : formatHistoryReport(report) +
          formatCiSpeedReport(ciSpeeds) +
          formatQuarantineProposals(proposals, flags.write === true),
  );
  // stdout first: a --markdown/--html path that cannot be written (exit 2) still leaves the report.
  const { markdown, html } = flags;
  if (markdown !== undefined)
    writeReportFile('--markdown', markdown, () =>
      writeFileAtomic(path.resolve(markdown), formatHistoryMarkdown(report)),
    );
  if (html !== undefined) {
    writeReportFile('--html', html, () => writeHtmlReport(html, renderHistoryHtml(report)));
    process.stderr.write(`flakeguard: history page ${displayPath(html)}\n`);
  }
}

/** --since (default 30d) and --top (default 10), checked in that order. */
function parseQueryWindow(flags: QueryFlags): { age: Extract<ReturnType<typeof parseAge>, { ok: true }>; top: string } {
  const since = flags.since ?? '30d';
  const top = flags.top ?? '10';
  const age = parseAge(since, systemClock.now());
  if (!age.ok) throw commandUsageError(HISTORY_COMMAND, `--since ${age.message}`);
  if (!/^\d{1,5}$/.test(top) || Number(top) < 1 || Number(top) > 10_000)
    throw commandUsageError(HISTORY_COMMAND, `--top "${top}" must be a whole number from 1 to 10000`);
  return { age, top };
}

/** --write: the proposals into the quarantine files (expiring after PROPOSED_QUARANTINE_DAYS), each change named on stderr. */
async function writeProposals(
  root: string,
  config: Parameters<typeof writeQuarantineProposals>[1],
  proposals: Awaited<ReturnType<typeof readQuarantineProposals>>,
): Promise<void> {
  const written = await writeQuarantineProposals(
    root,
    config,
    proposals,
    isoDayOf(systemClock.now() + PROPOSED_QUARANTINE_DAYS * 86_400_000),
  );
  for (const line of written) process.stderr.write(`flakeguard: ${escapeTerminal(line)}\n`);
}
