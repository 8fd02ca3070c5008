/** The subcommands that write allowance files: add, prune, migrate. Every write is atomic. */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { allowanceFileFor, isInsideProject } from '../../core/allowances/allowance.js';
import {
  type EntryChanges,
  entryBlockText,
  insertEntry,
  insertEntryText,
  removeEntries,
  setEntryKey,
  updateEntry,
  yamlScalar,
} from '../../core/allowances/allowance-edit.js';
import { eachNamePattern } from '../../core/allowances/allowance-match.js';
import type { Resolution } from '../../core/allowances/allowance-resolve.js';
import { serializeBudget } from '../../core/allowances/allowance-serialize.js';
import { closestNames } from '../../core/allowances/allowance-suggest.js';
import { escapeForTerminal, quoteName } from '../../core/allowances/allowance-text.js';
import { checkExpiryDay } from '../../core/calendar.js';
import type { Config } from '../../core/config.js';
import { parseDuration } from '../../core/duration.js';
import { FlakeguardError } from '../../core/errors.js';
import { isPlatformKey, PLATFORMS, type PlatformValue } from '../../core/platform-value.js';
import { extractTests, type SourceTest } from '../../core/source/test-source.js';
import { updateAllowanceFile } from './allowance-store.js';
import { type AllowanceState, gatherProjectState } from './allowances-state.js';

export interface AddOptions {
  readonly file: string;
  readonly test: string;
  readonly budget: string;
  readonly platform: string | undefined;
  readonly reason: string;
  readonly expires: string | undefined;
}

function newId(taken: ReadonlySet<string>): string {
  for (;;) {
    const hex = randomBytes(4).toString('hex');
    // A leading letter keeps YAML from reading the id as a number.
    const id = `${'abcdef'[parseInt(hex[0] as string, 16) % 6]}${hex.slice(1)}`;
    if (!taken.has(id)) return id;
  }
}

export interface EntryTarget {
  /** The test file relative to the root, with `/`. */
  readonly file: string;
  readonly test: SourceTest;
  /** The entry that already applies to this test, if any. */
  readonly holder: Resolution | undefined;
}

/**
 * The test an entry is written for, from --file and --test: the file must be inside the project and
 * declare exactly one test of that name (a `.each` row name counts); usage errors name the close names.
 */
export function findEntryTarget(state: AllowanceState, fileArg: string, testArg: string, cwd: string): EntryTarget {
  const options = { file: fileArg, test: testArg };
  const file = path.relative(state.root, path.resolve(cwd, options.file)).split(path.sep).join('/');
  if (!isInsideProject(file))
    throw new FlakeguardError(
      'USAGE',
      `--file "${options.file}" is outside the project at ${state.root}; name a test file inside it`,
    );
  const full = path.join(state.root, file);
  if (!existsSync(full)) throw new FlakeguardError('USAGE', `--file "${file}": no such test file under ${state.root}`);
  // Read here, not from the state: the file may be outside Vitest's default include pattern, and a
  // syntax error must stop the command with its file:line:column.
  const tests = extractTests(readFileSync(full, 'utf8'), file);
  const exact = tests.filter((t) => t.fullName === options.test);
  const each =
    exact.length > 0
      ? []
      : tests.filter((t) => (t.each || t.dynamicTitle) && eachNamePattern(t.fullName).test(options.test));
  const found = [...exact, ...each];
  if (found.length === 0) {
    const close = closestNames(
      options.test,
      tests.map((t) => t.fullName),
    );
    const hint =
      close.length > 0
        ? `; tests in that file include: ${close.map((n) => JSON.stringify(n)).join(', ')}`
        : '; that file declares no tests';
    throw new FlakeguardError(
      'USAGE',
      `no test ${quoteName(options.test)} in ${file} (write the full name, titles joined with " > ")${hint}`,
    );
  }
  if (found.length > 1)
    throw new FlakeguardError(
      'USAGE',
      `${found.length} tests in ${file} are named ${quoteName(options.test)}; rename one so the allowance has one test`,
    );
  const test = found[0]!;
  const holder = state.resolutions.find(
    (r) =>
      r.test &&
      r.test.file === file &&
      r.test.fullName === test.fullName &&
      (r.test.namePattern === undefined || r.allowance.test === options.test),
  );
  return { file, test, holder };
}

