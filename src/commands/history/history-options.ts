/**
 * `flakeguard history`'s options and help, written once: parseArgs and --help both read these
 * tables (core/usage.ts, commands/command-args.ts); a test checks that README.md and
 * docs/history.md name each option.
 */
import type { OptionTable, UsageText } from '../../core/usage.js';
import { HISTORY_URL_ENV } from '../../io/history/history-store.js';

/** The command that usage errors point at (`; see flakeguard history --help`). */
export const HISTORY_COMMAND = 'flakeguard history';

/** Options every history command takes: where the project and the store are. */
const STORE_OPTIONS = {
  root: {
    type: 'string',
    value: '<dir>',
    help: 'the project root (default: the folder of flakeguard.yaml above the current folder)',
  },
  url: {
    type: 'string',
    value: '<postgres url>',
    help: `a PostgreSQL store; overrides ${HISTORY_URL_ENV} and flakeguard.yaml`,
  },
  help: { type: 'boolean', short: 'h', help: 'this text' },
} as const satisfies OptionTable;

const HISTORY_SUMMARY = `flakeguard history: flake and duration history of every test. The store: history: true in
flakeguard.yaml (embedded, under the records folder), history: { url: postgres://... } or
${HISTORY_URL_ENV} (PostgreSQL, shared by every CI job); --url overrides both.
Subcommands: flakeguard history ingest <run record or folder>... ; flakeguard history prune --keep 90d.`;

const HISTORY_EXIT = '0 done, 2 could not run (usage, config, store unreachable or written by a newer flakeguard)';
const HISTORY_DOCS = 'docs/history.md';

export const HISTORY_QUERY_OPTIONS = {
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
} as const satisfies OptionTable;

export const HISTORY_QUERY_USAGE: UsageText & { readonly options: typeof HISTORY_QUERY_OPTIONS } = {
  synopsis: [
    'flakeguard history [options]',
    'flakeguard history ingest <run record or folder>... [options]',
    'flakeguard history prune --keep 90d [options]',
  ],
  summary: HISTORY_SUMMARY,
  options: HISTORY_QUERY_OPTIONS,
  exit: HISTORY_EXIT,
  docs: HISTORY_DOCS,
};

export const HISTORY_INGEST_OPTIONS = {
  branch: {
    type: 'string',
    value: '<b>',
    help: 'the branch the runs were on (default: CI variables, else the branch checked out)',
  },
  job: { type: 'string', value: '<id>', help: 'the CI job that ran them (default: CI variables)' },
  ...STORE_OPTIONS,
} as const satisfies OptionTable;

export const HISTORY_INGEST_USAGE: UsageText & { readonly options: typeof HISTORY_INGEST_OPTIONS } = {
  synopsis: ['flakeguard history ingest <run record or folder>... [options]'],
  summary:
    'Loads run records (CI artifacts; folders are searched at any depth for *.json) into the history store. Every file is checked first; a record already stored is not stored again.',
  options: HISTORY_INGEST_OPTIONS,
  exit: HISTORY_EXIT,
  docs: HISTORY_DOCS,
};

export const HISTORY_PRUNE_OPTIONS = {
  keep: {
    type: 'string',
    value: '<age>',
    help: 'keep the runs started in the last 90d (12w, or since a day: 2026-01-01); delete the older ones',
  },
  'dry-run': { type: 'boolean', help: 'count what would be deleted, delete nothing' },
  ...STORE_OPTIONS,
} as const satisfies OptionTable;

export const HISTORY_PRUNE_USAGE: UsageText & { readonly options: typeof HISTORY_PRUNE_OPTIONS } = {
  synopsis: ['flakeguard history prune --keep 90d [options]'],
  summary: 'Retention: deletes the runs older than --keep (with their results) and the tests left without a run.',
  options: HISTORY_PRUNE_OPTIONS,
  exit: HISTORY_EXIT,
  docs: HISTORY_DOCS,
};
