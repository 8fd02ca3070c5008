/**
 * `flakeguard allowances`'s options, written once: parseArgs takes its options from this table and
 * --help its text (core/usage.ts); SUBCOMMAND_OPTIONS says which subcommand takes which option, and
 * a test checks that README.md and docs/allowances.md name each one.
 */
import type { OptionTable, UsageText } from '../../core/usage.js';

export const ALLOWANCES_OPTIONS = {
  file: { type: 'string', value: '<test file>', help: 'add: the test file, relative to the current folder' },
  test: {
    type: 'string',
    value: '"<full name>"',
    help: 'add: the full name, titles joined with " > " (--test=-x for a name starting with -)',
  },
  budget: { type: 'string', value: '<duration>', help: 'add: the limit, e.g. 250ms, 5s, 1.5s, 2m' },
  platform: { type: 'string', value: '<p>', help: 'add: the limit applies on this process.platform only (or default)' },
  reason: { type: 'string', value: '"<text>"', help: 'add: why the test may take longer (required)' },
  expires: { type: 'string', value: 'YYYY-MM-DD', help: 'add: the last day the allowance applies' },
  replace: {
    type: 'boolean',
    help: "add: the test already has an allowance: set this budget and reason in it (--platform sets that platform's limit only; id, comments and the rest stay)",
  },
  json: { type: 'boolean', help: 'list: print JSON (docs/allowances.md)' },
  'dry-run': { type: 'boolean', help: 'prune, migrate: say what would change, write nothing' },
  help: { type: 'boolean', short: 'h', help: 'this text' },
} as const satisfies OptionTable;

type OptionName = keyof typeof ALLOWANCES_OPTIONS;

export const SUBCOMMAND_OPTIONS: Readonly<Record<string, readonly OptionName[]>> = {
  add: ['file', 'test', 'budget', 'platform', 'reason', 'expires', 'replace'],
  list: ['json'],
  check: [],
  prune: ['dry-run'],
  migrate: ['dry-run'],
};

export const ALLOWANCES_USAGE: UsageText & { readonly options: typeof ALLOWANCES_OPTIONS } = {
  synopsis: [
    'flakeguard allowances add --file <test file> --test "<full name>" --budget <duration> [--platform <p>] --reason "<text>" [--expires YYYY-MM-DD] [--replace]',
    'flakeguard allowances list [--json]',
    'flakeguard allowances check',
    'flakeguard allowances prune [--dry-run]',
    'flakeguard allowances migrate [--dry-run]',
  ],
  summary:
    "Allowances live in allowances/<test file>.yaml next to the config. add records one (with the test body's fingerprint and the commit), or with --replace sets a new budget in the one the test has; list shows each with the test it applies to now; check reports orphans, expired, ambiguous and invalid entries; prune removes orphans; migrate records the current name, file and commit of followed tests.",
  options: ALLOWANCES_OPTIONS,
  exit: '0 done, 1 check found problems, 2 could not run (usage, config)',
  docs: 'docs/allowances.md',
};
