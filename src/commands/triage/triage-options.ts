/**
 * `flakeguard triage`'s options, written once: parseArgs takes its options from this table and
 * --help its text (core/usage.ts); a test checks that README.md and docs/triage.md name each one.
 */
import type { OptionTable, UsageText } from '../../core/usage.js';

export const TRIAGE_OPTIONS = {
  record: {
    type: 'string',
    multiple: true,
    value: '<run record>',
    help: "flakeguard's run record (.flakeguard/runs/*.json); one per shard",
  },
  report: {
    type: 'string',
    multiple: true,
    value: '<vitest json>',
    help: "Vitest's JSON report (--reporter=json --outputFile=<file>); one per shard",
  },
  junit: { type: 'string', multiple: true, value: '<xml>', help: "Vitest's JUnit XML" },
  log: { type: 'string', multiple: true, value: '<ci log>', help: 'the whole CI log of the job (streamed)' },
  'exit-code': { type: 'string', value: '<n>', help: "the job's exit code (else the records')" },
  root: {
    type: 'string',
    value: '<project dir>',
    help: 'the checkout: paths are mapped onto it, allowances and budgets read from it, re-runs run in it',
  },
  budget: {
    type: 'string',
    value: '<duration>',
    help: 'test budget for inputs without the reporter (an allowance in the checkout still applies)',
  },
  'file-budget': { type: 'string', value: '<duration>', help: 'file budget for inputs without the reporter' },
  rerun: {
    type: 'string',
    value: '<n>',
    help: "re-run each failure n times with the project's own Vitest: escape when every re-run fails, flake otherwise",
  },
  config: {
    type: 'string',
    value: '<vitest config>',
    help: 'with --rerun: the Vitest config the job ran with, passed to every re-run',
  },
  project: {
    type: 'string',
    multiple: true,
    value: '<name>',
    help: 'with --rerun: a Vitest project to run, passed to every re-run as Vitest takes it',
  },
  history: {
    type: 'boolean',
    help: 'ask the history store about each failed or slow test even when flakeguard.yaml does not turn history on (the embedded store under the records folder, or FLAKEGUARD_HISTORY_URL)',
  },
  'no-history': { type: 'boolean', help: 'do not ask the history store, even when one is configured' },
  branch: {
    type: 'string',
    value: '<name>',
    help: "the branch whose history counts (default: the checkout's default branch, as the gate finds it)",
  },
  owner: {
    type: 'string',
    value: '<team>',
    help: 'only the findings about test files this owner owns in CODEOWNERS (@org/team, @user or an e-mail)',
  },
  json: { type: 'boolean', help: 'print the findings as one JSON line (docs/triage.md "Output")' },
  markdown: {
    type: 'string',
    value: '<file>',
    help: 'also write the findings as a pull-request comment: a hidden marker line, the verdict and what to do first, long lists folded, under 65,536 characters',
  },
  html: { type: 'string', value: '<file>', help: 'write a self-contained HTML page of the findings' },
  help: { type: 'boolean', short: 'h', help: 'this text' },
} as const satisfies OptionTable;

export const TRIAGE_USAGE: UsageText & { readonly options: typeof TRIAGE_OPTIONS } = {
  synopsis: [
    'flakeguard triage [--record <run record>]... [--report <vitest json>]... [--junit <xml>]...',
    '                  [--log <ci log>] [--exit-code <n>] [--root <project dir>]',
    '                  [--budget <duration>] [--file-budget <duration>]',
    '                  [--rerun <n> [--config <vitest config>] [--project <name>]...]',
    '                  [--history | --no-history] [--branch <name>] [--owner <team>]',
    '                  [--json | --markdown <file>] [--html <file>]',
  ],
  summary:
    'Sorts every failure of a red run into infrastructure, escape, flake or budget, with its evidence and an action. Inputs are what the run left; several records or reports (shards) are one run. Without any input, the newest run record under the records folder is read. Without --rerun, escape vs flake is inferred and the finding says so, unless the history store (when configured) measured that the test failed and then passed before on the default branch.',
  options: TRIAGE_OPTIONS,
  exit: '0 the run was green (an input showed it), 1 findings were classified, 2 the inputs could not be read or show no run (a missing file, a directory, a JSON that is not a Vitest report), 130 interrupted (every re-run process is stopped first)',
  docs: 'docs/triage.md',
};
