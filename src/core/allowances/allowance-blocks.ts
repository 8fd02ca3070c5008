/**
 * Where each entry of an allowance file stands in its text, to edit it in place (allowance-edit.ts).
 * An entry's block is its lines plus the comment lines directly above it (no blank line between),
 * except a comment at the very top of the file, which is the file's header; comment lines indented
 * past the entry's dash right after it are the entry's own.
 */
import { isMap, isScalar, isSeq, type Node, parseDocument, type YAMLMap, type YAMLSeq } from 'yaml';
import { FlakeguardError } from '../errors.js';

export interface EntryBlock {
  readonly id: string;
  readonly fullName: string;
  /** Offsets of the block (comment lines above included) and of the entry's own lines. */
  readonly blockStart: number;
  readonly entryStart: number;
  readonly end: number;
  readonly map: YAMLMap;
}

export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

export function afterLine(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl === -1 ? text.length : nl + 1;
}

function scalarText(map: YAMLMap, key: string): string {
  const node = map.get(key, true);
  return isScalar(node) ? String(node.value) : '';
}

/** The indent of an entry's keys (2 when it has none). */
export function entryIndent(text: string, block: EntryBlock): number {
  const firstKey = block.map.items[0]?.key as Node | undefined;
  return firstKey?.range ? firstKey.range[0] - lineStart(text, firstKey.range[0]) : 2;
}

/** The file's list of entries, or null when it has none; throws when flakeguard cannot edit it. */
function entryList(text: string, where: string): YAMLSeq | null {
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0) {
    throw new FlakeguardError(
      'ALLOWANCE_INVALID',
      `${where}: not valid YAML; fix it before flakeguard edits this file (flakeguard allowances check shows where)`,
    );
  }
  const contents = doc.contents;
  if (contents === null || (isScalar(contents) && contents.value === null)) return null;
  if (!isSeq(contents))
    throw new FlakeguardError('ALLOWANCE_INVALID', `${where}: an allowance file must be a list of entries`);
  if (contents.flow) {
    if (contents.items.length === 0) return null;
    throw new FlakeguardError(
      'ALLOWANCE_INVALID',
      `${where}: write the entries as a block list (- id: …), not [ … ], so flakeguard can edit it`,
    );
  }
  return contents;
}

/** Where the entry's lines end: its last line, then the comment lines indented past its dash. */
function entryEnd(text: string, entryStart: number, rangeEnd: number): number {
  let last = rangeEnd - 1;
  while (last > entryStart && /\s/.test(text[last] ?? '')) last--;
  let end = afterLine(text, last);
  const dashIndent =
    entryStart - lineStart(text, entryStart) + (/^[ \t]*/.exec(text.slice(entryStart))?.[0].length ?? 0);
  while (end < text.length) {
    const line = text.slice(end, afterLine(text, end));
    const indent = /^[ \t]*/.exec(line)?.[0].length ?? 0;
    if (!/^\s*#/.test(line) || indent <= dashIndent) break;
    end = afterLine(text, end);
  }
  return end;
}

/** Where the block starts: the comment lines right above the entry, back to the previous block. */
function blockStartOf(text: string, entryStart: number, previousEnd: number, first: boolean): number {
  let blockStart = entryStart;
  for (;;) {
    if (blockStart <= previousEnd) break;
    const prev = lineStart(text, blockStart - 1);
    if (!/^\s*#/.test(text.slice(prev, blockStart))) break;
    blockStart = prev;
  }
  // A comment at the very top of the file is the file's header, not the first entry's.
  return blockStart === 0 && entryStart !== 0 && first ? entryStart : blockStart;
}

/** The blocks of the file's entries in file order; throws when the file is not a list. */
export function entryBlocks(text: string, where: string): EntryBlock[] {
  const list = entryList(text, where);
  if (list === null) return [];
  const blocks: EntryBlock[] = [];
  let previousEnd = 0;
  for (const item of list.items) {
    if (!isMap(item) || !item.range) continue;
    let entryStart = lineStart(text, item.range[0]);
    const dashLine = lineStart(text, entryStart - 1);
    if (entryStart > 0 && /^\s*-\s*$/.test(text.slice(dashLine, entryStart - 1))) entryStart = dashLine;
    const end = entryEnd(text, entryStart, item.range[1]);
    const blockStart = blockStartOf(text, entryStart, previousEnd, blocks.length === 0);
    blocks.push({
      id: scalarText(item, 'id'),
      fullName: scalarText(item, 'test'),
      blockStart,
      entryStart,
      end,
      map: item,
    });
    previousEnd = end;
  }
  return blocks;
}
