/**
 * The limits triage holds each test to when the reporter's verdicts are not among the inputs (a
 * plain JSON report, JUnit, a log): read from the checkout at --root the way the reporter reads them
 * (allowances through loadAllowancesForRun, then --budget, then flakeguard.yaml's budget), so a test
 * inside its allowance is not a budget finding. Each limit says where it came from.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { allowanceFileFor } from '../../core/allowances/allowance.js';
import type { Config } from '../../core/config.js';
import { resolvePlatformValue } from '../../core/platform-value.js';
import { testKey } from '../../core/test-id.js';
import type { TriageLimit, TriageLimits } from '../../core/triage/triage-budget.js';
import type { ObservedTest } from '../../core/triage/triage-types.js';
import { loadAllowancesForRun } from '../allowances/allowances-for-run.js';

export interface LimitSettings {
  readonly root: string;
  readonly config: Config;
  /** flakeguard.yaml as shown to the user, or null when the project has none. */
  readonly configFile: string | null;
  readonly platform: string;
  readonly today: string;
  /** --budget and --file-budget, in ms. */
  readonly testFlagMs: number | null;
  readonly fileFlagMs: number | null;
}

export interface CheckoutLimits extends TriageLimits {
  /** Allowances that followed a renamed test, and problems in the allowance store. */
  readonly notes: readonly string[];
}

function keyOf(key: string): string {
  return key === 'all' ? 'all platforms' : key;
}

export async function checkoutLimits(settings: LimitSettings, tests: readonly ObservedTest[]): Promise<CheckoutLimits> {
  const { root, config, platform } = settings;
  const baseTest: TriageLimit | null = (() => {
    if (settings.testFlagMs !== null) return { limitMs: settings.testFlagMs, from: '--budget' };
    if (settings.configFile === null) return null;
    const own = resolvePlatformValue(config.budget.test, platform);
    return own ? { limitMs: own.value, from: `budget.test in ${settings.configFile} (${keyOf(own.key)})` } : null;
  })();
  const file: TriageLimit | null = (() => {
    if (settings.fileFlagMs !== null) return { limitMs: settings.fileFlagMs, from: '--file-budget' };
    if (settings.configFile === null || config.budget.file === null) return null;
    const own = resolvePlatformValue(config.budget.file, platform);
    return own ? { limitMs: own.value, from: `budget.file in ${settings.configFile} (${keyOf(own.key)})` } : null;
  })();
  // The checkout: --root holds the files the inputs name. Without it, no allowance can be read.
  const passed = tests.filter(
    (t): t is ObservedTest & { file: string } => t.kind === 'test' && t.state === 'passed' && t.file !== null,
  );
  const inCheckout = passed.filter((t) => existsSync(path.join(root, t.file)));
  if (inCheckout.length === 0) return { test: () => baseTest, file, notes: [] };
  const unique = new Map(
    inCheckout.map((t) => [testKey(t.file, t.name), { file: t.file, fullName: t.name, line: t.line }]),
  );
  const allowances = await loadAllowancesForRun({
    root,
    config,
    tests: [...unique.values()],
    platform,
    today: settings.today,
  });
  const test = (f: string, name: string): TriageLimit | null => {
    const applied = allowances.applied.get(testKey(f, name));
    const own = applied ? resolvePlatformValue(applied.budget, platform) : undefined;
    if (!applied || !own) return baseTest;
    const followed =
      applied.match === 'exact' ? '' : `, followed the test (${applied.match}) from "${applied.storedName}"`;
    return {
      limitMs: own.value,
      from: `allowance ${applied.id} in ${allowanceFileFor(config.allowances, applied.storedFile)} (${keyOf(own.key)}${followed})`,
    };
  };
  return { test, file, notes: [...allowances.notices, ...allowances.warnings] };
}
