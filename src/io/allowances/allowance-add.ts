/**
 * `flakeguard allowances add`: a budget for one test, in a new entry or the entry that quarantines it;
 * with --replace, a new budget and reason in the entry that already gives it one. Atomic.
 */
import { setEntryKey, yamlScalar } from '../../core/allowances/allowance-edit.js';
import type { Resolution } from '../../core/allowances/allowance-resolve.js';
import { serializeBudget } from '../../core/allowances/allowance-serialize.js';
import { quoteName } from '../../core/allowances/allowance-text.js';
import { checkExpiryDay } from '../../core/calendar.js';
import { parseDuration } from '../../core/duration.js';
import { FlakeguardError } from '../../core/errors.js';
import { isPlatformKey, PLATFORMS, type PlatformValue, withPlatformValue } from '../../core/platform-value.js';
import type { SourceTest } from '../../core/source/test-source.js';
import type { TestRef } from '../../core/test-id.js';
import { escapeTerminal } from '../../core/untrusted-text.js';
import { updateAllowanceFile } from './allowance-store.js';
import { findEntryTarget, writeNewEntry } from './allowance-target.js';
import type { AllowanceState } from './allowances-state.js';

export interface AddOptions extends TestRef {
  readonly budget: string;
  readonly platform: string | undefined;
  readonly reason: string;
  readonly expires: string | undefined;
  /** Set the budget of the test's existing allowance instead of refusing (--replace). */
  readonly replace?: boolean;
}

/** Adds an allowance; returns the line to print. */
export function addAllowance(state: AllowanceState, options: AddOptions, cwd: string): string {
  const { file, test, holder } = findEntryTarget(state, options.file, options.fullName, cwd);
  const prev = holder?.allowance.budget ?? null;
  if (holder && prev !== null && options.replace !== true) {
    throw new FlakeguardError(
      'USAGE',
      `${quoteName(options.fullName)} already has allowance ${holder.allowance.id} at ${holder.allowance.at.storeFile}:${holder.allowance.at.line}; edit its budget there, or add --replace to set a new budget and reason in it`,
    );
  }
  const budget = parseBudgetOptions(options);
  checkReasonAndExpiry(options, state.today);
  if (!holder) return addEntry(state, options, test, file, budget);
  if (prev === null) {
    setBudgetInEntry(state, holder, budget, options);
    return `added a budget to entry ${holder.allowance.id} for ${quoteName(options.fullName)} (${escapeTerminal(file)}) in ${escapeTerminal(holder.allowance.at.storeFile)}`;
  }
  const next = withPlatformValue(prev, budget);
  setBudgetInEntry(state, holder, next, options);
  return `replaced the budget of allowance ${holder.allowance.id} for ${quoteName(options.fullName)} (${escapeTerminal(file)}) in ${escapeTerminal(holder.allowance.at.storeFile)}: ${serializeBudget(prev)} -> ${serializeBudget(next)}`;
}

/** --budget and --platform as the entry's budget. */
function parseBudgetOptions(options: AddOptions): PlatformValue<number> {
  const parsed = parseDuration(options.budget);
  if (!parsed.ok) throw new FlakeguardError('USAGE', `--budget ${parsed.message}`);
  if (options.platform === undefined) return { kind: 'single', value: parsed.ms };
  if (!isPlatformKey(options.platform))
    throw new FlakeguardError(
      'USAGE',
      `--platform "${options.platform}" is not one of ${PLATFORMS.join(', ')}, default`,
    );
  return { kind: 'map', values: { [options.platform]: parsed.ms } };
}

function checkReasonAndExpiry(options: AddOptions, today: string): void {
  if (options.reason.trim() === '')
    throw new FlakeguardError('USAGE', '--reason is required: say why this test may take longer than the budget');
  const expiry = options.expires === undefined ? null : checkExpiryDay(options.expires, today);
  if (expiry !== null && !expiry.ok)
    throw new FlakeguardError('USAGE', `--expires "${escapeTerminal(options.expires ?? '')}" ${expiry.message}`);
}

/**
 * The budget and reason (and --expires when given) set in the test's entry: one that only quarantines
 * it, or one whose budget --replace sets. Its id, lineage, other keys and comments stay.
 */
function setBudgetInEntry(
  state: AllowanceState,
  holder: Resolution,
  budget: PlatformValue<number>,
  options: AddOptions,
): void {
  const { id, at } = holder.allowance;
  const keys: [string, string][] = [
    ['budget', serializeBudget(budget)],
    ['reason', yamlScalar(options.reason.trim())],
    ...(options.expires === undefined ? [] : [['expires', yamlScalar(options.expires)] as [string, string]]),
  ];
  updateAllowanceFile(state.root, at.storeFile, (text) =>
    keys.reduce((t, [key, value]) => setEntryKey(t, id, key, [`${key}: ${value}`], at.storeFile), text),
  );
}

/** A new entry, in the allowance file of the test's file. */
function addEntry(
  state: AllowanceState,
  options: AddOptions,
  test: SourceTest,
  file: string,
  budget: PlatformValue<number>,
): string {
  const { id, storeFile } = writeNewEntry(
    state,
    {
      fullName: options.fullName,
      file,
      fingerprint: test.fingerprint,
      budget,
      reason: options.reason.trim(),
      expires: options.expires ?? null,
    },
    'allowance',
  );
  return `added allowance ${id} for ${quoteName(options.fullName)} (${escapeTerminal(file)}) to ${escapeTerminal(storeFile)}`;
}
