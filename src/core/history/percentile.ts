/**
 * PostgreSQL's percentile_cont (src/backend/utils/adt/orderedsetaggs.c): linear interpolation
 * between the two nearest ranks, rank q * (n - 1) of the sorted values. The history report's medians
 * and p95s are this one formula, whether the database or core computes them. Pure.
 */

/** `sorted` ascending and non-empty; q in [0, 1]. */
export function percentileCont(sorted: readonly number[], q: number): number {
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const first = sorted[lo]!;
  return hi === lo ? first : first + (sorted[hi]! - first) * (pos - lo);
}
