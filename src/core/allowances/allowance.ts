/**
 * Allowance files: `allowances/<test file>.yaml`, a YAML list of entries, each a per-test duration
 * limit that replaces the configured budget for one test. Parsed here from text (pure); the store
 * in src/io reads and writes the files. Format and matching: docs/allowances.md.
 *
 * Every problem names file:line:column; a bad entry is skipped and the others still load. A file
 * that is not valid YAML loads nothing (its entries cannot be told apart safely).
 */

import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, type YAMLMap } from 'yaml';
import { hasExpired, isIsoDay } from '../calendar.js';
import { makeLocator, parsePlatformDuration } from '../config.js';
import { isFlakeguardError } from '../errors.js';
import type { PlatformValue } from '../platform-value.js';
import { parseQuarantineTerms, type QuarantineTerms } from '../quarantine/quarantine-terms.js';

export interface Allowance {
  readonly id: string;
  /** The test's full name (' > ') when the entry was last written. */
  readonly test: string;
  /** The test file (relative to the root, `/`) when the entry was last written. */
  readonly file: string;
  readonly fingerprint: string | null;
  /**
   * The commit at which `test`, `file` and `fingerprint` were last known true (written by `add`
   * and `migrate`); lineage follows the test from there through git history. Null when unknown.
   */
  readonly commit: string | null;
  /** The test's own duration limit; null for an entry that only quarantines its test. */
  readonly budget: PlatformValue<number> | null;
  /** Why the test may take longer (with `budget`); '' for a quarantine-only entry. */
  readonly reason: string;
  /** The test's quarantine (docs/quarantine.md), or null. */
  readonly quarantine: QuarantineTerms | null;
  /** YYYY-MM-DD */
  readonly added: string;
  readonly expires: string | null;
  /** The allowance file that holds the entry (relative to the root) and where the entry starts. */
  readonly at: { readonly storeFile: string; readonly line: number; readonly column: number };
}

export interface AllowanceProblem {
  readonly kind: 'syntax' | 'invalid' | 'duplicate-id';
  /** file:line:column */
  readonly where: string;
  readonly message: string;
  /** The entry's id when it has one. */
  readonly id: string | null;
}

export interface ParsedAllowanceFile {
  readonly allowances: readonly Allowance[];
  readonly problems: readonly AllowanceProblem[];
}

export const ALLOWANCE_KEYS = [
  'id',
  'test',
  'file',
  'fingerprint',
  'commit',
  'budget',
  'reason',
  'quarantine',
  'added',
  'expires',
] as const;
const ID_RE = /^[0-9a-f]{4,32}$/;
export const FINGERPRINT_RE = /^[0-9a-f]{16}$/;
const COMMIT_RE = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** `allowances/test/hub/tracker.test.ts.yaml` for `test/hub/tracker.test.ts`. */
export function allowanceFileFor(folder: string, testFile: string): string {
  return `${folder}/${testFile}.yaml`;
}

/** The test file an allowance file mirrors, or null when the path is not `<folder>/….yaml`. */
export function testFileOf(folder: string, storeFile: string): string | null {
  const prefix = `${folder}/`;
  if (!storeFile.startsWith(prefix) || !storeFile.endsWith('.yaml')) return null;
  return storeFile.slice(prefix.length, -'.yaml'.length);
}

/** A project-relative path that stays inside the project: no absolute path, no `..` step out. */
export function isInsideProject(file: string): boolean {
  if (file === '' || file.startsWith('/') || /^[a-zA-Z]:/.test(file) || file.includes('\\')) return false;
  let depth = 0;
  for (const part of file.split('/')) {
    if (part === '..') depth--;
    else if (part !== '.' && part !== '') depth++;
    if (depth < 0) return false;
  }
  return depth > 0;
}

export function isValidDate(text: string): boolean {
  return isIsoDay(text);
}

