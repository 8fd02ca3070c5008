/**
 * The subcommands that bring allowance files in line with the tests: prune (orphans removed) and
 * migrate (each entry's name, file, fingerprint and commit recorded again). Every write is atomic.
 * add: allowance-add.ts.
 */
import { allowanceFileFor } from '../../core/allowances/allowance.js';
import {
  type EntryChanges,
  entryBlockText,
  insertEntryText,
  removeEntries,
  updateEntry,
} from '../../core/allowances/allowance-edit.js';
import type { Resolution } from '../../core/allowances/allowance-resolve.js';
import { quoteName } from '../../core/allowances/allowance-text.js';
import type { Config } from '../../core/config.js';
import { escapeTerminal } from '../../core/untrusted-text.js';
import { updateAllowanceFile } from './allowance-store.js';
import { type AllowanceState, gatherProjectState } from './allowances-state.js';

/** Removes every orphan; returns one line per removed entry. */
export function pruneAllowances(state: AllowanceState, dryRun: boolean): string[] {
  const orphans = state.resolutions.filter((r) => r.match.kind === 'orphan');
  const byFile = new Map<string, Set<string>>();
  for (const r of orphans)
    byFile.set(r.allowance.at.storeFile, (byFile.get(r.allowance.at.storeFile) ?? new Set()).add(r.allowance.id));
  if (!dryRun) {
    for (const [storeFile, ids] of byFile) {
      updateAllowanceFile(state.root, storeFile, (text) => removeEntries(text, ids, storeFile));
    }
  }
  const verb = dryRun ? 'would remove' : 'removed';
  return orphans.map(
    (r) =>
      `${verb} orphan ${r.allowance.id} ${quoteName(r.allowance.fullName)} (${escapeTerminal(r.allowance.file)}) from ${r.allowance.at.storeFile}`,
  );
}

/** The stored values that differ from the test now; the commit is recorded with any change, or when none is. */
function changesFor(r: Resolution, head: string | null): EntryChanges {
  const a = r.allowance;
  const t = r.test!;
  const changes: EntryChanges = {};
  if (!t.namePattern && a.fullName !== t.fullName) changes.test = t.fullName;
  if (a.file !== t.file) changes.file = t.file;
  if (t.fingerprint !== null && a.fingerprint !== t.fingerprint) changes.fingerprint = t.fingerprint;
  if (head !== null && a.commit !== head && (Object.keys(changes).length > 0 || a.commit === null))
    changes.commit = head;
  return changes;
}

/**
 * Records the current name, file, fingerprint and HEAD commit of every matched allowance (or, with
 * `keep`, of those it selects), moving entries to their test's file.
 */
export function migrateAllowances(
  state: AllowanceState,
  dryRun: boolean,
  keep: (r: Resolution) => boolean = () => true,
): string[] {
  const lines: string[] = [];
  for (const r of state.resolutions) {
    if (!r.test || !keep(r)) continue;
    const a = r.allowance;
    const changes = changesFor(r, state.head);
    const target = allowanceFileFor(state.config.allowances, r.test.file);
    const moves = target !== a.at.storeFile;
    if (Object.keys(changes).length === 0 && !moves) continue;
    const what = [
      changes.test !== undefined ? `name ${quoteName(a.fullName)} -> ${quoteName(changes.test)}` : '',
      changes.file !== undefined ? `file ${escapeTerminal(a.file)} -> ${escapeTerminal(changes.file)}` : '',
      changes.fingerprint !== undefined ? 'fingerprint' : '',
      changes.commit !== undefined ? `commit ${changes.commit.slice(0, 10)}` : '',
      moves ? `entry ${a.at.storeFile} -> ${target}` : '',
    ].filter((s) => s !== '');
    lines.push(`${dryRun ? 'would migrate' : 'migrated'} ${a.id}: ${what.join(', ')}`);
    if (dryRun) continue;
    if (!moves) {
      updateAllowanceFile(state.root, a.at.storeFile, (text) => updateEntry(text, a.id, changes, a.at.storeFile));
      continue;
    }
    // Destination first: a crash in between leaves a duplicate id (check reports it), never a loss.
    let block = '';
    updateAllowanceFile(state.root, a.at.storeFile, (text) => {
      block = entryBlockText(updateEntry(text, a.id, changes, a.at.storeFile), a.id, a.at.storeFile) ?? '';
      return text;
    });
    if (block === '') continue;
    updateAllowanceFile(state.root, target, (text) =>
      insertEntryText(text, block, { fullName: changes.test ?? a.fullName, id: a.id }, target),
    );
    updateAllowanceFile(state.root, a.at.storeFile, (text) => removeEntries(text, new Set([a.id]), a.at.storeFile));
  }
  return lines;
}

/**
 * For `gate --write-allowances`: records the new name, place and commit of every allowance that
 * follows a renamed or moved test, in the change that renamed it. Returns one line per entry.
 */
export async function recordFollowedAllowances(root: string, config: Config): Promise<string[]> {
  const state = await gatherProjectState(root, config);
  return migrateAllowances(state, false, (r) => r.kind !== null && r.kind !== 'exact');
}
