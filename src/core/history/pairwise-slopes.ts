/**
 * Order statistics of the pairwise slopes (y_j - y_i) / (x_j - x_i), i < j, x_i != x_j, without
 * keeping or sorting them all: Sen's slope and its interval are a few ranks near the median. As in
 * Floyd and Rivest's selection (CACM 18(3), 1975), two pivots are read from a sorted sample of
 * pairs so that every rank asked lies between them with near certainty; one pass over the pairs
 * counts the slopes under the lower pivot and keeps those between the pivots; the ranks are
 * selected among the kept ones. Exact whatever the sample gives: when a rank falls outside the kept
 * part, every slope is selected instead. Pure (one scratch buffer is reused between calls).
 */

/** Below this many pairs every slope is selected (the sample would not pay). */
const NARROW_FROM = 2000;
/** Pairs sampled to place the pivots. */
const SAMPLE = 500;
/** The pivots' distance from the asked ranks, in sampled slopes (about five standard deviations). */
const MARGIN = 50;

let scratch = new Float64Array(0);
const buffer = (size: number): Float64Array => {
  if (scratch.length < size) scratch = new Float64Array(size);
  return scratch;
};

/**
 * Moves the k-th smallest of a[lo..hi] to a[k], none larger before it and none smaller after
 * (Hoare's selection, as in Wirth's "Algorithms + Data Structures = Programs"): O(n) on average.
 */
function selectInPlace(a: Float64Array, k: number, lo: number, hi: number): void {
  let l = lo;
  let r = hi;
  while (r > l) {
    const pivot = a[(l + r) >> 1]!;
    let i = l;
    let j = r;
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
    if (k <= j) r = j;
    else if (k >= i) l = i;
    else return;
  }
}

/** The sorted ranks of a[0..count) (each 0-based rank less `offset`), each selected in the part the one before left. -0 reads as 0. */
function selectRanks(a: Float64Array, count: number, ranks: readonly number[], offset: number): Map<number, number> {
  const found = new Map<number, number>();
  let from = 0;
  for (const k of ranks) {
    selectInPlace(a, k - offset, from, count - 1);
    const v = a[k - offset]!;
    found.set(k, v === 0 ? 0 : v);
    from = k - offset + 1;
  }
  return found;
}

/** Pairs with different x among n points: all pairs less those of each group of equal x. */
function pairCount(xs: Float64Array): number {
  const n = xs.length;
  const groups = new Map<number, number>();
  for (const x of xs) groups.set(x, (groups.get(x) ?? 0) + 1);
  let tied = 0;
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

/** The pivots around ranks lo..hi of `count` slopes, from a sorted sample of pairs (a fixed sequence). */
function pivots(xs: Float64Array, ys: Float64Array, count: number, lo: number, hi: number) {
  const n = xs.length;
  const sample: number[] = [];
  let seed = 12345;
  for (let s = 0; sample.length < SAMPLE && s < SAMPLE * 4; s += 1) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const i = seed % n;
    const j = (i + 1 + ((seed >>> 8) % (n - 1))) % n;
    const dx = xs[j]! - xs[i]!;
    if (dx !== 0) sample.push((ys[j]! - ys[i]!) / dx);
  }
  const sorted = Float64Array.from(sample).sort();
  const low = Math.floor((lo / count) * sorted.length) - MARGIN;
  const high = Math.ceil((hi / count) * sorted.length) + MARGIN;
  return {
    below: low < 0 ? Number.NEGATIVE_INFINITY : sorted[low]!,
    above: high >= sorted.length ? Number.POSITIVE_INFINITY : sorted[high]!,
  };
}

/** The slopes between the pivots, and how many are under the lower one. */
function between(xs: Float64Array, ys: Float64Array, count: number, below: number, above: number) {
  const part = buffer(count);
  let under = 0;
  let kept = 0;
  for (let i = 0; i < xs.length; i += 1) {
    const xi = xs[i]!;
    const yi = ys[i]!;
    for (let j = i + 1; j < xs.length; j += 1) {
      const dx = xs[j]! - xi;
      if (dx === 0) continue;
      const v = (ys[j]! - yi) / dx;
      if (v < below) under += 1;
      else if (v <= above) part[kept++] = v;
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
    if (lo >= under && hi < under + kept) return { count, at: selectRanks(part, kept, ranks, under) };
  }
  return { count, at: selectRanks(allSlopes(xs, ys, count), count, ranks, 0) };
}
