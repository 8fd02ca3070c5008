/**
 * How a replay's tries are made (docs/replay.md `--cold`), for `flakeguard replay` and the gate's
 * replay row alike: cold, each try a fresh worker, one at a time; else one worker, its first try
 * then warm repeats (Vitest's `repeats`, the test's hooks around each). Pure.
 */
export const replayTriesOf = (
  cold: boolean,
  times: number,
): { readonly tries: number; readonly serial?: true; readonly repeats?: number } =>
  cold ? { tries: times, serial: true } : { tries: 1, repeats: times - 1 };
