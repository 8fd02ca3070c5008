/**
 * Edits of an allowance file's text that keep every byte they do not mean to change: an entry is
 * inserted, removed or has a value replaced in place, and the rest of the file (other entries,
 * comments, quoting, blank lines) is copied as it was. Entries are kept sorted by test name, then id.
 *
 * An entry's block is its lines plus the comment lines directly above it (no blank line between),
 * except a comment at the very top of the file, which is the file's header.
 */
import { isMap, isScalar, isSeq, type Node, parseDocument, type YAMLMap } from 'yaml';
import { serializeDuration } from '../duration.js';
import { FlakeguardError } from '../errors.js';
import type { PlatformValue } from '../platform-value.js';
import { type QuarantineTerms, quarantineTermsToYaml } from '../quarantine/quarantine-terms.js';
import type { Allowance } from './allowance.js';
import { yamlScalar } from './allowance-text.js';

export { yamlScalar } from './allowance-text.js';

/** An entry to write: an allowance without its place in a file (it has none yet). */
export type NewAllowanceEntry = Omit<Allowance, 'at' | 'commit' | 'quarantine'> & {
  readonly commit?: string | null;
  readonly quarantine?: QuarantineTerms | null;
};

export interface EntryBlock {
  readonly id: string;
  readonly test: string;
  /** Offsets of the block (comment lines above included) and of the entry's own lines. */
  readonly blockStart: number;
  readonly entryStart: number;
  readonly end: number;
  readonly map: YAMLMap;
}

export function serializeBudget(budget: PlatformValue<number>): string {
  if (budget.kind === 'single') return serializeDuration(budget.value);
  const parts = Object.entries(budget.values).map(([k, v]) => `${k}: ${serializeDuration(v)}`);
  return `{ ${parts.join(', ')} }`;
}

export function serializeEntry(entry: NewAllowanceEntry): string {
  const lines = [
    `- id: ${yamlScalar(entry.id)}`,
    `  test: ${yamlScalar(entry.test)}`,
    `  file: ${yamlScalar(entry.file)}`,
    ...(entry.fingerprint === null ? [] : [`  fingerprint: ${yamlScalar(entry.fingerprint)}`]),
    ...(entry.commit === null || entry.commit === undefined ? [] : [`  commit: ${yamlScalar(entry.commit)}`]),
    ...(entry.budget === null
      ? []
      : [`  budget: ${serializeBudget(entry.budget)}`, `  reason: ${yamlScalar(entry.reason)}`]),
    ...(entry.quarantine ? serializeQuarantine(entry.quarantine, '  ') : []),
    `  added: ${yamlScalar(entry.added)}`,
    ...(entry.expires === null ? [] : [`  expires: ${yamlScalar(entry.expires)}`]),
  ];
  return `${lines.join('\n')}\n`;
}

