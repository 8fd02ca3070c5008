/**
 * The limits and quarantine triage holds each test to when the reporter's verdicts are not among the
 * inputs (a plain JSON report, JUnit, a log): read from the checkout at --root the way the reporter
 * reads them (allowances and quarantine entries through the one loadAllowancesForRun, then --budget,
 * then flakeguard.yaml's budget), so a test inside its allowance is not a budget finding and a failed
 * test under an applying quarantine fails nothing (issue 19, class 6). Each limit says where it came from.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { allowanceFileFor } from '../../core/allowances/allowance.js';
import { allowanceKey } from '../../core/allowances/allowance-match.js';
import type { Config } from '../../core/config.js';
import { resolvePlatformValue } from '../../core/platform-value.js';
import { describeQuarantine, isQuarantineActive, type RunQuarantine } from '../../core/quarantine/run-quarantine.js';
import { projectTag, testKey } from '../../core/test-id.js';
import { measureExcesses, type TriageLimit, type TriageLimits } from '../../core/triage/triage-budget.js';
import type { BudgetExcess, ObservedFile, ObservedTest } from '../../core/triage/triage-types.js';
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

interface CheckoutLimits extends TriageLimits {
  /** Allowances that followed a renamed test, and problems in the allowance store. */
  readonly notes: readonly string[];
  /** The quarantine over each test of the inputs (applying or expired), by testKey, as the reporter reads it. */
  readonly quarantine: ReadonlyMap<string, RunQuarantine>;
}

function keyOf(key: string): string {
  return key === 'all' ? 'all platforms' : key;
}

async function checkoutLimits(settings: LimitSettings, tests: readonly ObservedTest[]): Promise<CheckoutLimits> {
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
  // Every test, as the reporter passes every test: passed ones for budgets, failed ones for quarantine.
  const inCheckout = tests.filter(
    (t): t is ObservedTest & { file: string } =>
      t.kind === 'test' && t.file !== null && existsSync(path.join(root, t.file)),
  );
  if (inCheckout.length === 0) return { test: () => baseTest, file, notes: [], quarantine: new Map() };
  const unique = new Map(
    // Allowances name no project: one entry per test in every project.
    inCheckout.map((t) => [allowanceKey(t), { file: t.file, fullName: t.fullName, line: t.line }]),
  );
  const allowances = await loadAllowancesForRun({
    root,
    config,
    tests: [...unique.values()],
    platform,
    today: settings.today,
  });
  const test = (f: string, name: string): TriageLimit | null => {
    const applied = allowances.applied.get(allowanceKey({ file: f, fullName: name }));
    const own = applied ? resolvePlatformValue(applied.budget, platform) : undefined;
    if (!applied || !own) return baseTest;
    const followed =
      applied.match === 'exact' ? '' : `, followed the test (${applied.match}) from "${applied.storedName}"`;
    return {
      limitMs: own.value,
      from: `allowance ${applied.id} in ${allowanceFileFor(config.allowances, applied.storedFile)} (${keyOf(own.key)}${followed})`,
    };
  };
  return { test, file, notes: [...allowances.notices, ...allowances.warnings], quarantine: allowances.quarantine };
}

export interface CheckoutApplied {
  readonly tests: readonly ObservedTest[];
  readonly excesses: readonly BudgetExcess[];
}

/**
 * The checkout's limits and quarantine applied to inputs without the reporter's verdicts: each test
 * under an applying quarantine is marked as a record would mark it, and `onNote` says so per failure.
 */
export async function applyCheckout(
  settings: LimitSettings,
  tests: readonly ObservedTest[],
  files: readonly ObservedFile[],
  onNote: (text: string) => void = () => undefined,
): Promise<CheckoutApplied> {
  const limits = await checkoutLimits(settings, tests);
  for (const note of limits.notes) onNote(note);
  const excused = new Set<string>();
  const marked = tests.map((t) => {
    const q =
      t.kind === 'test' && t.file !== null
        ? limits.quarantine.get(allowanceKey({ file: t.file, fullName: t.fullName }))
        : undefined;
    if (!isQuarantineActive(q) || t.file === null) return t;
    const key = testKey(t);
    if (t.state === 'failed' && !excused.has(key)) {
      excused.add(key);
      onNote(
        `${t.file}${projectTag(t.project)} > ${t.fullName}: failed under ${describeQuarantine(q)}; the quarantine in the checkout applied as the reporter applies it: its failure fails nothing`,
      );
    }
    return { ...t, quarantined: true as const };
  });
  return { tests: marked, excesses: measureExcesses(marked, files, limits) };
}
