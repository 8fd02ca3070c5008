/**
 * The warm waves of a call's reference tries (core/gate/try-schedule.ts planWave, after its cold
 * tries): a test that may still be a random flake (it has passed every try so far) and is cheap
 * next to its file's start gets warm repeats in one more worker of its file, as many as about
 * WARM_SHARE times the file's cold cost buys (the median open file's, when that is less), up to
 * maxTries in all; a test that costs about as
 * much as its file gets none (a warm try would cost nearly a cold one). Waves go on, cheapest file
 * first, while the budget is projected to pay for them. A call may start with fewer cold tries than
 * `minTries` (the tries without slowdown: one cold, the rest warm where the test is cheap). Pure.
 */
import { median } from 'simple-statistics';
import { type WaveFile, type WaveInput, wantsMoreTries } from './wave-types.js';

/** A warm worker spends about this many times its file's cold cost on repeats (its start is then a fifth of it). */
export const WARM_SHARE = 4;
/** Fewer repeats than this per worker are not worth one (the test costs too much next to its file). */
export const WARM_MIN_REPEATS = 10;
/** A try costs at least this much (the runner's own lines and reads), whatever the test. */
const TRY_FLOOR_MS = 1;

const triesOf = (input: WaveInput, key: string): number => {
  const t = input.tally.get(key);
  return t ? t.passed + t.failed : 0;
};

/** The warm repeats each open test of one file gets in one worker, and what that worker is projected to cost. */
function planFile(
  input: WaveInput,
  keys: readonly string[],
  costMs: number,
  spanMs: number,
): { repeats: Map<string, number>; projectedMs: number } {
  const repeats = new Map<string, number>();
  let projectedMs = costMs;
  for (const key of keys) {
    const ownMs = Math.max(TRY_FLOOR_MS, input.meanMs?.get(key) ?? costMs);
    const bought = Math.floor((WARM_SHARE * Math.min(costMs, spanMs)) / (keys.length * ownMs));
    const room = input.maxTries - triesOf(input, key) - 1;
    const r = Math.min(bought, room);
    if (bought < WARM_MIN_REPEATS || r < 1) continue;
    repeats.set(key, r);
    projectedMs += r * ownMs;
  }
  return { repeats, projectedMs };
}

/**
 * The next warm wave. A file whose tests all cost little gets one worker with their repeats; a file
 * with a test below `minTries` that is not cheap gets the cold copies it lacks, whatever the budget
 * (as planWave does); a cheap test below `minTries` gets its repeats whatever the budget too. The
 * rest, cheapest first, while the budget left is projected to pay for them.
 */
export function planWarmWave(input: WaveInput, cost: (fileKey: string) => number): WaveFile[] {
  const open = new Map<string, string[]>();
  for (const t of input.tests) {
    const tally = input.tally.get(t.key);
    if (tally === undefined || !wantsMoreTries(tally, input.maxTries)) continue;
    open.set(t.fileKey, [...(open.get(t.fileKey) ?? []), t.key]);
  }
  // A test that failed a try is no candidate for a random flake found by repeats (its check is the
  // tries without slowdown): it gets cold copies up to minTries, never repeats.
  const repeatable = (k: string): boolean => (input.tally.get(k)?.failed ?? 0) === 0;
  const slots = Math.max(1, input.parallel);
  const left = input.budgetMs - input.elapsedMs;
  const out: WaveFile[] = [];
  const optional: { fileKey: string; repeats: Map<string, number>; projectedMs: number }[] = [];
  let projected = 0;
  // A warm worker's repeats take about WARM_SHARE times the median open file's cold cost at most, not
  // its own file's: a file that sleeps 2 s would otherwise hold the wave for 10 s of repeats of its
  // 600 ms test while the other workers sit idle (the evidence branch's report.test.ts: 19 tries).
  const spanMs = open.size === 0 ? 0 : median([...open.keys()].map(cost));
  for (const [fileKey, keys] of open) {
    const f = planFile(input, keys.filter(repeatable), cost(fileKey), spanMs);
    const below = keys.filter((k) => triesOf(input, k) < input.minTries);
    const lacking = below.filter((k) => (f.repeats.get(k) ?? 0) < input.minTries - triesOf(input, k) - 1);
    if (lacking.length > 0) {
      const copies = Math.max(...lacking.map((k) => input.minTries - triesOf(input, k)));
      out.push({ fileKey, copies });
      projected += (cost(fileKey) * copies) / slots;
    } else if (below.length > 0) {
      out.push({ fileKey, copies: 1, repeats: f.repeats });
      projected += f.projectedMs / slots;
    } else if (f.repeats.size > 0) optional.push({ fileKey, ...f });
  }
  optional.sort((a, b) => a.projectedMs - b.projectedMs || (a.fileKey < b.fileKey ? -1 : 1));
  for (const f of shareBudget(optional, (left - projected) * slots, cost)) {
    const next = projected + f.projectedMs / slots;
    if (next > left) continue;
    projected = next;
    out.push({ fileKey: f.fileKey, copies: 1, repeats: f.repeats });
  }
  return out;
}

/**
 * When the budget left cannot pay a full warm worker for every file, each file's repeats shrink by
 * the same share (a worker's start is paid whole), so every cheap test gets its part of the tries
 * rather than some files all and others none; a file whose repeats fall below WARM_MIN_REPEATS
 * drops out of this wave.
 */
function shareBudget(
  files: readonly { fileKey: string; repeats: Map<string, number>; projectedMs: number }[],
  leftMs: number,
  cost: (fileKey: string) => number,
): { fileKey: string; repeats: Map<string, number>; projectedMs: number }[] {
  const total = files.reduce((s, f) => s + f.projectedMs, 0);
  if (total <= leftMs || files.length === 0) return [...files];
  const starts = files.reduce((s, f) => s + cost(f.fileKey), 0);
  const share = Math.max(0, (leftMs - starts) / (total - starts));
  return files.flatMap((f) => {
    const repeats = new Map([...f.repeats].map(([k, r]) => [k, Math.floor(r * share)] as const));
    const kept = new Map([...repeats].filter(([, r]) => r >= WARM_MIN_REPEATS));
    if (kept.size === 0) return [];
    const repeatMs = (f.projectedMs - cost(f.fileKey)) * share;
    return [{ fileKey: f.fileKey, repeats: kept, projectedMs: cost(f.fileKey) + repeatMs }];
  });
}

/** The warm waves may take this many times what `minTries` cold waves take, beyond the cold waves. */
const WARM_BUDGET_RATIO = 1.3;

/**
 * The cold tries of the reference call before its warm waves: all of `--tries`. Fewer (3, the rest
 * as warm repeats) saved two waves of every file, but a cold-start flake then stopped at its first
 * pass with too few cold failures to tell cold from warm (the evidence e2e's cold-start cause), so
 * a test's cold tries stay at `--tries` until the plan can keep a failed test's cold copies.
 */
export const REFERENCE_COLD_TRIES = 5;

/**
 * The wall time a call's waves may take in all, once its `coldTries` cold waves took `coldWallMs`:
 * the warm waves get WARM_BUDGET_RATIO times what `minTries` cold waves would have taken (so fewer
 * cold tries do not mean fewer warm ones); the call's own budget caps it.
 */
export function warmBudgetMs(budgetMs: number, coldWallMs: number, coldTries: number, minTries: number): number {
  const perWave = coldWallMs / Math.max(1, coldTries);
  return Math.min(budgetMs, coldWallMs + perWave * Math.max(minTries, coldTries) * WARM_BUDGET_RATIO);
}