/** The `quarantine:` lines of an entry, each value on one line (read back exactly). */
export function serializeQuarantine(terms: QuarantineTerms, indent = ''): string[] {
  return [
    `${indent}quarantine:`,
    ...Object.entries(quarantineTermsToYaml(terms)).map(([k, v]) => `${indent}  ${k}: ${yamlScalar(v)}`),
  ];
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function afterLine(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl === -1 ? text.length : nl + 1;
}

function scalarText(map: YAMLMap, key: string): string {
  const node = map.get(key, true);
  return isScalar(node) ? String(node.value) : '';
}

/** The blocks of the file's entries in file order; throws when the file is not a list. */
export function entryBlocks(text: string, where: string): EntryBlock[] {
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0) {
    throw new FlakeguardError(
      'ALLOWANCE_INVALID',
      `${where}: not valid YAML; fix it before flakeguard edits this file (flakeguard allowances check shows where)`,
    );
  }
  const contents = doc.contents;
  if (contents === null || (isScalar(contents) && contents.value === null)) return [];
  if (!isSeq(contents))
    throw new FlakeguardError('ALLOWANCE_INVALID', `${where}: an allowance file must be a list of entries`);
  if (contents.flow) {
    if (contents.items.length === 0) return [];
    throw new FlakeguardError(
      'ALLOWANCE_INVALID',
      `${where}: write the entries as a block list (- id: …), not [ … ], so flakeguard can edit it`,
    );
  }
  const blocks: EntryBlock[] = [];
  let previousEnd = 0;
  for (const item of contents.items) {
    if (!isMap(item) || !item.range) continue;
    let entryStart = lineStart(text, item.range[0]);
    const dashLine = lineStart(text, entryStart - 1);
    if (entryStart > 0 && /^\s*-\s*$/.test(text.slice(dashLine, entryStart - 1))) entryStart = dashLine;
    let last = item.range[1] - 1;
    while (last > entryStart && /\s/.test(text[last] ?? '')) last--;
    let end = afterLine(text, last);
    // Comment lines indented past the entry's dash (`  # expires: …`) right after it are its own.
    const dashIndent =
      entryStart - lineStart(text, entryStart) + (/^[ \t]*/.exec(text.slice(entryStart))?.[0].length ?? 0);
    while (end < text.length) {
      const line = text.slice(end, afterLine(text, end));
      const indent = /^[ \t]*/.exec(line)?.[0].length ?? 0;
      if (!/^\s*#/.test(line) || indent <= dashIndent) break;
      end = afterLine(text, end);
    }
    let blockStart = entryStart;
    for (;;) {
      if (blockStart <= previousEnd) break;
      const prev = lineStart(text, blockStart - 1);
      if (!/^\s*#/.test(text.slice(prev, blockStart))) break;
      blockStart = prev;
    }
    if (blockStart === 0 && entryStart !== 0 && blocks.length === 0) blockStart = entryStart;
    blocks.push({ id: scalarText(item, 'id'), test: scalarText(item, 'test'), blockStart, entryStart, end, map: item });
    previousEnd = end;
  }
  return blocks;
}

function compareEntries(a: { test: string; id: string }, b: { test: string; id: string }): number {
  if (a.test !== b.test) return a.test < b.test ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Inserts an entry block (its text, ending in a newline) at its sorted place. */
export function insertEntryText(
  text: string,
  entryText: string,
  key: { test: string; id: string },
  where: string,
): string {
  const blocks = entryBlocks(text, where);
  const next = blocks.find((b) => compareEntries(key, b) < 0);
  if (blocks.length === 0) {
    const contents = parseDocument(text).contents;
    // An empty flow list `[]` (what prune leaves behind in a hand-written file) makes way for a block list.
    const base =
      isSeq(contents) && contents.flow && contents.range
        ? text.slice(0, contents.range[0]) + text.slice(contents.range[1])
        : text;
    const trimmed = base.trim() === '' ? '' : base;
    const sep = trimmed === '' || trimmed.endsWith('\n') ? '' : '\n';
    return `${trimmed}${sep}${entryText}`;
  }
  if (next) return text.slice(0, next.blockStart) + entryText + text.slice(next.blockStart);
  const sep = text.endsWith('\n') ? '' : '\n';
  const last = blocks[blocks.length - 1] as EntryBlock;
  return text.slice(0, last.end) + (last.end === text.length ? sep : '') + entryText + text.slice(last.end);
}

export function insertEntry(text: string, entry: NewAllowanceEntry, where: string): string {
  return insertEntryText(text, serializeEntry(entry), entry, where);
}

/** Removes the entries with these ids (their blocks); the rest stays byte for byte. */
export function removeEntries(text: string, ids: ReadonlySet<string>, where: string): string {
  const blocks = entryBlocks(text, where).filter((b) => ids.has(b.id));
  let out = text;
  for (const b of [...blocks].reverse()) out = out.slice(0, b.blockStart) + out.slice(b.end);
  return out;
}

/** The text of one entry's block, to move it to another file. */
export function entryBlockText(text: string, id: string, where: string): string | null {
  const block = entryBlocks(text, where).find((b) => b.id === id);
  if (!block) return null;
  const body = text.slice(block.blockStart, block.end);
  return body.endsWith('\n') ? body : `${body}\n`;
}

export type EntryChanges = Partial<Record<'test' | 'file' | 'fingerprint' | 'commit', string>>;

/**
 * Runs a text edit written for `\n` lines on a file that may use `\r\n`: a CRLF file stays CRLF
 * (the lines the edit adds included).
 */
export function keepLineEndings(text: string, edit: (lf: string) => string): string {
  if (!text.includes('\r\n')) return edit(text);
  return edit(text.replace(/\r\n/g, '\n')).replace(/\n/g, '\r\n');
}

/**
 * Replaces the values of `test`, `file`, `fingerprint`, `commit` of one entry in place (adding a missing key
 * as the entry's last line), then moves the block if its sorted place changed.
 */
export function updateEntry(text: string, id: string, changes: EntryChanges, where: string): string {
  const block = entryBlocks(text, where).find((b) => b.id === id);
  if (!block) throw new FlakeguardError('ALLOWANCE_INVALID', `${where}: no entry with id "${id}"`);
  const edits: { start: number; end: number; text: string }[] = [];
  const firstKey = block.map.items[0]?.key as Node | undefined;
  const indent = firstKey?.range ? firstKey.range[0] - lineStart(text, firstKey.range[0]) : 2;
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    const node = block.map.get(key, true);
    if (isScalar(node) && node.range) {
      if (String(node.value) !== value)
        edits.push({ start: node.range[0], end: node.range[1], text: yamlScalar(value) });
    } else if (node === undefined) {
      edits.push({
        start: block.end,
        end: block.end,
        text: `${text.endsWith('\n') || block.end < text.length ? '' : '\n'}${' '.repeat(indent)}${key}: ${yamlScalar(value)}\n`,
      });
    } else {
      throw new FlakeguardError(
        'ALLOWANCE_INVALID',
        `${where}: ${key} of entry "${id}" is not a single value; fix it by hand`,
      );
    }
  }
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  if (changes.test === undefined || changes.test === block.test) return out;
  const moved = entryBlockText(out, id, where) as string;
  const without = removeEntries(out, new Set([id]), where);
  return insertEntryText(without, moved, { test: changes.test, id }, where);
}

/** Offsets of a key's lines in an entry: from the key's line to the end of its value's last line. */
function keySpan(text: string, block: EntryBlock, key: string): { start: number; end: number } | null {
  const pair = block.map.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
  const keyNode = pair?.key as Node | undefined;
  if (!pair || !keyNode?.range) return null;
  const value = pair.value as Node | null;
  let last = (value?.range?.[1] ?? keyNode.range[1]) - 1;
  while (last > keyNode.range[0] && /\s/.test(text[last] ?? '')) last--;
  return { start: lineStart(text, keyNode.range[0]), end: Math.min(afterLine(text, last), block.end) };
}

/**
 * Sets a key of one entry to the given lines (the key's own line first, written at the entry's
 * indent): replaces the key's lines when it has one, else adds them as the entry's last lines.
 */
export function setEntryKey(text: string, id: string, key: string, lines: readonly string[], where: string): string {
  const block = entryBlocks(text, where).find((b) => b.id === id);
  if (!block) throw new FlakeguardError('ALLOWANCE_INVALID', `${where}: no entry with id "${id}"`);
  const firstKey = block.map.items[0]?.key as Node | undefined;
  const indent = ' '.repeat(firstKey?.range ? firstKey.range[0] - lineStart(text, firstKey.range[0]) : 2);
  const body = lines.map((l) => `${indent}${l}\n`).join('');
  const span = keySpan(text, block, key);
  if (span) return text.slice(0, span.start) + body + text.slice(span.end);
  const sep = block.end === text.length && !text.endsWith('\n') ? '\n' : '';
  return text.slice(0, block.end) + sep + body + text.slice(block.end);
}

/** Removes a key (its lines) from one entry; the rest of the file stays byte for byte. */
export function removeEntryKey(text: string, id: string, key: string, where: string): string {
  const block = entryBlocks(text, where).find((b) => b.id === id);
  const span = block ? keySpan(text, block, key) : null;
  return span ? text.slice(0, span.start) + text.slice(span.end) : text;
}
