/**
 * The duration limit of each selected test: its allowance when one applies (an allowance added in
 * this change counts: that is how a near-budget test stops failing the gate), else the budget.
 * Allowances are found the way the reporter finds them (io/allowances-for-run.ts).
 */

import { allowanceKey } from '../../core/allowances/allowance-match.js';
import { resolveTestLimit, type TestLimit } from '../../core/budget/budget.js';
import type { Config } from '../../core/config.js';
import type { SourceTest } from '../../core/source/test-source.js';
import { loadAllowancesForRun } from '../../io/allowances/allowances-for-run.js';

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
  readonly today: string;
}): Promise<GateLimits> {
  const { config, platform } = input;
  const allowances = await loadAllowancesForRun({
    root: input.root,
    config,
    platform,
    today: input.today,
    tests: input.tests.map((t) => ({ file: t.file, fullName: t.fullName, line: t.line })),
  });
  return {
    limitFor: (test) => {
      const applied = allowances.applied.get(allowanceKey(test));
      return resolveTestLimit({
        config,
        platform,
        allowance: applied ? { id: applied.id, budget: applied.budget } : undefined,
      });
    },
    notices: allowances.notices,
    warnings: allowances.warnings,
  };
}
