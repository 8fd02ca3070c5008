/**
 * `flakeguard replay`'s argument table (docs/replay.md): parsed and checked before anything runs
 * (exit 2 with the bad value and the fix).
 */
import path from 'node:path';
import type { ReplayConditions } from '../../core/replay/replay-command.js';
import type { OptionTable, UsageText } from '../../core/usage.js';
import { commandUsageError, parseCommandArgs } from '../command-args.js';
import { parseConfigOption, parseSeedOption, parseSlowdownOption } from '../condition-args.js';

const REPLAY = 'flakeguard replay';
const MAX_TIMES = 1000;

const REPLAY_OPTIONS = {
  test: {
    type: 'string',
    short: 't',
    value: '<full name>',
    help: "the test's full name, its titles joined with ' > ' (matched exactly, not as a pattern)",
  },
  project: {
    type: 'string',
    value: '<name>',
    help: 'the Vitest project to run it in (default: the first that includes the file)',
  },
  seed: {
    type: 'string',
    value: '<n>',
    help: "every try's Math.random, crypto.getRandomValues and crypto.randomUUID start from this seed (0 to 4294967295; a gate try's seed); default: a new seed each try",
  },
  'seed-node-crypto': {
    type: 'boolean',
    help: "also seed node:crypto's randomBytes, randomInt and randomUUID (as a gate's --seed-node-crypto, or a CI run's seed: node-crypto)",
  },
  slowdown: {
    type: 'string',
    value: '<factor>',
    help: 'pace the worker to this slowdown (1 to 10; needs /proc, as on Linux)',
  },
  after: {
    type: 'string',
    value: '<full name>',
    help: 'an earlier test of the same file that runs before it in the same worker (the one that leaves the state)',
  },
  cold: {
    type: 'boolean',
    help: 'each try a fresh Vitest worker (a cold start); default: one worker, the tries as repeats',
  },
  times: { type: 'string', value: '<n>', help: 'how many tries (default 10)' },
  config: { type: 'string', value: '<file>', help: 'the Vitest config to use (as vitest --config)' },
  root: { type: 'string', value: '<dir>', help: 'the project folder (default: the current folder)' },
  help: { type: 'boolean', short: 'h', help: 'this text' },
} as const satisfies OptionTable;

export const REPLAY_USAGE: UsageText & { readonly options: typeof REPLAY_OPTIONS } = {
  synopsis: [
    'flakeguard replay <file> -t <full name> [--project P] [--seed S] [--seed-node-crypto] [--slowdown F] [--after <test>] [--cold] [--times N]',
  ],
  summary:
    'Runs one test under the conditions that made it fail (a seed, a slowdown, an earlier test before it, a fresh worker) --times times and prints each outcome: a flake you can watch fail again, and a command `git bisect run` can take.',
  options: REPLAY_OPTIONS,
  exit: '0 no try failed, 1 a try failed, 2 could not run (or a condition this machine cannot make), 130 interrupted.',
  docs: 'docs/replay.md',
};

export interface ReplayArgs {
  readonly root: string;
  readonly config: string | null;
  readonly conditions: ReplayConditions;
  /** --times, or 10. */
  readonly times: number;
}

export function parseReplayArgs(args: readonly string[]): ReplayArgs | 'help' {
  const parsed = parseCommandArgs(REPLAY, REPLAY_USAGE, args, true);
  if (parsed === 'help') return 'help';
  const { values, positionals } = parsed;
  const [file, ...extra] = positionals;
  if (file === undefined)
    throw commandUsageError(
      REPLAY,
      'name the test file, e.g. flakeguard replay test/draw.test.ts -t "draw > flips a coin"',
    );
  if (extra.length > 0)
    throw commandUsageError(REPLAY, `unexpected argument "${extra[0]}": replay takes one test file`);
  if (values.test === undefined || values.test.trim() === '')
    throw commandUsageError(REPLAY, `name the test with -t "<full name>" (its titles joined with ' > ')`);
  const times = values.times === undefined ? 10 : Number(values.times);
  if (!Number.isInteger(times) || times < 1 || times > MAX_TIMES)
    throw commandUsageError(
      REPLAY,
      `--times "${values.times}" must be a whole number from 1 to ${MAX_TIMES}, e.g. --times 10`,
    );
  const slowdown = parseSlowdownOption(REPLAY, values.slowdown, false) as number | null;
  if (values.after !== undefined && values.after === values.test)
    throw commandUsageError(REPLAY, `--after "${values.after}" is the test itself; name an earlier test of ${file}`);
  const root = path.resolve(values.root ?? process.cwd());
  return {
    root,
    config: parseConfigOption(REPLAY, values.config),
    times,
    conditions: {
      file: file.split(path.sep).join('/'),
      fullName: values.test,
      project: values.project ?? null,
      seed: parseSeedOption(REPLAY, values.seed, false),
      nodeCrypto: values['seed-node-crypto'] ?? false,
      slowdown,
      after: values.after ?? null,
      cold: values.cold ?? false,
      times: values.times === undefined ? null : times,
    },
  };
}
