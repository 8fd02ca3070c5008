/**
 * The fingerprint of a test: a hash of its body's syntax tree with positions, comments, quotes,
 * parentheses and number spelling left out, so reformatting or commenting a test keeps it, and a
 * changed literal, identifier, operator or statement changes it.
 *
 * Hash: "cyrb64", two 32-bit multiply-xor lanes over UTF-16 code units (the cyrb53 construction by
 * bryc, public domain) finalised to 64 bits and printed as 16 hex digits. Not cryptographic: it tells
 * tests apart, it does not resist forgery. Pure JS, because src/core may not import node:crypto.
 */

import type { CallExpression, Node } from '@babel/types';

/**
 * What is fingerprinted: a Babel node (a test's callback), or the arguments after a test's title
 * when it has no callback.
 */
export type AstNode = Node | { readonly type: 'Arguments'; readonly args: CallExpression['arguments'] };

/** Keys that carry position, formatting or comments, never meaning. */
const SKIPPED_KEYS = new Set([
  'type',
  'start',
  'end',
  'loc',
  'range',
  'extra',
  'leadingComments',
  'trailingComments',
  'innerComments',
  'comments',
  'tokens',
  'errors',
]);

/** Incremental cyrb64: feed strings, then read the 16-hex-digit digest. */
class Cyrb64 {
  private h1 = 0xdeadbeef;
  private h2 = 0x41c6ce57;

  update(text: string): this {
    let h1 = this.h1;
    let h2 = this.h2;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    // A separator after each piece, so ["ab","c"] and ["a","bc"] differ.
    h1 = Math.imul(h1 ^ 0xffff, 2654435761);
    h2 = Math.imul(h2 ^ 0xffff, 1597334677);
    this.h1 = h1;
    this.h2 = h2;
    return this;
  }

  digest(): string {
    let h1 = this.h1;
    let h2 = this.h2;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
    h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
  }
}

export function hashText(text: string): string {
  return new Cyrb64().update(text).digest();
}

/** True for a value that is an AST node (has a string `type`). */
export function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

function feedValue(hash: Cyrb64, value: unknown): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    hash.update('[');
    for (const item of value) {
      if (item === null) hash.update('hole');
      else feedValue(hash, item);
    }
    hash.update(']');
    return;
  }
  if (isNode(value)) {
    feedNode(hash, value);
    return;
  }
  switch (typeof value) {
    case 'string':
      hash.update(`s${value}`);
      return;
    case 'number':
      hash.update(`n${value}`);
      return;
    case 'boolean':
      hash.update(value ? 't' : 'f');
      return;
    case 'bigint':
      hash.update(`b${value}`);
      return;
    default:
      return;
  }
}

function feedNode(hash: Cyrb64, node: AstNode): void {
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) {
    // `x` and 'x' are the same string: hash it as the StringLiteral it equals.
    const quasi = node.quasis[0]?.value;
    hash
      .update('StringLiteral')
      .update('value')
      .update(`s${quasi?.cooked ?? quasi?.raw ?? ''}`)
      .update(')');
    return;
  }
  hash.update(node.type);
  if (node.type === 'TemplateElement') {
    // value is { raw, cooked }: `\x41` and `A` mean the same text.
    hash.update(`s${node.value.cooked ?? node.value.raw}`);
    return;
  }
  // Every field, whatever the node type: the hash reads the tree generically.
  const fields = node as unknown as Readonly<Record<string, unknown>>;
  // Object.keys, not for-in: Babel's nodes inherit an enumerable `__clone`, which makes for-in slow.
  for (const key of Object.keys(node)) {
    if (SKIPPED_KEYS.has(key)) continue;
    const value = fields[key];
    if (value === null || value === undefined || value === false || typeof value === 'function') continue;
    hash.update(key);
    feedValue(hash, value);
  }
  hash.update(')');
}

/** The fingerprint of a syntax tree node (a test's callback, normally). */
export function fingerprintNode(node: AstNode): string {
  const hash = new Cyrb64();
  feedNode(hash, node);
  return hash.digest();
}
