/**
 * One entry of an allowance file, checked key by key (docs/allowances.md). Every problem names
 * file:line:column; an entry with any problem is skipped. Pure.
 */

import { isScalar, type Node, type YAMLMap } from 'yaml';
import { isIsoDay } from '../calendar.js';
import { isFlakeguardError } from '../errors.js';
import type { PlatformValue } from '../platform-value.js';
import { type Locate, parsePlatformDuration } from '../yaml-values.js';
import { type Allowance, isInsideProject } from './allowance.js';
import { parseQuarantineTerms, type QuarantineTerms } from './quarantine-terms.js';

const ALLOWANCE_KEYS = [
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
const FINGERPRINT_RE = /^[0-9a-f]{16}$/;
const COMMIT_RE = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

function isValidDate(text: string): boolean {
  return isIsoDay(text);
}

type Fail = (message: string) => void;

/** One entry as it is read: its map, where it stands, and the problems found so far. */
interface EntryReader {
  readonly item: YAMLMap;
  readonly where: Locate;
  /** Where the entry starts (file:line:column). */
  readonly at: string;
  readonly bad: Fail;
  /** False once a problem was found. */
  readonly ok: () => boolean;
}

function makeEntryReader(item: YAMLMap, where: Locate, fail: Fail): EntryReader {
  let ok = true;
  const bad = (message: string): void => {
    ok = false;
    fail(message);
  };
  return { item, where, at: where(item), bad, ok: () => ok };
}

function text(map: YAMLMap, key: string): { value: string | null; node: Node | null } {
  const node = map.get(key, true) as Node | undefined;
  if (node === undefined) return { value: null, node: null };
  if (!isScalar(node)) return { value: null, node };
  const v = node.value;
  return { value: typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null, node };
}

/** A required value; the test name is kept exactly as written (spaces at its ends included). */
function readRequired(r: EntryReader, key: string, hint: string): string {
  const { value, node } = text(r.item, key);
  if (value === null || value.trim() === '') {
    r.bad(`${node ? r.where(node) : r.at}: ${key} is missing or empty; ${hint}`);
    return '';
  }
  return key === 'test' ? value : value.trim();
}

function checkKeys(r: EntryReader): void {
  for (const pair of r.item.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (!(ALLOWANCE_KEYS as readonly string[]).includes(key)) {
      r.bad(`${r.where(pair.key as Node)}: unknown key "${key}"; an allowance has ${ALLOWANCE_KEYS.join(', ')}`);
    }
  }
}

/** id, test and file: which test the entry is for. */
function readIdentity(r: EntryReader): { id: string; test: string; file: string } {
  const id = readRequired(r, 'id', 'give the entry a short hex id (flakeguard allowances add writes one)');
  if (id !== '' && !ID_RE.test(id))
    r.bad(`${r.where(r.item.get('id', true) as Node)}: id "${id}" must be 4 to 32 lowercase hex digits, e.g. a1b2c3d4`);
  const test = readRequired(r, 'test', 'write the full name of the test, titles joined with " > "');
  const file = readRequired(r, 'file', 'write the test file, relative to the project root');
  if (file !== '' && !isInsideProject(file)) {
    r.bad(
      `${r.where(r.item.get('file', true) as Node)}: file "${file}" is outside the project; write a path relative to the project root, e.g. test/hub/tracker.test.ts`,
    );
  }
  return { id, test, file };
}

/** fingerprint and commit: where lineage starts (written by add and migrate). */
function readLineageStart(r: EntryReader): { fingerprint: string | null; commit: string | null } {
  const fp = text(r.item, 'fingerprint');
  if (fp.node && (fp.value === null || !FINGERPRINT_RE.test(fp.value))) {
    r.bad(
      `${r.where(fp.node)}: fingerprint "${fp.value ?? ''}" is not 16 hex digits; remove it and run flakeguard allowances migrate to record it again`,
    );
  }
  const commit = text(r.item, 'commit');
  if (commit.node && (commit.value === null || !COMMIT_RE.test(commit.value))) {
    r.bad(
      `${r.where(commit.node)}: commit "${commit.value ?? ''}" is not a full commit id; remove it and run flakeguard allowances migrate to record it again`,
    );
  }
  return { fingerprint: fp.value, commit: commit.value };
}

/** budget, quarantine and reason: what the entry grants its test, and why. */
function readTerms(r: EntryReader): {
  budget: PlatformValue<number> | null;
  quarantine: QuarantineTerms | null;
  reason: string;
} {
  const budgetNode = r.item.get('budget', true);
  const quarantineNode = r.item.get('quarantine', true);
  const quarantine = quarantineNode === undefined ? null : parseQuarantineTerms(quarantineNode, r.where, r.bad);
  let budget: PlatformValue<number> | null = null;
  if (budgetNode === undefined && quarantineNode === undefined) {
    r.bad(
      `${r.at}: budget is missing; write a duration such as 7s, or a map by platform { linux: 7s, default: 5s } (or a quarantine: map, docs/quarantine.md)`,
    );
  } else if (budgetNode !== undefined) {
    try {
      budget = parsePlatformDuration(budgetNode, r.where, 'budget');
    } catch (error) {
      if (!isFlakeguardError(error)) throw error;
      r.bad(error.message);
    }
  }
  const reason =
    budgetNode === undefined && text(r.item, 'reason').node === null
      ? ''
      : readRequired(r, 'reason', 'say why this test may take longer than the budget');
  return { budget, quarantine, reason };
}

/** added and expires: the entry's dates. */
function readDates(r: EntryReader): { added: string; expires: string | null } {
  const added = readRequired(r, 'added', 'write the date the allowance was added, YYYY-MM-DD');
  if (added !== '' && !isValidDate(added))
    r.bad(`${r.where(r.item.get('added', true) as Node)}: added "${added}" is not a date; write YYYY-MM-DD`);
  const ex = text(r.item, 'expires');
  if (ex.node && (ex.value === null || !isValidDate(ex.value))) {
    r.bad(`${r.where(ex.node)}: expires "${ex.value ?? ''}" is not a date; write YYYY-MM-DD`);
  }
  return { added, expires: ex.value };
}

/** The entry, or null when a problem was found (each one passed to `fail`) or it grants nothing. */
export function parseEntry(
  item: YAMLMap,
  where: Locate,
  storeFile: string,
  pos: { line: number; col: number },
  fail: Fail,
): Allowance | null {
  const r = makeEntryReader(item, where, fail);
  checkKeys(r);
  const { id, test, file } = readIdentity(r);
  const { fingerprint, commit } = readLineageStart(r);
  const { budget, quarantine, reason } = readTerms(r);
  const { added, expires } = readDates(r);
  if (!r.ok() || (budget === null && quarantine === null)) return null;
  return {
    id,
    fullName: test,
    file,
    fingerprint,
    commit,
    budget,
    reason,
    quarantine,
    added,
    expires,
    at: { storeFile, line: pos.line, column: pos.col },
  };
}
