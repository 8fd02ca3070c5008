/**
 * `flakeguard gate`'s argument table: parsed and checked before anything runs (exit 2 with the bad
 * value and the fix).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseDuration } from '../../core/duration.js';
import { FlakeguardError } from '../../core/errors.js';
import { parseGateShard, type GateShard } from '../../core/gate/gate-shard.js';
import { defaultWorkerCount } from '../../io/load/load-workers.js';
import type { VitestSetup } from '../../io/vitest/vitest-setup.js';

export const DEFAULT_MAX_RUNS = 10;
export const DEFAULT_TIME_BUDGET = '2m';

export const HELP = `flakeguard gate [--base <ref>] [--runs 5] [--max-runs ${DEFAULT_MAX_RUNS}] [--time-budget ${DEFAULT_TIME_BUDGET}]
                [--load auto|<workers>|0] [--budget <duration>] [--affected]
                [--config <file>] [--project <name>]... [--json] [--markdown <file>] [--html <file>]
                [--write-allowances] [--root <dir>] [--shard <i>/<n>]
flakeguard gate --merge <shard report.json>... [--json] [--markdown <file>] [--html <file>]

Runs every test added or changed since the merge base of <ref> (default: the default branch,
origin/HEAD) as CI runs it: each try a fresh Vitest worker running the test's file, under
synthetic CPU load; each new test once alone; fails on any test that is not stable: flaky,
failing, order-dependent, over or near its duration budget.
  --runs <n>          cold tries every test gets (default 5)
  --max-runs <n>      tries a test may get while the time budget lasts (default ${DEFAULT_MAX_RUNS}; a test
                      stops as soon as it has both passed and failed)
  --time-budget <d>   wall time the loaded tries may take, extra tries included (default ${DEFAULT_TIME_BUDGET};
                      the --runs tries always run)
  --load auto         one busy worker per CPU (default); <n> workers; 0 for no load
  --budget <d>        the per-test budget instead of budget.test in flakeguard.yaml
  --affected          also every test in a file that imports a changed module (directly or not)
  --config <file>     the Vitest config to use (as vitest --config)
  --project <name>    only this Vitest project (repeatable, as vitest --project)
  --write-allowances  write the proposed allowances for near/over-budget tests
  --shard i/n         run only the i-th of n parts of the selection (every test in exactly one part)
  --merge f...        combine the --json reports of every shard into one verdict
  --html <file>       also write a self-contained HTML page with a chart of every test's tries
Exit: 0 all stable (or nothing to run), 1 a test is not stable, 2 could not run, 130 interrupted.
Docs: docs/gate.md`;

export interface GateArgs {
  readonly base: string | undefined;
  readonly runs: number;
  readonly maxRuns: number;
  readonly timeBudgetMs: number;
  readonly workers: number;
  readonly budgetMs: number | null;
  readonly affected: boolean;
  readonly setup: VitestSetup;
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

function wholeNumber(name: string, text: string, min: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > 1000) throw usage(`${name} "${text}" must be a whole number from ${min} to 1000`);
  return n;
}

function duration(name: string, text: string): number {
  const parsed = parseDuration(text);
  if (!parsed.ok) throw usage(`${name} ${parsed.message}`);
  return parsed.ms;
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
        'max-runs': { type: 'string' },
        'time-budget': { type: 'string', default: DEFAULT_TIME_BUDGET },
        load: { type: 'string', default: 'auto' },
        budget: { type: 'string' },
        affected: { type: 'boolean', default: false },
        config: { type: 'string' },
        project: { type: 'string', multiple: true },
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
  const runs = wholeNumber('--runs', values.runs, 1);
  const maxRuns = values['max-runs'] === undefined ? Math.max(runs, DEFAULT_MAX_RUNS) : wholeNumber('--max-runs', values['max-runs'], 1);
  if (maxRuns < runs) throw usage(`--max-runs ${maxRuns} is below --runs ${runs}; --runs is the minimum, --max-runs the most`);
  const load = values.load.trim();
  const workers = load === 'auto' ? defaultWorkerCount() : Number(load);
  if (!Number.isInteger(workers) || workers < 0 || workers > 256) throw usage(`--load "${values.load}" must be auto, 0 (no load) or a number of workers`);
  const root = path.resolve(values.root ?? process.cwd());
  const config = values.config === undefined ? null : path.resolve(values.config);
  if (config !== null && !existsSync(config)) throw usage(`--config "${values.config}" does not exist (resolved to ${config}); pass the Vitest config file, e.g. --config vitest.config.ts`);
  return {
    base: values.base,
    runs,
    maxRuns,
    timeBudgetMs: duration('--time-budget', values['time-budget']),
    workers,
    budgetMs: values.budget === undefined ? null : duration('--budget', values.budget),
    affected: values.affected,
    setup: { config, projects: values.project ?? [] },
    json: values.json,
    markdown: values.markdown ?? null,
    writeAllowances: values['write-allowances'],
    root,
    html: values.html ?? null,
    shard: values.shard === undefined ? null : parseGateShard(values.shard),
    merge,
  };
}
