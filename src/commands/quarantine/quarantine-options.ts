/**
 * `flakeguard quarantine`'s options, written once: parseArgs and --help both read this table
 * (core/usage.ts); a test checks that README.md and docs/quarantine.md name each option.
 */
import type { OptionTable, UsageText } from '../../core/usage.js';

export const QUARANTINE_OPTIONS = {
  file: { type: 'string', value: '<test file>', help: 'add: the test file, relative to the current folder' },
  test: { type: 'string', value: '"<full name>"', help: 'add: the full name, titles joined with " > "' },
  reason: {
    type: 'string',
    value: '"<text>"',
    help: 'add: why the test is quarantined and who owns the fix (required)',
  },
  expires: { type: 'string', value: 'YYYY-MM-DD', help: 'add: the last day the quarantine applies (a UTC day)' },
  link: { type: 'string', value: '<ticket URL>', help: 'add: the ticket that tracks the fix' },
  id: { type: 'string', value: '<id>', help: 'remove: the id of the quarantine (quarantine list shows it)' },
  owner: {
    type: 'string',
    value: '<team>',
    help: 'list: only the quarantines this owner owns (recorded from CODEOWNERS by add)',
  },
  json: { type: 'boolean', help: 'list: print JSON' },
  help: { type: 'boolean', short: 'h', help: 'this text' },
} as const satisfies OptionTable;

type OptionName = keyof typeof QUARANTINE_OPTIONS;

export const QUARANTINE_SUBCOMMANDS: Readonly<Record<string, readonly OptionName[]>> = {
  add: ['file', 'test', 'reason', 'expires', 'link'],
  list: ['owner', 'json'],
  check: [],
  remove: ['id'],
};

export const QUARANTINE_USAGE: UsageText & { readonly options: typeof QUARANTINE_OPTIONS } = {
  synopsis: [
    'flakeguard quarantine add --file <test file> --test "<full name>" --reason "<text>" [--expires YYYY-MM-DD] [--link <ticket URL>]',
    'flakeguard quarantine list [--owner <team>] [--json]',
    'flakeguard quarantine check',
    'flakeguard quarantine remove --id <id>',
  ],
  summary:
    "A quarantined test still runs, but while its quarantine applies its failure does not fail the run. The quarantine is part of the test's entry in allowances/<test file>.yaml and follows the test across renames and moves like an allowance. check fails on orphaned and expired quarantines.",
  options: QUARANTINE_OPTIONS,
  exit: '0 done, 1 check found problems, 2 could not run (usage, config)',
  docs: 'docs/quarantine.md',
};