function text(map: YAMLMap, key: string): { value: string | null; node: Node | null } {
  const node = map.get(key, true) as Node | undefined;
  if (node === undefined) return { value: null, node: null };
  if (!isScalar(node)) return { value: null, node };
  const v = node.value;
  return { value: typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null, node };
}

type Fail = (message: string) => void;

function parseEntry(
  item: YAMLMap,
  where: (n: Node | null | undefined) => string,
  storeFile: string,
  pos: { line: number; col: number },
  fail: Fail,
): Allowance | null {
  const at = where(item);
  let ok = true;
  const bad = (message: string): void => {
    ok = false;
    fail(message);
  };
  for (const pair of item.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (!(ALLOWANCE_KEYS as readonly string[]).includes(key)) {
      bad(`${where(pair.key as Node)}: unknown key "${key}"; an allowance has ${ALLOWANCE_KEYS.join(', ')}`);
    }
  }
  /** A required value; the test name is kept exactly as written (spaces at its ends included). */
  const required = (key: string, hint: string): string => {
    const { value, node } = text(item, key);
    if (value === null || value.trim() === '') {
      bad(`${node ? where(node) : at}: ${key} is missing or empty; ${hint}`);
      return '';
    }
    return key === 'test' ? value : value.trim();
  };
  const id = required('id', 'give the entry a short hex id (flakeguard allowances add writes one)');
  if (id !== '' && !ID_RE.test(id))
    bad(`${where(item.get('id', true) as Node)}: id "${id}" must be 4 to 32 lowercase hex digits, e.g. a1b2c3d4`);
  const test = required('test', 'write the full name of the test, titles joined with " > "');
  const file = required('file', 'write the test file, relative to the project root');
  if (file !== '' && !isInsideProject(file)) {
    bad(
      `${where(item.get('file', true) as Node)}: file "${file}" is outside the project; write a path relative to the project root, e.g. test/hub/tracker.test.ts`,
    );
  }
  const fp = text(item, 'fingerprint');
  if (fp.node && (fp.value === null || !FINGERPRINT_RE.test(fp.value))) {
    bad(
      `${where(fp.node)}: fingerprint "${fp.value ?? ''}" is not 16 hex digits; remove it and run flakeguard allowances migrate to record it again`,
    );
  }
  const commit = text(item, 'commit');
  if (commit.node && (commit.value === null || !COMMIT_RE.test(commit.value))) {
    bad(
      `${where(commit.node)}: commit "${commit.value ?? ''}" is not a full commit id; remove it and run flakeguard allowances migrate to record it again`,
    );
  }
  const budgetNode = item.get('budget', true);
  const quarantineNode = item.get('quarantine', true);
  const quarantine = quarantineNode === undefined ? null : parseQuarantineTerms(quarantineNode, where, bad);
  let budget: PlatformValue<number> | null = null;
  if (budgetNode === undefined && quarantineNode === undefined) {
    bad(
      `${at}: budget is missing; write a duration such as 7s, or a map by platform { linux: 7s, default: 5s } (or a quarantine: map, docs/quarantine.md)`,
    );
  } else if (budgetNode !== undefined) {
    try {
      budget = parsePlatformDuration(budgetNode, where, 'budget');
    } catch (error) {
      if (!isFlakeguardError(error)) throw error;
      bad(error.message);
    }
  }
  const reason =
    budgetNode === undefined && text(item, 'reason').node === null
      ? ''
      : required('reason', 'say why this test may take longer than the budget');
  const added = required('added', 'write the date the allowance was added, YYYY-MM-DD');
  if (added !== '' && !isValidDate(added))
    bad(`${where(item.get('added', true) as Node)}: added "${added}" is not a date; write YYYY-MM-DD`);
  const ex = text(item, 'expires');
  if (ex.node && (ex.value === null || !isValidDate(ex.value))) {
    bad(`${where(ex.node)}: expires "${ex.value ?? ''}" is not a date; write YYYY-MM-DD`);
  }
  if (!ok || (budget === null && quarantine === null)) return null;
  return {
    id,
    test,
    file,
    fingerprint: fp.value,
    commit: commit.value,
    budget,
    reason,
    quarantine,
    added,
    expires: ex.value,
    at: { storeFile, line: pos.line, column: pos.col },
  };
}

