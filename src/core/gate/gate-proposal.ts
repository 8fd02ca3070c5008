/**
 * The allowance the gate proposes for a near- or over-budget test: a limit with headroom over its
 * slowest try, and a reason that gives the figures it stands on. Pure.
 */
import { formatDuration as ms } from '../duration.js';
import type { GateTestResult } from './gate-verdict.js';

export interface AllowanceProposal {
  readonly file: string;
  readonly fullName: string;
  readonly limitMs: number;
  readonly platformKey: string;
  readonly reason: string;
}

/**
 * The allowance to add for a near- or over-budget test: the slowest try with headroom (x1.5, or
 * x1.25/warnAt when that is more, so the slowest try sits below warnAt of the new limit), rounded
 * up to 100 ms, never below the budget it replaces.
 */
export function proposeAllowance(
  test: { readonly file: string; readonly fullName: string },
  result: GateTestResult,
  budgetMs: number,
  platform: string,
  loadedWorkers: number,
): AllowanceProposal | null {
  if (result.verdict !== 'near-budget' && result.verdict !== 'over-budget') return null;
  const slowest = result.maxPassingMs ?? result.maxMs ?? 0;
  const headroom = Math.max(1.5, 1.25 / result.warnAt);
  const limitMs = Math.max(budgetMs, Math.ceil((slowest * headroom) / 100) * 100);
  const load =
    loadedWorkers > 0 ? ` under load (${loadedWorkers} busy worker${loadedWorkers === 1 ? '' : 's'})` : ' without load';
  const reason = `flakeguard gate: slowest of ${result.tryCount} tries ${ms(slowest)}, median ${ms(result.medianMs ?? 0)}${load} on ${platform}; budget ${ms(budgetMs)}; limit = slowest x ${Math.round(headroom * 100) / 100}`;
  return { file: test.file, fullName: test.fullName, limitMs, platformKey: platform, reason };
}
