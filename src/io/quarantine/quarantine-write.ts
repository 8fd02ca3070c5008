/**
 * `flakeguard quarantine add` and `remove`: the quarantine is the `quarantine:` map of the test's
 * entry in its allowance file (docs/quarantine.md). add writes it into the entry the test already
 * has, or a new entry; remove takes it out, and the entry with it when the entry has no budget.
 * Every write holds the file's lock and is atomic, and keeps comments and line endings.
 */
import { removeEntries, removeEntryKey, setEntryKey } from '../../core/allowances/allowance-edit.js';
import { serializeQuarantine } from '../../core/allowances/allowance-serialize.js';
import { quoteName } from '../../core/allowances/allowance-text.js';
import type { QuarantineTerms } from '../../core/allowances/quarantine-terms.js';
import { checkExpiryDay } from '../../core/calendar.js';
import { FlakeguardError } from '../../core/errors.js';
import type { TestRef } from '../../core/test-id.js';
import { escapeTerminal } from '../../core/untrusted-text.js';
import { updateAllowanceFile } from '../allowances/allowance-store.js';
import { findEntryTarget, writeNewEntry } from '../allowances/allowance-target.js';
import type { AllowanceState } from '../allowances/allowances-state.js';
import { readProjectOwners } from '../owners/codeowners-file.js';

export interface QuarantineAddOptions extends TestRef {
  readonly reason: string;
  readonly expires: string | undefined;
  readonly link: string | undefined;
}

function termsOf(options: QuarantineAddOptions, today: string): QuarantineTerms {
  if (options.reason.trim() === '')
    throw new FlakeguardError('USAGE', '--reason is required: say why the test is quarantined and who owns the fix');
  const expiry = options.expires === undefined ? null : checkExpiryDay(options.expires, today);
  if (expiry !== null && !expiry.ok)
    throw new FlakeguardError('USAGE', `--expires "${escapeTerminal(options.expires ?? '')}" ${expiry.message}`);
  if (options.link !== undefined && options.link.trim() === '')
    throw new FlakeguardError('USAGE', '--link is empty; give the ticket URL or leave --link out');
  return { reason: options.reason.trim(), link: options.link?.trim() ?? null, expires: options.expires ?? null };
}

const ownedBy = (owners: readonly string[]): string =>
  owners.length > 0 ? `; owners ${escapeTerminal(owners.join(' '))}` : '';

/** Quarantines one test; returns the line to print. */
export function addQuarantine(state: AllowanceState, options: QuarantineAddOptions, cwd: string): string {
  const checked = termsOf(options, state.today);
  const { file, test, holder } = findEntryTarget(state, options.file, options.fullName, cwd);
  // The owners at the time: CODEOWNERS may change, the record of who owned the fix stays.
  const owners = readProjectOwners(state.root).ownersOf(file);
  const terms = { ...checked, ...(owners.length > 0 ? { owners } : {}) };
  const what = `${quoteName(options.fullName)} (${escapeTerminal(file)})`;
  if (holder) {
    const entry = holder.allowance;
    if (entry.quarantine !== null) {
      throw new FlakeguardError(
        'USAGE',
        `${what} is already quarantined by entry ${entry.id} at ${entry.at.storeFile}:${entry.at.line}; remove it first (flakeguard quarantine remove --id ${entry.id}) or edit it there`,
      );
    }
    updateAllowanceFile(state.root, entry.at.storeFile, (text) =>
      setEntryKey(text, entry.id, 'quarantine', serializeQuarantine(terms), entry.at.storeFile),
    );
    return `quarantined ${what} in entry ${entry.id} of ${escapeTerminal(entry.at.storeFile)}${ownedBy(owners)}`;
  }
  const { id, storeFile } = writeNewEntry(
    state,
    {
      fullName: options.fullName,
      file,
      fingerprint: test.fingerprint,
      budget: null,
      reason: '',
      quarantine: terms,
      expires: null,
    },
    'entry',
  );
  return `quarantined ${what}: entry ${id} in ${escapeTerminal(storeFile)}${ownedBy(owners)}`;
}

/** Takes the quarantine off the entry with this id; returns the line to print. */
export function removeQuarantine(state: AllowanceState, id: string): string {
  const entry = state.store.allowances.find((a) => a.id === id && a.quarantine !== null);
  if (!entry) {
    const known = state.store.allowances.filter((a) => a.quarantine !== null).map((a) => a.id);
    throw new FlakeguardError(
      'USAGE',
      `no quarantine with id "${escapeTerminal(id)}"; ${known.length > 0 ? `quarantines: ${known.join(', ')}` : 'there is none'} (flakeguard quarantine list)`,
    );
  }
  const storeFile = entry.at.storeFile;
  if (entry.budget === null) {
    updateAllowanceFile(state.root, storeFile, (text) => removeEntries(text, new Set([id]), storeFile));
    return `removed quarantine ${id} (${quoteName(entry.fullName)}) and its entry from ${escapeTerminal(storeFile)}`;
  }
  updateAllowanceFile(state.root, storeFile, (text) => removeEntryKey(text, id, 'quarantine', storeFile));
  return `removed quarantine ${id} (${quoteName(entry.fullName)}) from ${escapeTerminal(storeFile)}; the entry keeps its budget`;
}
