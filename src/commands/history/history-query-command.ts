/** `flakeguard history [--test] [--file] [--branch] [--since] [--json | --markdown <file>] [--html <file>]`. */

import path from 'node:path';
import { isoDayOf } from '../../core/calendar.js';
import { type CiPlatformSpeed, formatCiSpeedReport, toCiSpeedJson } from '../../core/calibration/ci-speed-report.js';
import { parseAge } from '../../core/history/history-age.js';
import { formatHistoryMarkdown, formatHistoryReport } from '../../core/history/history-format.js';
import { ownerFilterOf, withHistoryOwners } from '../../core/history/history-owners.js';
import { computeHistoryReport, toHistoryJson } from '../../core/history/history-report.js';
import { renderHistoryHtml } from '../../core/html/history-html.js';
import { DEFAULT_QUARANTINE_POLICY, formatQuarantineProposals } from '../../core/quarantine/quarantine-proposals.js';
import { escapeTerminal } from '../../core/untrusted-text.js';
import { formatUsage, type OptionTable } from '../../core/usage.js';
import { systemClock } from '../../io/clock.js';
import { loadConfig } from '../../io/config/config-file.js';
import { writeFileAtomic } from '../../io/files/atomic-write.js';
import { writeHtmlReport } from '../../io/files/html-file.js';
import { displayPath, writeReportFile } from '../../io/files/input-file.js';
import { readHistoryInput } from '../../io/history/history-query.js';
import { readProjectOwners, requireCodeownersFor } from '../../io/owners/codeowners-file.js';
import { printProposedTimeouts, readCiSpeeds } from './history-ci-speed.js';
import { parsePolicy, proposalBranch, readQuarantineProposals, writeQuarantineProposals } from './history-proposals.js';

/** A quarantine written from history's proposals ends after this many days unless renewed. */
const PROPOSED_QUARANTINE_DAYS = 30;

import {
  HISTORY_DOCS,
  HISTORY_EXIT,
  HISTORY_SUMMARY,
  historyUsage,
  openPlaceStore,
  parseHistoryArgs,
  resolveHistoryPlace,
  STORE_OPTIONS,
} from './history-place.js';

export const HISTORY_QUERY_OPTIONS: OptionTable = {
  test: { type: 'string', value: '<name>', help: 'only tests whose full name contains <name>' },
  file: { type: 'string', value: '<path>', help: 'only the tests of a test file, or of a folder of them' },
  branch: { type: 'string', value: '<b>', help: 'only the runs of one branch' },
  owner: {
    type: 'string',
    value: '<team>',
    help: 'only the tests whose file this owner owns in CODEOWNERS (@org/team, @user or an e-mail)',
  },
  since: { type: 'string', value: '<age>', help: 'runs started since 30d (default), 12w or a day (2026-11-01)' },
  top: {
    type: 'string',
    value: '<n>',
    help: 'tests in each list of the default view: the flakiest and the nearest to their limit (default 10)',
  },
  json: { type: 'boolean', help: 'print the report as JSON (docs/history.md has the schema)' },
  markdown: { type: 'string', value: '<file>', help: 'write the report as a Markdown table' },
  html: {
    type: 'string',
    value: '<file>',
    help: "write the history page: each test's durations over its runs against its limit",
  },
  'quarantine-above': {
    type: 'string',
    value: '<percent>',
    help: 'propose quarantine for a test flaky on the default branch at least this often at 95% confidence (default 5%)',
  },
  'release-after': {
    type: 'string',
    value: '<n>',
    help: 'propose releasing a quarantined test that passed its last <n> runs there (default 20)',
  },
  write: {
    type: 'boolean',
    help: 'write the proposals into the allowance files (a quarantine proposed from history expires in 30 days)',
  },
  'propose-timeouts': {
    type: 'boolean',
    help: "print per-CI-platform budgets and Vitest testTimeout from each platform's speed relative to this machine, as config text to review (nothing is written)",
  },
  ...STORE_OPTIONS,
};

interface QueryFlags {
  readonly test?: string;
  readonly file?: string;
  readonly branch?: string;
  readonly owner?: string;
  readonly since?: string;
  readonly top?: string;
  readonly json?: boolean;
  readonly markdown?: string;
  readonly html?: string;
  readonly 'quarantine-above'?: string;
  readonly 'release-after'?: string;
  readonly write?: boolean;
  readonly 'propose-timeouts'?: boolean;
  readonly root?: string;
  readonly url?: string;
  readonly help?: boolean;
}

const USAGE = formatUsage({
  synopsis: [
    'flakeguard history [options]',
    'flakeguard history ingest <run record or folder>... [options]',
    'flakeguard history prune --keep 90d [options]',
  ],
  summary: HISTORY_SUMMARY,
  options: HISTORY_QUERY_OPTIONS,
  exit: HISTORY_EXIT,
  docs: HISTORY_DOCS,
});

export async function runHistoryQuery(args: string[]): Promise<number> {
  const flags = parseHistoryArgs(args, HISTORY_QUERY_OPTIONS).values as QueryFlags;
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (flags.json && flags.markdown !== undefined) throw historyUsage('--json and --markdown are exclusive');
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
    test: flags.test ?? null,
    file: flags.file ?? null,
    top: Number(top),
    warnAt: config.budget.warnAt,
  };
  const filter = { cutoffMs: age.cutoffMs, branch: query.branch, test: query.test, file: query.file };
  const store = await openPlaceStore(place, true);
  let input: Awaited<ReturnType<typeof readHistoryInput>>;
  let proposals: Awaited<ReturnType<typeof readQuarantineProposals>>;
  let ciSpeeds: CiPlatformSpeed[];
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
  } finally {
    await store.close();
  }
  if (flags['propose-timeouts']) return printProposedTimeouts(ciSpeeds, config);
  const report = withHistoryOwners(computeHistoryReport(input), owners.ownersOf);
  if (flags.write) await writeProposals(place.root, config, proposals);
  printHistoryQuery(report, proposals, flags, ciSpeeds);
  return 0;
}

function printHistoryQuery(
  report: ReturnType<typeof withHistoryOwners>,
  proposals: Awaited<ReturnType<typeof readQuarantineProposals>>,
  flags: QueryFlags,
  ciSpeeds: readonly CiPlatformSpeed[],
): void {
  process.stdout.write(
    flags.json
      ? `${JSON.stringify({ ...(toHistoryJson(report) as object), ciSpeed: toCiSpeedJson(ciSpeeds), proposals }, null, 2)}\n`
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
  if (!age.ok) throw historyUsage(`--since ${age.message}`);
  if (!/^\d{1,5}$/.test(top) || Number(top) < 1 || Number(top) > 10_000)
    throw historyUsage(`--top "${top}" must be a whole number from 1 to 10000`);
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
