/**
 * How many cold tries of each test file the next wave runs. Each try of a file is one fresh worker
 * running the file (its planned tests get one try each). Pure: tallies, costs and the clock in,
 * copies per file out.
 *
 * - First wave: every file `minTries` times (run side by side, as many at once as Vitest's workers).
 * - Then, for tests below `minTries` (a worker crashed), the missing tries, whatever the budget.
 * - Then extra tries while the phase's wall time is under `budgetMs`: files of tests that can still
 *   change verdict (not yet both passed and failed, fewer than `maxTries` tries), cheapest file first,
 *   one copy per file in turn, as many as the remaining budget is projected to pay for.
 * - With `warm`, the extra tries are warm repeats instead (core/gate/warm-schedule.ts): one worker
 *   per file, each open test repeated in it as often as its own cost next to the file's allows.
 * - A test that did not run at all in a wave is not chased (it is not found or its file is broken).
 */
import { planWarmWave } from './warm-schedule.js';
import { tries, type WaveFile, type WaveInput, wantsMoreTries } from './wave-types.js';

export type { TryTally, WaveFile, WaveInput } from './wave-types.js';
export { wantsMoreTries } from './wave-types.js';

/** A file an earlier call did not measure costs this much, for planning (a warm worker is then not planned for it). */
const UNMEASURED_FILE_MS = 1000;

export function planWave(input: WaveInput): WaveFile[] {
  const files = [...new Set(input.tests.map((t) => t.fileKey))];
  if (input.wave === 0) {
    const { hints } = input;
    // One cold try then warm repeats, with the costs known: each worker's first run is the cold try.
    if (input.warm === true && hints !== undefined && (input.coldTries ?? input.minTries) <= 1)
      return planWarmWave(
        { ...input, meanMs: hints.meanMs, tally: new Map(input.tests.map((t) => [t.key, { passed: 0, failed: 0 }])) },
        (f) => hints.costMs.get(f) ?? UNMEASURED_FILE_MS,
      );
    return files.map((fileKey) => ({ fileKey, copies: input.coldTries ?? input.minTries }));
  }
  if (input.wave > input.maxTries) return [];
  const known = [...input.costMs.values()];
  const fallback = known.length > 0 ? Math.max(...known) : 1000;
  const cost = (f: string): number => input.costMs.get(f) ?? fallback;
  if (input.warm) return planWarmWave(input, cost);
  const missing = new Map<string, number>();
  const extra = new Map<string, number>();
  for (const t of input.tests) {
    const tally = input.tally.get(t.key);
    const n = tries(tally);
    if (n === 0 || !wantsMoreTries(tally, input.maxTries)) continue;
    if (n < input.minTries) missing.set(t.fileKey, Math.max(missing.get(t.fileKey) ?? 0, input.minTries - n));
    else extra.set(t.fileKey, Math.max(extra.get(t.fileKey) ?? 0, input.maxTries - n));
  }
  const plan = new Map<string, number>(missing);
  const slots = Math.max(1, input.parallel);
  let projectedMs = [...missing].reduce((sum, [f, copies]) => sum + cost(f) * copies, 0) / slots;
  const left = input.budgetMs - input.elapsedMs;
  const candidates = [...extra]
    .filter(([f]) => !missing.has(f))
    .sort((a, b) => cost(a[0]) - cost(b[0]) || (a[0] < b[0] ? -1 : 1));
  // One copy per file in turn, cheapest first, up to one wave's worth of slots per file.
  const perFile = Math.max(1, Math.round(slots));
  for (let round = 0; round < perFile; round += 1) {
    for (const [f, wanted] of candidates) {
      const have = plan.get(f) ?? 0;
      if (have >= wanted || have > round) continue;
      const next = projectedMs + cost(f) / slots;
      if (next > left) continue;
      projectedMs = next;
      plan.set(f, have + 1);
    }
  }
  return [...plan].map(([fileKey, copies]) => ({ fileKey, copies }));
}
