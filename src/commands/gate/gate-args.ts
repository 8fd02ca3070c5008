/**
 * `flakeguard gate`'s argument table: parsed and checked before anything runs (exit 2 with the bad
 * value and the fix).
 */
import path from 'node:path';
import { formatDuration, parseDuration } from '../../core/duration.js';
import { FlakeguardError } from '../../core/errors.js';
import { TIME_BUDGET_CAP_MS } from '../../core/gate/check-plan.js';
import { DEFAULT_SLOWDOWN } from '../../core/gate/gate-config.js';
import { type GateShard, parseGateShard } from '../../core/gate/gate-shard.js';
import type { OptionTable, UsageText } from '../../core/usage.js';
import { defaultWorkerCount } from '../../io/load/load-workers.js';
import type { VitestSetup } from '../../io/vitest/vitest-setup.js';
import { parseCommandArgs } from '../command-args.js';
import { parseConfigOption, parseSeedOption, parseSlowdownOption } from '../condition-args.js';

/** With no failure in 150 tries, a failure rate of 2% or more is ruled out at 95% confidence. */
export const DEFAULT_MAX_TRIES = 150;
export const DEFAULT_TIME_BUDGET = '2m';

export const GATE_OPTIONS = {
  base: {
    type: 'string',
    value: '<ref>',
    help: 'compare with the merge base of <ref> and HEAD (default: the default branch, origin/HEAD)',
  },
  tries: { type: 'string', value: '<n>', formerly: 'runs', help: 'cold tries every test gets (default 5)' },
  'max-tries': {
    type: 'string',
    value: '<n>',
    formerly: 'max-runs',
    help: `tries a test may get while the time budget lasts, its cold tries then warm repeats where it costs little next to its file (default ${DEFAULT_MAX_TRIES}; a test stops as soon as it has both passed and failed)`,
  },
  'time-budget': {
    type: 'string',
    value: '<duration>',
    help: `wall time the gate may take (default ${DEFAULT_TIME_BUDGET}, grown to cover the must-have checks up to ${formatDuration(TIME_BUDGET_CAP_MS)}; a check it cuts leaves its test inconclusive)`,
  },
  slowdown: {
    type: 'string',
    value: '<factor>|auto',
    help: `the slowdown the tries run at, the machine's own load included (default gate.slowdown in flakeguard.yaml, else ${DEFAULT_SLOWDOWN}: what a shared CI runner gives; 1 for none; auto: how much slower CI runs the suite than this machine, from history)`,
  },
  platform: {
    type: 'string',
    value: '<name>',
    help: 'with --slowdown auto: the CI platform to emulate, as history names it (linux, windows, macos, or the job); default the slowest',
  },
  load: {
    type: 'string',
    value: 'auto|<workers>|0',
    help: 'busy load workers besides the slowdown, for cache and memory contention: auto is one per CPU; 0 for none (default)',
  },
  budget: {
    type: 'string',
    value: '<duration>',
    help: 'the per-test budget instead of budget.test in flakeguard.yaml (250ms, 5s, 1.5s, 2m, 1h)',
  },
  affected: { type: 'boolean', help: 'also every test in a file that imports a changed module (directly or not)' },
  seed: {
    type: 'string',
    value: '<n>',
    help: "the run's seed, a whole number from 0 to 4294967295: each try's Math.random, crypto.getRandomValues and crypto.randomUUID draw from a seed derived from it, the test and the try's number (default: drawn at random; the report prints it, and each try's own seed, which flakeguard replay --seed replays)",
  },
  'seed-node-crypto': {
    type: 'boolean',
    help: "also seed node:crypto's randomBytes, randomInt and randomUUID in each try",
  },
  config: { type: 'string', value: '<file>', help: 'the Vitest config to use (as vitest --config)' },
  project: {
    type: 'string',
    multiple: true,
    value: '<name>',
    help: 'only this Vitest project (repeatable, as vitest --project)',
  },
  json: { type: 'boolean', help: 'print the report as JSON (docs/gate.md has the schema)' },
  markdown: {
    type: 'string',
    value: '<file>',
    help: 'also write the report as a pull-request comment: a hidden marker line, the verdict and the test to fix first, long lists folded, under 65,536 characters',
  },
  html: {
    type: 'string',
    value: '<file>',
    help: "also write a self-contained HTML page with a chart of every test's tries",
  },
  'write-allowances': {
    type: 'boolean',
    help: 'write the proposed allowances for near/over-budget tests, and record the new names and places of followed allowances',
  },
  root: { type: 'string', value: '<dir>', help: 'the project folder (default: the current folder)' },
  shard: {
    type: 'string',
    value: '<i>/<n>',
    help: 'run only the i-th of n parts of the selection (every test in exactly one part)',
  },
  merge: {
    type: 'string',
    multiple: true,
    value: '<shard report.json>',
    help: 'combine the --json reports of every shard into one verdict',
  },
  plan: {
    type: 'boolean',
    help: 'print what the gate would run as JSON and run nothing: the selection, each test\'s limit, the tries and the slowdown (docs/gate.md "Plan")',
  },
  help: { type: 'boolean', short: 'h', help: 'this text' },
} as const satisfies OptionTable;

export const GATE_USAGE: UsageText & { readonly options: typeof GATE_OPTIONS } = {
  synopsis: [
    'flakeguard gate [options]',
    'flakeguard gate --merge <shard report.json>... [--json] [--markdown <file>] [--html <file>]',
    'flakeguard gate --plan [--base <ref>] [--affected] [--shard <i>/<n>] [options]',
  ],
  summary:
    "Tries every test added or changed since the merge base of <ref> as CI runs it, several times: each try a fresh Vitest worker running the test's file, at a controlled slowdown (its process group stopped part of each 20 ms, the load already on the machine measured and counted), then at higher factors to find where it breaks; each new test's file once in reverse order, and the new tests that failed there once alone; fails on any test that is not stable: flaky, failing, order-dependent, over or near its duration budget.",
  options: GATE_OPTIONS,
  exit: '0 all stable (or nothing to run), 1 a test is not stable, 2 could not run, 130 interrupted.',
  docs: 'docs/gate.md',
};

