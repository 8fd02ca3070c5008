/**
 * Edits of an allowance file's text that keep every byte they do not mean to change: an entry is
 * inserted, removed or has a value replaced in place, and the rest of the file (other entries,
 * comments, quoting, blank lines) is copied as it was. Entries are kept sorted by test name, then id.
 * Each entry's block (its lines and its comments) is found by allowance-blocks.ts.
 */
import { isScalar, isSeq, type Node, parseDocument } from 'yaml';
import { FlakeguardError } from '../errors.js';
import { afterLine, type EntryBlock, entryBlocks, entryIndent, lineStart } from './allowance-blocks.js';
import { type NewAllowanceEntry, serializeEntry } from './allowance-serialize.js';
import { yamlScalar } from './allowance-text.js';

export { yamlScalar } from './allowance-text.js';

function compareEntries(a: { fullName: string; id: string }, b: { fullName: string; id: string }): number {
  if (a.fullName !== b.fullName) return a.fullName < b.fullName ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Inserts an entry block (its text, ending in a newline) at its sorted place. */
export function insertEntryText(
  text: string,
  entryText: string,
  key: { fullName: string; id: string },
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
  const indent = entryIndent(text, block);
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
  if (changes.test === undefined || changes.test === block.fullName) return out;
  const moved = entryBlockText(out, id, where) as string;
  const without = removeEntries(out, new Set([id]), where);
  return insertEntryText(without, moved, { fullName: changes.test, id }, where);
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
  const indent = ' '.repeat(entryIndent(text, block));
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
