/**
 * The edit `gate --write-allowances` makes for one test: the entry the test already has (by file
 * and full name, whatever its id; written by `allowances add` or by hand) gets the proposed budget
 * for this platform, its reason and the test's fingerprint, its other keys and comments kept; only
 * a test without an entry gets a new one. A writer never gives one test a second entry: two entries
 * for one test are ambiguous and neither applies. Pure.
 */
import { withPlatformValue } from '../platform-value.js';
import { entryBlockText, insertEntry, removeEntries, setEntryKey, updateEntry } from './allowance-edit.js';
import { parseAllowanceFile } from './allowance-parse.js';
import { type NewAllowanceEntry, serializeBudget } from './allowance-serialize.js';
import { yamlScalar } from './allowance-text.js';

export interface UpsertedEntry {
  readonly text: string;
  /** The id of the entry that now holds the budget: the test's own, or `entry.id` when it had none. */
  readonly id: string;
  /** That entry's block as written. */
  readonly block: string;
}

/** `entry` (with a budget) written into `text`, the allowance file `where`, as its test's one entry. */
export function upsertTestEntry(text: string, entry: NewAllowanceEntry, where: string): UpsertedEntry {
  const parsed = parseAllowanceFile(text, where);
  const holders = parsed.allowances.filter((a) => a.file === entry.file && a.fullName === entry.fullName);
  const holder = holders.find((a) => a.id === entry.id) ?? holders[0];
  if (holder === undefined || entry.budget === null) {
    // The gate's own earlier proposal (its id is stable) is replaced, not kept beside the new one.
    const next = insertEntry(text === '' ? '' : removeEntries(text, new Set([entry.id]), where), entry, where);
    return { text: next, id: entry.id, block: entryBlockText(next, entry.id, where) ?? '' };
  }
  const budget = holder.budget === null ? entry.budget : withPlatformValue(holder.budget, entry.budget);
  let next = setEntryKey(text, holder.id, 'budget', [`budget: ${serializeBudget(budget)}`], where);
  next = setEntryKey(next, holder.id, 'reason', [`reason: ${yamlScalar(entry.reason)}`], where);
  if (entry.fingerprint !== null) next = updateEntry(next, holder.id, { fingerprint: entry.fingerprint }, where);
  return { text: next, id: holder.id, block: entryBlockText(next, holder.id, where) ?? '' };
}