/** Parses one allowance file. `storeFile` is its path relative to the root, used in messages. */
export function parseAllowanceFile(source: string, storeFile: string): ParsedAllowanceFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const where = makeLocator(storeFile, lineCounter);
  const firstError = doc.errors[0];
  if (firstError) {
    const pos = lineCounter.linePos(firstError.pos[0]);
    const at = `${storeFile}:${pos.line}:${pos.col}`;
    const message = `YAML syntax error: ${firstError.message.split('\n')[0]}; fix the YAML, no entry of this file applies until then`;
    return { allowances: [], problems: [{ kind: 'syntax', where: at, message, id: null }] };
  }
  const contents = doc.contents;
  if (contents === null || (isScalar(contents) && contents.value === null)) return { allowances: [], problems: [] };
  if (!isSeq(contents)) {
    return {
      allowances: [],
      problems: [
        {
          kind: 'invalid',
          where: where(contents),
          message: 'an allowance file must be a list of entries (- id: …)',
          id: null,
        },
      ],
    };
  }
  const allowances: Allowance[] = [];
  const problems: AllowanceProblem[] = [];
  const seen = new Map<string, string>();
  for (const item of contents.items) {
    const itemWhere = where(item as Node);
    if (!isMap(item)) {
      problems.push({
        kind: 'invalid',
        where: itemWhere,
        message: 'an entry must be a map with id, test, file, budget, reason, added',
        id: null,
      });
      continue;
    }
    const idNode = item.get('id', true);
    const rawId = isScalar(idNode) ? String(idNode.value) : null;
    const pos = lineCounter.linePos(item.range?.[0] ?? 0);
    const entry = parseEntry(item, where, storeFile, pos, (message) => {
      const m = /^(\S+:\d+:\d+): ([\s\S]*)$/.exec(message);
      problems.push({ kind: 'invalid', where: m?.[1] ?? itemWhere, message: m?.[2] ?? message, id: rawId });
    });
    if (entry === null) continue;
    const first = seen.get(entry.id);
    if (first !== undefined) {
      problems.push({
        kind: 'duplicate-id',
        where: itemWhere,
        message: `id "${entry.id}" is already used at ${first}; give this entry a new id`,
        id: entry.id,
      });
      continue;
    }
    seen.set(entry.id, itemWhere);
    allowances.push(entry);
  }
  return { allowances, problems };
}

/**
 * Keeps the first entry for each id across files (files in path order) and reports the others as
 * duplicates; a duplicated id cannot be named in notices or pruned safely.
 */
export function dedupeAllowances(files: readonly ParsedAllowanceFile[]): ParsedAllowanceFile {
  const allowances: Allowance[] = [];
  const problems: AllowanceProblem[] = [];
  const seen = new Map<string, Allowance>();
  for (const file of files) {
    problems.push(...file.problems);
    for (const a of file.allowances) {
      const first = seen.get(a.id);
      if (first) {
        const firstAt = `${first.at.storeFile}:${first.at.line}:${first.at.column}`;
        problems.push({
          kind: 'duplicate-id',
          where: `${a.at.storeFile}:${a.at.line}:${a.at.column}`,
          message: `id "${a.id}" is already used at ${firstAt}; give this entry a new id`,
          id: a.id,
        });
        continue;
      }
      seen.set(a.id, a);
      allowances.push(a);
    }
  }
  return { allowances, problems };
}

/** True when `expires` is set and `today` (YYYY-MM-DD) is after it. */
export function isExpired(allowance: Pick<Allowance, 'expires'>, today: string): boolean {
  return allowance.expires !== null && hasExpired(allowance.expires, today);
}

export function formatWhere(a: Allowance): string {
  return `${a.at.storeFile}:${a.at.line}:${a.at.column}`;
}
