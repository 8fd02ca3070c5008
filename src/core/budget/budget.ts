/**
 * The duration limit of one test or file on one platform: an allowance for this platform when one
 * applies, else the configured budget. Pure: config and platform in, limit out.
 */

import { type PlatformValue, resolvePlatformValue } from '../platform-value.js';
import type { BudgetStatus, LimitSource } from '../record/run-record.js';
import { type BudgetConfig, DEFAULT_TEST_BUDGET_MS } from './budget-config.js';

export type { BudgetStatus } from '../record/run-record.js';

/** Which key of a PlatformValue supplied a limit: a platform name, `default`, `all` (one value for
 * every platform) or `built-in` (the map named neither this platform nor default, so the built-in
 * 5s test budget applies). */
export type LimitKey = string;

export interface RunAllowance {
  readonly id: string;
  readonly budget: PlatformValue<number>;
}

export interface TestLimit {
  readonly limitMs: number;
  readonly source: LimitSource;
  readonly platformKey: LimitKey;
  readonly allowanceId?: string;
}

export interface FileLimit {
  readonly limitMs: number;
  readonly platformKey: LimitKey;
}

export interface TestLimitInput {
  readonly config: { readonly budget: BudgetConfig };
  readonly platform: string;
  readonly allowance?: RunAllowance | undefined;
}

const BUILT_IN_TEST_MS = DEFAULT_TEST_BUDGET_MS;

export function resolveTestLimit({ config, platform, allowance }: TestLimitInput): TestLimit {
  if (allowance) {
    const own = resolvePlatformValue(allowance.budget, platform);
    if (own) return { limitMs: own.value, source: 'allowance', platformKey: own.key, allowanceId: allowance.id };
  }
  const budget = resolvePlatformValue(config.budget.test, platform);
  if (budget) return { limitMs: budget.value, source: 'budget', platformKey: budget.key };
  return { limitMs: BUILT_IN_TEST_MS, source: 'budget', platformKey: 'built-in' };
}

/** The file budget for `platform`, or null when none is configured for it. */
export function resolveFileLimit(config: { readonly budget: BudgetConfig }, platform: string): FileLimit | null {
  if (config.budget.file === null) return null;
  const resolved = resolvePlatformValue(config.budget.file, platform);
  return resolved ? { limitMs: resolved.value, platformKey: resolved.key } : null;
}

/**
 * Over when the duration is above the limit, near when at or above `warnAt` of it. A duration
 * exactly at the limit is within (the budget is "at most").
 */
export function classifyDuration(durationMs: number | null, limitMs: number | null, warnAt: number): BudgetStatus {
  if (durationMs === null || limitMs === null || !Number.isFinite(durationMs)) return 'unchecked';
  if (durationMs > limitMs) return 'over';
  if (durationMs >= limitMs * warnAt) return 'near';
  return 'within';
}

/** `linux budget`, `default budget`, `allowance tracker-reload (linux)`, `linux file budget`. */
export function describeLimit(
  limit: { readonly source: LimitSource; readonly platformKey: LimitKey; readonly allowanceId?: string | undefined },
  platform: string,
  what: 'test' | 'file',
): string {
  const key = limit.platformKey === 'all' ? platform : limit.platformKey;
  if (limit.source === 'allowance') return `allowance ${limit.allowanceId ?? '?'}, ${key}`;
  if (limit.platformKey === 'built-in') return `built-in budget: budget.${what} names neither ${platform} nor default`;
  return what === 'file' ? `${key} file budget` : `${key} budget`;
}
