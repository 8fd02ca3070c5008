/** The subcommands that write allowance files: add, prune, migrate. Every write is atomic. */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { allowanceFileFor, isInsideProject, isValidDate } from '../../core/allowances/allowance.js';
import { entryBlockText, insertEntry, insertEntryText, removeEntries, updateEntry, type EntryChanges } from '../../core/allowances/allowance-edit.js';
import { eachNamePattern } from '../../core/allowances/allowance-match.js';
import { closestNames } from '../../core/allowances/allowance-suggest.js';
import { parseDuration } from '../../core/duration.js';
import { FlakeguardError } from '../../core/errors.js';
import { isPlatformKey, PLATFORMS, type PlatformValue } from '../../core/platform-value.js';
import type { Resolution } from '../../core/allowances/allowance-resolve.js';
import { extractTests } from '../../core/source/test-source.js';
import { readAllowanceText, writeAllowanceFile } from '../../io/files/allowance-store.js';
import type { AllowanceState } from './allowances-state.js';

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

/** Adds an allowance; returns the line to print. */
export function addAllowance(state: AllowanceState, options: AddOptions, cwd: string): string {
  const file = path.relative(state.root, path.resolve(cwd, options.file)).split(path.sep).join('/');
  if (!isInsideProject(file)) throw new FlakeguardError('USAGE', `--file "${options.file}" is outside the project at ${state.root}; name a test file inside it`);
  const full = path.join(state.root, file);
  if (!existsSync(full)) throw new FlakeguardError('USAGE', `--file "${file}": no such test file under ${state.root}`);
  // Read here, not from the state: the file may be outside Vitest's default include pattern, and a
  // syntax error must stop the command with its file:line:column.
  const tests = extractTests(readFileSync(full, 'utf8'), file);
  const exact = tests.filter((t) => t.fullName === options.test);
  const each = exact.length > 0 ? [] : tests.filter((t) => (t.each || t.dynamicTitle) && eachNamePattern(t.fullName).test(options.test));
  const found = [...exact, ...each];
  if (found.length === 0) {
    const close = closestNames(options.test, tests.map((t) => t.fullName));
    const hint = close.length > 0 ? `; tests in that file include: ${close.map((n) => JSON.stringify(n)).join(', ')}` : '; that file declares no tests';
    throw new FlakeguardError('USAGE', `no test "${options.test}" in ${file} (write the full name, titles joined with " > ")${hint}`);
  }
  if (found.length > 1) throw new FlakeguardError('USAGE', `${found.length} tests in ${file} are named "${options.test}"; rename one so the allowance has one test`);
  const test = found[0]!;
  const holder = state.resolutions.find((r) => r.test && r.test.file === file && (r.test.fullName === test.fullName) && (r.test.namePattern === undefined || r.allowance.test === options.test));
  if (holder) {
    throw new FlakeguardError('USAGE', `"${options.test}" already has allowance ${holder.allowance.id} at ${holder.allowance.at.storeFile}:${holder.allowance.at.line}; edit its budget there`);
  }
  const parsed = parseDuration(options.budget);
  if (!parsed.ok) throw new FlakeguardError('USAGE', `--budget ${parsed.message}`);
  let budget: PlatformValue<number> = { kind: 'single', value: parsed.ms };
  if (options.platform !== undefined) {
    if (!isPlatformKey(options.platform)) throw new FlakeguardError('USAGE', `--platform "${options.platform}" is not one of ${PLATFORMS.join(', ')}, default`);
    budget = { kind: 'map', values: { [options.platform]: parsed.ms } };
  }
  if (options.reason.trim() === '') throw new FlakeguardError('USAGE', '--reason is required: say why this test may take longer than the budget');
  if (options.expires !== undefined && !isValidDate(options.expires)) throw new FlakeguardError('USAGE', `--expires "${options.expires}" is not a date; write YYYY-MM-DD`);
  const id = newId(new Set(state.store.allowances.map((a) => a.id)));
  const storeFile = allowanceFileFor(state.config.allowances, file);
  const text = readAllowanceText(state.root, storeFile);
  const entry = {
    id, test: options.test, file, fingerprint: test.fingerprint, budget, reason: options.reason.trim(), added: state.today, expires: options.expires ?? null,
  };
  writeAllowanceFile(state.root, storeFile, insertEntry(text, entry, storeFile));
  return `added allowance ${id} for "${options.test}" (${file}) to ${storeFile}`;
}

/** Removes every orphan; returns one line per removed entry. */
export function pruneAllowances(state: AllowanceState, dryRun: boolean): string[] {
  const orphans = state.resolutions.filter((r) => r.match.kind === 'orphan');
  const byFile = new Map<string, Set<string>>();
  for (const r of orphans) byFile.set(r.allowance.at.storeFile, (byFile.get(r.allowance.at.storeFile) ?? new Set()).add(r.allowance.id));
  if (!dryRun) {
    for (const [storeFile, ids] of byFile) {
      writeAllowanceFile(state.root, storeFile, removeEntries(readAllowanceText(state.root, storeFile), ids, storeFile));
    }
  }
  const verb = dryRun ? 'would remove' : 'removed';
  return orphans.map((r) => `${verb} orphan ${r.allowance.id} "${r.allowance.test}" (${r.allowance.file}) from ${r.allowance.at.storeFile}`);
}

function changesFor(r: Resolution): EntryChanges {
  const a = r.allowance;
  const t = r.test!;
  const changes: EntryChanges = {};
  if (!t.namePattern && a.test !== t.fullName) changes.test = t.fullName;
  if (a.file !== t.file) changes.file = t.file;
  if (t.fingerprint !== null && a.fingerprint !== t.fingerprint) changes.fingerprint = t.fingerprint;
  return changes;
}

/** Records the current name, file and fingerprint of every matched allowance, moving entries to their test's file. */
export function migrateAllowances(state: AllowanceState, dryRun: boolean): string[] {
  const lines: string[] = [];
  for (const r of state.resolutions) {
    if (!r.test) continue;
    const a = r.allowance;
    const changes = changesFor(r);
    const target = allowanceFileFor(state.config.allowances, r.test.file);
    const moves = target !== a.at.storeFile;
    if (Object.keys(changes).length === 0 && !moves) continue;
    const what = [
      changes.test !== undefined ? `name "${a.test}" -> "${changes.test}"` : '',
      changes.file !== undefined ? `file ${a.file} -> ${changes.file}` : '',
      changes.fingerprint !== undefined ? 'fingerprint' : '',
      moves ? `entry ${a.at.storeFile} -> ${target}` : '',
    ].filter((s) => s !== '');
    lines.push(`${dryRun ? 'would migrate' : 'migrated'} ${a.id}: ${what.join(', ')}`);
    if (dryRun) continue;
    const from = readAllowanceText(state.root, a.at.storeFile);
    const updated = updateEntry(from, a.id, changes, a.at.storeFile);
    if (!moves) {
      writeAllowanceFile(state.root, a.at.storeFile, updated);
      continue;
    }
    const block = entryBlockText(updated, a.id, a.at.storeFile)!;
    const into = readAllowanceText(state.root, target);
    // Destination first: a crash in between leaves a duplicate id (check reports it), never a loss.
    writeAllowanceFile(state.root, target, insertEntryText(into, block, { test: changes.test ?? a.test, id: a.id }, target));
    writeAllowanceFile(state.root, a.at.storeFile, removeEntries(updated, new Set([a.id]), a.at.storeFile));
  }
  return lines;
}
