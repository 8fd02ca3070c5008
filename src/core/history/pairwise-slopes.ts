/**
 * Order statistics of the pairwise slopes (y_j - y_i) / (x_j - x_i), i < j, x_i != x_j, without
 * keeping or sorting them all: Sen's slope and its interval are a few ranks near the median. As in
 * Floyd and Rivest's selection (CACM 18(3), 1975), two pivots are read from a sample of pairs so
 * that every rank asked lies between them with near certainty; one pass over the pairs counts the
 * slopes under the lower pivot and keeps those between the pivots; the ranks are selected among the
 * kept ones by counting into buckets (band-select.ts), or where the pivots do not bound a finite
 * range in one quickselect that descends only into the parts holding a rank asked. Exact
 * whatever the sample gives: when a rank falls outside the kept part, every slope is selected
 * instead. Pure (scratch buffers are reused between calls).
 */
import { selectInBand } from './band-select.js';

/** Below this many pairs (127 points) every slope is selected (the sample would not pay). */
const NARROW_FROM = 8000;
/**
 * Pairs sampled to place the pivots (1,000 of the 19,900 of 200 points): a rank's place in the
 * sample varies by at most 0.5 x sqrt(SAMPLE) = 16 sampled slopes (one standard deviation). More
 * samples narrow the kept part, which band-select.ts reads in linear time: 2,000 cost more to draw.
 */
const SAMPLE = 1000;
/** The pivots' distance from the asked ranks, in sampled slopes (4.4 standard deviations). */
const MARGIN = 70;

let scratch = new Float64Array(0);
const buffer = (size: number): Float64Array => {
  if (scratch.length < size) scratch = new Float64Array(size);
  return scratch;
};
const sampled = new Float64Array(SAMPLE);

/**
 * Each rank of `ranks[from..to]` (sorted, 0-based, less `offset`) moved to its place in a[lo..hi]:
 * one Hoare partition, then only the sides that hold a rank asked (about 3 x hi-lo moves in all,
 * where selecting the ranks one after another cost one pass over the rest for each).
 */
function selectAll(
  a: Float64Array,
  lo: number,
  hi: number,
  ranks: readonly number[],
  from: number,
  to: number,
  offset: number,
) {
  if (from > to || hi <= lo) return;
  const pivot = a[(lo + hi) >> 1]!;
  let i = lo;
  let j = hi;
  while (i <= j) {
    while (a[i]! < pivot) i += 1;
    while (a[j]! > pivot) j -= 1;
    if (i <= j) {
      const t = a[i]!;
      a[i] = a[j]!;
      a[j] = t;
      i += 1;
      j -= 1;
    }
  }
  // a[lo..j] <= pivot, a[j+1..i-1] == pivot, a[i..hi] >= pivot.
  let left = from;
  while (left <= to && ranks[left]! - offset <= j) left += 1;
  let right = to;
  while (right >= left && ranks[right]! - offset >= i) right -= 1;
  selectAll(a, lo, j, ranks, from, left - 1, offset);
  selectAll(a, i, hi, ranks, right + 1, to, offset);
}

/** The sorted ranks of a[0..count) (each 0-based rank less `offset`). -0 reads as 0. */
function selectRanks(a: Float64Array, count: number, ranks: readonly number[], offset: number): Map<number, number> {
  selectAll(a, 0, count - 1, ranks, 0, ranks.length - 1, offset);
  const found = new Map<number, number>();
  for (const k of ranks) {
    const v = a[k - offset]!;
    found.set(k, v === 0 ? 0 : v);
  }
  return found;
}

/**
 * Pairs with different x among n points: all pairs less those of each group of equal x (runs of
 * equal x when the xs are in order, as a series' are; counted in a map otherwise).
 */
function pairCount(xs: Float64Array): number {
  const n = xs.length;
  let tied = 0;
  let ordered = true;
  let run = 1;
  for (let i = 1; i < n && ordered; i += 1) {
    if (xs[i]! < xs[i - 1]!) ordered = false;
    else if (xs[i] === xs[i - 1]) run += 1;
    else {
      tied += (run * (run - 1)) / 2;
      run = 1;
    }
  }
  if (ordered) return (n * (n - 1)) / 2 - tied - (run * (run - 1)) / 2;
  const groups = new Map<number, number>();
  for (const x of xs) groups.set(x, (groups.get(x) ?? 0) + 1);
  tied = 0;
  for (const t of groups.values()) tied += (t * (t - 1)) / 2;
  return (n * (n - 1)) / 2 - tied;
}

