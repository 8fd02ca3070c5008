/**
 * How long a try may run before the gate calls it hung and kills its worker, and when the whole
 * gate must stop. Pure.
 */

/** Vitest's default test timeout, used for a test whose timeout is 0 (none). */
export const DEFAULT_TEST_TIMEOUT_MS = 5000;
/** Added to every ceiling: worker start, hooks, the gate's own polling. */
export const HANG_MARGIN_MS = 5000;

/** A try's ceiling: its test timeout (the default when it has none) x the slowdown, plus the margin. */
export function tryCeilingMs(timeoutMs: number, factor: number): number {
  const timeout = timeoutMs > 0 ? timeoutMs : DEFAULT_TEST_TIMEOUT_MS;
  return Math.ceil(timeout * Math.max(1, factor) + HANG_MARGIN_MS);
}

/** When the gate stops every try still running: the time budget plus one default try's ceiling. */
export function gateDeadline(startedMs: number, timeBudgetMs: number, factor: number): number {
  return startedMs + timeBudgetMs + tryCeilingMs(0, factor);
}
