/**
 * The test an allowance entry is written for (`allowances add`, `quarantine add`), from --file and
 * --test, with the entry that already applies to it; a fresh entry id, and the new entry written.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { allowanceFileFor, isInsideProject } from '../../core/allowances/allowance.js';
import { insertEntry } from '../../core/allowances/allowance-edit.js';
import { eachNamePattern } from '../../core/allowances/allowance-match.js';
import type { Resolution } from '../../core/allowances/allowance-resolve.js';
import type { NewAllowanceEntry } from '../../core/allowances/allowance-serialize.js';
import { closestNames } from '../../core/allowances/allowance-suggest.js';
import { quoteName } from '../../core/allowances/allowance-text.js';
import { FlakeguardError } from '../../core/errors.js';
import { extractTests, type SourceTest } from '../../core/source/test-source.js';
import { readSourceFile } from '../files/input-file.js';
import { updateAllowanceFile } from './allowance-store.js';
import type { AllowanceState } from './allowances-state.js';

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
  const tests = extractTests(readSourceFile(full, file), file);
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
      (r.test.namePattern === undefined || r.allowance.fullName === options.test),
  );
  if (!holder) refuseThirdEntry(state, file, test.fullName);
  return { file, test, holder };
}

/** Two entries for one test already (neither applies): a writer adds no third; the user keeps one. */
function refuseThirdEntry(state: AllowanceState, file: string, fullName: string): void {
  const rivals = state.resolutions.filter(
    (r) => r.match.kind === 'ambiguous' && r.allowance.file === file && r.allowance.fullName === fullName,
  );
  if (rivals.length === 0) return;
  const at = rivals.map((r) => `${r.allowance.id} (${r.allowance.at.storeFile}:${r.allowance.at.line})`).join(', ');
  throw new FlakeguardError(
    'USAGE',
    `${quoteName(fullName)} in ${file} already has ${rivals.length} entries, so none applies: ${at}; remove all but one, then run the command again (with --replace to set its budget)`,
  );
}

/** What a command decides of a new entry; its id, commit, day and file come from the state. */
export type NewEntryFields = Omit<NewAllowanceEntry, 'id' | 'commit' | 'added'>;

/**
 * Writes a new entry into its test file's allowance file under the file's lock, with a fresh id,
 * today's date and HEAD's commit: an entry a concurrent writer added is read back first, and its id
 * is not reused (`noun` names the id in that error). Returns the id and the file written.
 */
export function writeNewEntry(
  state: AllowanceState,
  fields: NewEntryFields,
  noun: 'allowance' | 'entry',
): { readonly id: string; readonly storeFile: string } {
  const id = newId(new Set(state.store.allowances.map((a) => a.id)));
  const storeFile = allowanceFileFor(state.config.allowances, fields.file);
  const entry: NewAllowanceEntry = { ...fields, id, commit: state.head, added: state.today };
  updateAllowanceFile(state.root, storeFile, (text) => {
    if (text.includes(`id: ${entry.id}`))
      throw new FlakeguardError(
        'USAGE',
        `${noun} id ${entry.id} was just taken by another writer; run the command again`,
      );
    return insertEntry(text, entry, storeFile);
  });
  return { id, storeFile };
}