/** Every slope, in a[0..count). */
function allSlopes(xs: Float64Array, ys: Float64Array, count: number): Float64Array {
  const a = buffer(count);
  let k = 0;
  for (let i = 0; i < xs.length; i += 1) {
    for (let j = i + 1; j < xs.length; j += 1) {
      const dx = xs[j]! - xs[i]!;
      if (dx !== 0) a[k++] = (ys[j]! - ys[i]!) / dx;
    }
  }
  return a;
}

/** The pivots around ranks lo..hi of `count` slopes, from a sample of pairs (a fixed sequence): two of its order statistics. */
function pivots(xs: Float64Array, ys: Float64Array, count: number, lo: number, hi: number) {
  const n = xs.length;
  let size = 0;
  let seed = 12345;
  for (let s = 0; size < SAMPLE && s < SAMPLE * 4; s += 1) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const i = Math.floor((seed / 4294967296) * n);
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const j = (i + 1 + Math.floor((seed / 4294967296) * (n - 1))) % n;
    const dx = xs[j]! - xs[i]!;
    if (dx !== 0) sampled[size++] = (ys[j]! - ys[i]!) / dx;
  }
  const low = Math.floor((lo / count) * size) - MARGIN;
  const high = Math.ceil((hi / count) * size) + MARGIN;
  const ends = [low, high].filter((k) => k >= 0 && k < size);
  const at = ends.length === 0 ? new Map<number, number>() : selectRanks(sampled, size, ends, 0);
  return {
    below: low < 0 ? Number.NEGATIVE_INFINITY : at.get(low)!,
    above: high >= size ? Number.POSITIVE_INFINITY : at.get(high)!,
  };
}

/**
 * The slopes between the pivots, and how many are under the lower one. Without equal x (a series'
 * runs), every slope is written and kept or not by arithmetic, not by a branch: the slopes near the
 * median fall either side of the pivots at random, which a branch predictor cannot learn.
 */
function between(xs: Float64Array, ys: Float64Array, count: number, below: number, above: number) {
  const part = buffer(count);
  const n = xs.length;
  let under = 0;
  let kept = 0;
  const distinct = count === (n * (n - 1)) / 2;
  for (let i = 0; i < n; i += 1) {
    const xi = xs[i]!;
    const yi = ys[i]!;
    for (let j = i + 1; j < n; j += 1) {
      const dx = xs[j]! - xi;
      if (distinct) {
        const v = (ys[j]! - yi) / dx;
        under += +(v < below);
        part[kept] = v;
        kept += +(v >= below) & +(v <= above);
      } else if (dx !== 0) {
        const v = (ys[j]! - yi) / dx;
        if (v < below) under += 1;
        else if (v <= above) part[kept++] = v;
      }
    }
  }
  return { part, under, kept };
}

/**
 * The pairwise slopes' count and their values at the 0-based ranks `ranksOf(count)` asks, as the
 * sorted slopes would hold them.
 */
export function slopeRanks(
  xsIn: readonly number[],
  ysIn: readonly number[],
  ranksOf: (count: number) => readonly number[],
): { readonly count: number; readonly at: Map<number, number> } {
  // Typed copies: the pass over the pairs reads them 2 x 19,900 times.
  const xs = Float64Array.from(xsIn);
  const ys = Float64Array.from(ysIn);
  const count = pairCount(xs);
  const ranks = [...new Set(ranksOf(count))].sort((a, b) => a - b);
  if (count === 0 || ranks.length === 0) return { count, at: new Map() };
  const lo = ranks[0]!;
  const hi = ranks[ranks.length - 1]!;
  if (count >= NARROW_FROM) {
    const { below, above } = pivots(xs, ys, count, lo, hi);
    const { part, under, kept } = between(xs, ys, count, below, above);
    if (lo >= under && hi < under + kept)
      return {
        count,
        at: selectInBand(part, kept, ranks, under, below, above) ?? selectRanks(part, kept, ranks, under),
      };
  }
  return { count, at: selectRanks(allSlopes(xs, ys, count), count, ranks, 0) };
}
