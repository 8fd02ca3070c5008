/**
 * The replay a gate verdict shows (issue 46 item 2, its first part): for a non-stable test whose
 * cause is random-or-concurrency, the `flakeguard replay` command with the seed of its first
 * failed seeded try. `reproduced` stays null: the gate has not run it (an unchecked replay is
 * never shown as a checked one). Pure.
 */
import type { CauseFinding } from '../cause/cause.js';
import { describeConditions, plainConditions, replayCommand } from './replay-command.js';

export interface GateReplay {
  readonly command: string;
  /** The conditions in words ("seed 1234"). */
  readonly conditions: string;
  /** "k/n" once the replay ran; null: not run. */
  readonly reproduced: string | null;
}

export function replayOfVerdict(t: {
  readonly file: string;
  readonly fullName: string;
  readonly project: string;
  readonly verdict: string;
  /** Its tries (core/gate/runner-protocol.ts GateTry: only the state and seed are read here, so core/replay stays below core/gate). */
  readonly tries: readonly { readonly state: string; readonly seed?: number }[];
  readonly cause?: CauseFinding | null;
}): GateReplay | null {
  if (t.verdict === 'stable' || t.cause?.class !== 'random-or-concurrency') return null;
  const seed = t.tries.find((x) => (x.state === 'failed' || x.state === 'hung') && x.seed !== undefined)?.seed;
  if (seed === undefined) return null;
  const conditions = { ...plainConditions(t), seed };
  return { command: replayCommand(conditions), conditions: describeConditions(conditions), reproduced: null };
}
