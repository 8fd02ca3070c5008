/**
 * The replay a gate verdict shows (issue 46 item 2): the `flakeguard replay` command under the
 * conditions the gate's replay row chose (core/gate/replay-choice.ts) and what its tries saw:
 * `reproduced` "k/n" once the row ran it, null when it did not (the deadline cut it): an unchecked
 * replay is never shown as a checked one. A replay that did not fail again says which condition it
 * could not make. Pure (only the state of each try is read, so core/replay stays below core/gate).
 */
import { describeConditions, type ReplayConditions, replayCommand } from './replay-command.js';

export interface GateReplay {
  readonly command: string;
  /** The conditions in words ("seed 1234"). */
  readonly conditions: string;
  /** "k/n": k of the n tries the gate ran it failed; null: not run. */
  readonly reproduced: string | null;
  /**
   * When it ran and not every try failed: the condition of the failed tries it could not make
   * (prefixed "not every replay failed (k/n)" when some did); null when every try failed or it did not run.
   */
  readonly uncontrolled?: string | null;
}

export interface GateReplayInput {
  readonly file: string;
  readonly fullName: string;
  readonly project: string;
  readonly seed: number | null;
  /** The gate seeded node:crypto too (--seed-node-crypto): a seeded replay says so. */
  readonly nodeCrypto?: boolean;
  /** The slowdown asked (1: none). */
  readonly factor: number;
  readonly cold: boolean;
  /** It fails without the earlier tests of its file: the conditions say it runs alone. */
  readonly alone: boolean;
  /** What the replay cannot make, said when it did not fail again. */
  readonly uncontrolled: string;
}

/** The replay of a verdict, with its tries (null or none: not run). */
export function computeGateReplay(
  input: GateReplayInput,
  tries: readonly { readonly state: string }[] | null,
): GateReplay {
  const conditions: ReplayConditions = {
    file: input.file,
    fullName: input.fullName,
    project: input.project,
    seed: input.seed,
    nodeCrypto: input.seed !== null && input.nodeCrypto === true,
    slowdown: input.factor > 1 ? input.factor : null,
    after: null,
    cold: input.cold,
    times: null,
  };
  const words = input.alone ? 'alone, without the earlier tests of its file' : describeConditions(conditions);
  const base = { command: replayCommand(conditions), conditions: words };
  if (tries === null || tries.length === 0) return { ...base, reproduced: null, uncontrolled: null };
  const failed = tries.filter((t) => t.state === 'failed' || t.state === 'hung').length;
  const reproduced = `${failed}/${tries.length}`;
  const uncontrolled =
    failed === tries.length
      ? null
      : failed === 0
        ? input.uncontrolled
        : `not every replay failed (${reproduced}): ${input.uncontrolled}`;
  return { ...base, reproduced, uncontrolled };
}

const failedNone = (r: GateReplay): boolean => r.reproduced !== null && r.reproduced.startsWith('0/');

/** How the replay went, as every report says it beside the command: "reproduced 5/5", "did not fail again, 0/5", "not yet run". */
export function describeReplayOutcome(r: GateReplay): string {
  if (r.reproduced === null) return 'not yet run';
  return failedNone(r) ? `did not fail again, ${r.reproduced}` : `reproduced ${r.reproduced}`;
}
