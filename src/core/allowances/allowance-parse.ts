/**
 * An allowance file parsed from text (pure): a YAML list of entries, each checked in
 * allowance-entry.ts. Every problem names file:line:column; a bad entry is skipped and the others
 * still load. A file that is not valid YAML loads nothing (its entries cannot be told apart safely).
 */

import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import { type Locate, makeLocator } from '../yaml-values.js';
import { type Allowance, type AllowanceProblem, duplicateIdProblem, type ParsedAllowanceFile } from './allowance.js';
import { parseEntry } from './allowance-entry.js';

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
  return parseEntries(contents.items, where, storeFile, lineCounter);
}

/** Each entry of the list, the bad ones and those whose id is taken already as problems. */
function parseEntries(
  items: readonly unknown[],
  where: Locate,
  storeFile: string,
  lineCounter: LineCounter,
): ParsedAllowanceFile {
  const allowances: Allowance[] = [];
  const problems: AllowanceProblem[] = [];
  const seen = new Map<string, string>();
  for (const item of items) {
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
      problems.push(duplicateIdProblem(entry.id, itemWhere, first));
      continue;
    }
    seen.set(entry.id, itemWhere);
    allowances.push(entry);
  }
  return { allowances, problems };
}
