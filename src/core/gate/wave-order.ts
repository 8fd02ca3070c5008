/**
 * The order a wave's files start in (core/gate/try-schedule.ts plans them): the costliest first, so
 * the longest worker starts first and no worker waits on a slow file started last. Pure.
 */
import type { TryTally, WaveFile } from './wave-types.js';

/** What the waves so far measured: each file's cold cost, each test's tries and their summed time. */
export interface WaveCosts {
  readonly costMs: ReadonlyMap<string, number>;
  readonly tally: ReadonlyMap<string, TryTally>;
  readonly spentMs: ReadonlyMap<string, number>;
}

/**
 * A file's estimated wall time in this wave: its cold cost and its repeats at each test's mean try
 * so far; infinite for a file not yet measured (it goes first: nothing says it is cheap).
 */
export function waveFileEstimate(file: WaveFile, costs: WaveCosts): number {
  const cold = costs.costMs.get(file.fileKey);
  if (cold === undefined) return Number.POSITIVE_INFINITY;
  let repeats = 0;
  for (const [key, r] of file.repeats ?? []) {
    const t = costs.tally.get(key);
    const n = t ? t.passed + t.failed : 0;
    if (n > 0) repeats += (r * (costs.spentMs.get(key) ?? 0)) / n;
  }
  return cold + repeats;
}

/** The wave's files, costliest first; ties (the unmeasured ones among them) keep the plan's order. */
export function costliestFirst<F extends WaveFile>(wave: readonly F[], costs: WaveCosts): F[] {
  return wave
    .map((file, i) => ({ file, i, estimate: waveFileEstimate(file, costs) }))
    .sort((a, b) => (a.estimate === b.estimate ? a.i - b.i : b.estimate - a.estimate))
    .map((x) => x.file);
}
