/**
 * The conditions a replay runs one test under, and the `flakeguard replay` command that runs them
 * (docs/replay.md): what the gate's replay row prints, triage's flake and escape findings print, and
 * `git bisect run` takes. Pure.
 */
import { shellQuote } from '../budget/budget-text.js';

/** How many tries `flakeguard replay` runs when --times is not given. */
const DEFAULT_REPLAY_TIMES = 10;

export interface ReplayConditions {
  /** Relative to the project root, with `/`. */
  readonly file: string;
  /** Titles joined with ' > ' (the test's full name, matched exactly: no pattern). */
  readonly fullName: string;
  /** The Vitest project ('' or null: the only one, or the first that includes the file). */
  readonly project: string | null;
  /** The seed every try starts its random source with (a try's recorded seed), or null: a new one per try. */
  readonly seed: number | null;
  /** node:crypto's randomBytes, randomInt and randomUUID seeded too (`--seed-node-crypto`). */
  readonly nodeCrypto: boolean;
  /** The slowdown factor the tries are paced to (null or 1: none). */
  readonly slowdown: number | null;
  /** The full name of an earlier test of the same file that runs before it in the same worker, or null: it runs alone. */
  readonly after: string | null;
  /** Each try in a fresh worker (a cold start), one at a time; else one worker, the tries as repeats. */
  readonly cold: boolean;
  /** Tries; null: DEFAULT_REPLAY_TIMES. */
  readonly times: number | null;
}

/** The conditions of a plain replay of a test: its own tries, alone, warm, a new seed each. */
export function plainConditions(test: Pick<ReplayConditions, 'file' | 'fullName' | 'project'>): ReplayConditions {
  return { ...test, seed: null, nodeCrypto: false, slowdown: null, after: null, cold: false, times: null };
}

/**
 * `npx flakeguard replay <file> -t <full name> [--project P] [--seed S] [--seed-node-crypto] [--slowdown F] [--after <test>]
 * [--cold] [--times N]`, each value quoted for a POSIX shell (core/budget/budget-text.ts shellQuote:
 * a quote, `$`, a backtick or a line break in a name stays the name), only the conditions set.
 */
export function replayCommand(c: ReplayConditions): string {
  const parts = ['npx flakeguard replay', shellQuote(c.file), '-t', shellQuote(c.fullName)];
  if (c.project !== null && c.project !== '') parts.push('--project', shellQuote(c.project));
  if (c.seed !== null) parts.push('--seed', String(c.seed));
  if (c.nodeCrypto) parts.push('--seed-node-crypto');
  if (c.slowdown !== null && c.slowdown > 1) parts.push('--slowdown', String(c.slowdown));
  if (c.after !== null) parts.push('--after', shellQuote(c.after));
  if (c.cold) parts.push('--cold');
  if (c.times !== null && c.times !== DEFAULT_REPLAY_TIMES) parts.push('--times', String(c.times));
  return parts.join(' ');
}

/** The conditions in words, for a report line: "seed 1234, x3 slowdown, after "sets up", cold". */
export function describeConditions(c: ReplayConditions): string {
  const parts = [
    ...(c.seed === null ? [] : [`seed ${c.seed}${c.nodeCrypto ? ' (node:crypto too)' : ''}`]),
    ...(c.slowdown !== null && c.slowdown > 1 ? [`x${c.slowdown} slowdown`] : []),
    ...(c.after === null ? [] : [`after "${c.after}"`]),
    ...(c.cold ? ['a fresh worker per try'] : []),
  ];
  return parts.length === 0 ? 'no condition (a plain rerun)' : parts.join(', ');
}
