/**
 * A platform's newest passed durations in a window, from its summary rows (one a shard, each with
 * the key's newest RECENT_SUMMARY durations, history-schema-key-totals.ts). Pure.
 */

import { RECENT_SUMMARY } from './history-schema-summaries.js';

/** A summary row's durations (history-summary.ts SummaryRow). */
interface SummaryRow {
  readonly recentMs?: readonly number[] | null | undefined;
  readonly recentAt?: readonly number[] | null | undefined;
}

/** Whether a row's durations are oldest first by (start, duration), as ingest keeps them. */
function inOrder(at: readonly number[], ms: readonly number[]): boolean {
  for (let i = 1; i < ms.length; i += 1) {
    if (at[i - 1]! > at[i]! || (at[i - 1] === at[i] && ms[i - 1]! > ms[i]!)) return false;
  }
  return true;
}

/** The newest (by start, then duration) of the rows' points at or after `cutoffMs`, each row in order: merged from the ends. */
function newestMerged(rows: readonly SummaryRow[], cutoffMs: number): number[] {
  const next = rows.map((r) => Math.min(r.recentMs?.length ?? 0, r.recentAt?.length ?? 0) - 1);
  const out: number[] = [];
  while (out.length < RECENT_SUMMARY) {
    let best = -1;
    for (let k = 0; k < rows.length; k += 1) {
      const i = next[k]!;
      if (i < 0) continue;
      const at = rows[k]!.recentAt![i]!;
      if (at < cutoffMs) continue;
      if (best < 0) best = k;
      else {
        const bAt = rows[best]!.recentAt![next[best]!]!;
        const later = at > bAt || (at === bAt && rows[k]!.recentMs![i]! > rows[best]!.recentMs![next[best]!]!);
        if (later) best = k;
      }
    }
    if (best < 0) break;
    out.push(rows[best]!.recentMs![next[best]!]!);
    next[best] = next[best]! - 1;
  }
  return out;
}

/** The same by sorting every point (a row out of order, as a store written by hand may hold). */
function newestSorted(rows: readonly SummaryRow[], cutoffMs: number): number[] {
  const points: { at: number; ms: number }[] = [];
  for (const r of rows) {
    const ats = r.recentAt ?? [];
    (r.recentMs ?? []).forEach((ms, i) => {
      const at = ats[i];
      if (at !== undefined && at >= cutoffMs) points.push({ at, ms });
    });
  }
  points.sort((a, b) => a.at - b.at || a.ms - b.ms);
  return points.slice(-RECENT_SUMMARY).map((p) => p.ms);
}

/** The newest RECENT_SUMMARY passed durations at or after `cutoffMs` over the rows of one platform, sorted. */
export function recentDurations(rows: readonly SummaryRow[], cutoffMs: number): number[] {
  const ordered = rows.every((r) => inOrder(r.recentAt ?? [], r.recentMs ?? []));
  const newest = ordered ? newestMerged(rows, cutoffMs) : newestSorted(rows, cutoffMs);
  return newest.sort((a, b) => a - b);
}
