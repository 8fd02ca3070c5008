/** A walk over a parsed test file for the source-signal rules: every node with its ancestors. Pure. */
import type { Node } from '@babel/types';
import { isNode } from '../source/fingerprint.js';

const SKIP = new Set(['loc', 'extra', 'start', 'end', 'leadingComments', 'trailingComments', 'innerComments']);

/** Visits every node under `node` with its ancestors (outermost first). */
export function walkWithParents(node: Node, visit: (n: Node, parents: readonly Node[]) => void): void {
  const parents: Node[] = [];
  const go = (n: Node): void => {
    visit(n, parents);
    parents.push(n);
    const fields = n as unknown as Record<string, unknown>;
    for (const key of Object.keys(n)) {
      if (SKIP.has(key)) continue;
      const value = fields[key];
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) go(item);
      } else if (isNode(value)) go(value);
    }
    parents.pop();
  };
  go(node);
}
