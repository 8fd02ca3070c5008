/**
 * What `flakeguard init` suggests from measured durations: the slowest test, the share under a
 * typical figure, and a budget with headroom. Pure: durations in, suggestion out.
 */
import { max, quantileSorted } from 'simple-statistics';
import { formatDuration, serializeDuration } from '../duration.js';

export interface BudgetSuggestion {
  readonly tests: number;
  readonly slowestMs: number;
  readonly p99Ms: number;
  readonly p50Ms: number;
  /** A test budget that every measured test meets with 50% headroom, at least 1s, rounded up. */
  readonly suggestedTestBudgetMs: number;
}

export function computeBudgetSuggestion(durationsMs: readonly number[]): BudgetSuggestion | null {
  const sorted = durationsMs.filter((d) => Number.isFinite(d) && d >= 0).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const slowestMs = max(sorted);
  const headroom = Math.max(1000, slowestMs * 1.5);
  const step = headroom >= 10_000 ? 5000 : 1000;
  return {
    tests: sorted.length,
    slowestMs,
    p99Ms: quantileSorted(sorted, 0.99),
    p50Ms: quantileSorted(sorted, 0.5),
    suggestedTestBudgetMs: Math.ceil(headroom / step) * step,
  };
}

export function formatBudgetSuggestion(s: BudgetSuggestion): string {
  return [
    `Measured ${s.tests} tests in the newest run record: your slowest test took ${formatDuration(s.slowestMs)};`,
    `99% took under ${formatDuration(s.p99Ms)}, half under ${formatDuration(s.p50Ms)}.`,
    `A test budget of ${serializeDuration(s.suggestedTestBudgetMs)} gives the slowest test 50% headroom (budget.test in flakeguard.yaml).`,
  ].join('\n');
}