export function newEntryId(state: AllowanceState): string {
  return newId(new Set(state.store.allowances.map((a) => a.id)));
}

/** Adds an allowance; returns the line to print. */
export function addAllowance(state: AllowanceState, options: AddOptions, cwd: string): string {
  const { file, test, holder } = findEntryTarget(state, options.file, options.test, cwd);
  if (holder && holder.allowance.budget !== null) {
    throw new FlakeguardError(
      'USAGE',
      `${quoteName(options.test)} already has allowance ${holder.allowance.id} at ${holder.allowance.at.storeFile}:${holder.allowance.at.line}; edit its budget there`,
    );
  }
  const parsed = parseDuration(options.budget);
  if (!parsed.ok) throw new FlakeguardError('USAGE', `--budget ${parsed.message}`);
  let budget: PlatformValue<number> = { kind: 'single', value: parsed.ms };
  if (options.platform !== undefined) {
    if (!isPlatformKey(options.platform))
      throw new FlakeguardError(
        'USAGE',
        `--platform "${options.platform}" is not one of ${PLATFORMS.join(', ')}, default`,
      );
    budget = { kind: 'map', values: { [options.platform]: parsed.ms } };
  }
  if (options.reason.trim() === '')
    throw new FlakeguardError('USAGE', '--reason is required: say why this test may take longer than the budget');
  const expiry = options.expires === undefined ? null : checkExpiryDay(options.expires, state.today);
  if (expiry !== null && !expiry.ok)
    throw new FlakeguardError('USAGE', `--expires "${escapeForTerminal(options.expires ?? '')}" ${expiry.message}`);
  if (holder) {
    // The test's entry only quarantines it: the budget joins that entry.
    const { id, at } = holder.allowance;
    const keys: [string, string][] = [
      ['budget', serializeBudget(budget)],
      ['reason', yamlScalar(options.reason.trim())],
      ...(options.expires === undefined ? [] : [['expires', yamlScalar(options.expires)] as [string, string]]),
    ];
    updateAllowanceFile(state.root, at.storeFile, (text) =>
      keys.reduce((t, [key, value]) => setEntryKey(t, id, key, [`${key}: ${value}`], at.storeFile), text),
    );
    return `added a budget to entry ${id} for ${quoteName(options.test)} (${escapeForTerminal(file)}) in ${escapeForTerminal(at.storeFile)}`;
  }
  const id = newEntryId(state);
  const storeFile = allowanceFileFor(state.config.allowances, file);
  const entry = {
    id,
    test: options.test,
    file,
    fingerprint: test.fingerprint,
    commit: state.head,
    budget,
    reason: options.reason.trim(),
    added: state.today,
    expires: options.expires ?? null,
  };
  // Under the file's lock: a concurrent add is read back first, and its id is not reused.
  updateAllowanceFile(state.root, storeFile, (text) => {
    if (text.includes(`id: ${id}`))
      throw new FlakeguardError('USAGE', `allowance id ${id} was just taken by another writer; run the command again`);
    return insertEntry(text, entry, storeFile);
  });
  return `added allowance ${id} for ${quoteName(options.test)} (${escapeForTerminal(file)}) to ${escapeForTerminal(storeFile)}`;
}

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
      `${verb} orphan ${r.allowance.id} ${quoteName(r.allowance.test)} (${escapeForTerminal(r.allowance.file)}) from ${r.allowance.at.storeFile}`,
  );
}

/** The stored values that differ from the test now; the commit is recorded with any change, or when none is. */
function changesFor(r: Resolution, head: string | null): EntryChanges {
  const a = r.allowance;
  const t = r.test!;
  const changes: EntryChanges = {};
  if (!t.namePattern && a.test !== t.fullName) changes.test = t.fullName;
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
      changes.test !== undefined ? `name ${quoteName(a.test)} -> ${quoteName(changes.test)}` : '',
      changes.file !== undefined ? `file ${escapeForTerminal(a.file)} -> ${escapeForTerminal(changes.file)}` : '',
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
      insertEntryText(text, block, { test: changes.test ?? a.test, id: a.id }, target),
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