export interface GateArgs {
  readonly base: string | undefined;
  readonly tries: number;
  readonly maxTries: number;
  readonly timeBudgetMs: number;
  /** --time-budget was given (kept as it is; the default grows to cover the must-have checks). */
  readonly timeBudgetGiven: boolean;
  readonly workers: number;
  /** --slowdown, or null for gate.slowdown from flakeguard.yaml. */
  readonly slowdown: number | 'auto' | null;
  /** --platform: the CI platform `auto` calibrates against, or null for the slowest. */
  readonly platform: string | null;
  readonly budgetMs: number | null;
  readonly affected: boolean;
  /** --seed, else drawn at random: the run's seed every try's derives from. */
  readonly seed: number;
  /** --seed-node-crypto: node:crypto's random functions seeded too. */
  readonly seedNodeCrypto: boolean;
  readonly setup: VitestSetup;
  readonly json: boolean;
  readonly markdown: string | null;
  readonly writeAllowances: boolean;
  readonly root: string;
  readonly html: string | null;
  readonly shard: GateShard | null;
  readonly merge: readonly string[] | null;
  /** --plan: print the selection and limits as JSON, run nothing. */
  readonly plan: boolean;
}

const GATE = 'flakeguard gate';

function usage(message: string): FlakeguardError {
  return new FlakeguardError('USAGE', `${message}; see flakeguard gate --help`);
}

function wholeNumber(name: string, text: string, min: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > 1000)
    throw usage(`${name} "${text}" must be a whole number from ${min} to 1000`);
  return n;
}

function duration(name: string, text: string): number {
  const parsed = parseDuration(text);
  if (!parsed.ok) throw usage(`${name} ${parsed.message}`);
  return parsed.ms;
}

export function parseGateArgs(args: string[]): GateArgs | 'help' {
  const parsed = parseCommandArgs('flakeguard gate', GATE_USAGE, args, true);
  if (parsed === 'help') return 'help';
  const { positionals } = parsed;
  const values = {
    ...parsed.values,
    tries: parsed.values.tries ?? '5',
    'time-budget': parsed.values['time-budget'] ?? DEFAULT_TIME_BUDGET,
    load: parsed.values.load ?? '0',
    affected: parsed.values.affected ?? false,
    json: parsed.values.json ?? false,
    'write-allowances': parsed.values['write-allowances'] ?? false,
    plan: parsed.values.plan ?? false,
  };
  const merge = values.merge ? [...values.merge, ...positionals] : null;
  if (merge === null && positionals.length > 0) throw usage(`unexpected argument "${positionals[0]}"`);
  if (merge !== null && values.shard !== undefined)
    throw usage('--merge combines shard reports; it does not take --shard');
  checkPlanAlone(values);
  const { tries, maxTries } = parseTryCounts(values.tries, values['max-tries']);
  const workers = parseLoad(values.load);
  const slowdown = parseSlowdownOption(GATE, values.slowdown, true);
  const root = path.resolve(values.root ?? process.cwd());
  const config = parseConfigOption(GATE, values.config);
  return {
    base: values.base,
    tries,
    maxTries,
    timeBudgetMs: duration('--time-budget', values['time-budget']),
    timeBudgetGiven: parsed.values['time-budget'] !== undefined,
    workers,
    slowdown,
    platform: values.platform ?? null,
    budgetMs: values.budget === undefined ? null : duration('--budget', values.budget),
    affected: values.affected,
    seed: parseSeedOption(GATE, values.seed, true),
    seedNodeCrypto: values['seed-node-crypto'] ?? false,
    setup: { config, projects: values.project ?? [] },
    json: values.json,
    markdown: values.markdown ?? null,
    writeAllowances: values['write-allowances'],
    root,
    html: values.html ?? null,
    shard: values.shard === undefined ? null : parseGateShard(values.shard),
    merge,
    plan: values.plan,
  };
}

/** --plan runs nothing, so it takes none of the options that write a report or combine reports. */
function checkPlanAlone(values: { readonly plan: boolean } & Readonly<Record<string, unknown>>): void {
  if (!values.plan) return;
  const clash = ['merge', 'markdown', 'html', 'write-allowances'].find(
    (k) => values[k] !== undefined && values[k] !== false,
  );
  if (clash !== undefined)
    throw usage(`--plan prints what the gate would run and runs nothing; it does not take --${clash}`);
}

/** --tries, the tries each test gets at least, and --max-tries, the most it may get. */
function parseTryCounts(triesText: string, maxTriesText: string | undefined): { tries: number; maxTries: number } {
  const tries = wholeNumber('--tries', triesText, 1);
  const maxTries =
    maxTriesText === undefined ? Math.max(tries, DEFAULT_MAX_TRIES) : wholeNumber('--max-tries', maxTriesText, 1);
  if (maxTries < tries)
    throw usage(`--max-tries ${maxTries} is below --tries ${tries}; --tries is the minimum, --max-tries the most`);
  return { tries, maxTries };
}

/** --load: the number of busy workers (auto: one per core). */
function parseLoad(text: string): number {
  const load = text.trim();
  const workers = load === 'auto' ? defaultWorkerCount() : Number(load);
  if (!Number.isInteger(workers) || workers < 0 || workers > 256)
    throw usage(`--load "${text}" must be auto, 0 (no load) or a number of workers`);
  return workers;
}
