/** Small syntax helpers for test-source.ts: parser plugins by file type, callee chains, modes. */
import type { AstNode } from './fingerprint.js';

export type SourceTestMode = 'run' | 'skip' | 'only' | 'todo';

export type N = AstNode & Record<string, unknown>;

export function pluginsFor(file: string): ('typescript' | 'jsx' | 'decorators-legacy')[] {
  if (/\.(c|m)?tsx$/.test(file)) return ['typescript', 'jsx', 'decorators-legacy'];
  if (/\.(c|m)?ts$/.test(file)) return ['typescript', 'decorators-legacy'];
  return ['jsx'];
}

/** Walks member expressions down to an identifier: `it.concurrent.skip` -> it, [concurrent, skip]. */
export function chainOf(node: N): { base: string; props: string[]; last: N } | null {
  const props: string[] = [];
  let cur: N = node;
  let last = node;
  while (cur.type === 'MemberExpression' && cur['computed'] !== true) {
    const prop = cur['property'] as N;
    if (prop.type !== 'Identifier') return null;
    props.unshift(prop['name'] as string);
    if (props.length === 1) last = prop;
    cur = cur['object'] as N;
  }
  if (cur.type !== 'Identifier') return null;
  return { base: cur['name'] as string, props, last: props.length ? last : cur };
}

export function modeOf(props: readonly string[]): SourceTestMode {
  if (props.includes('todo')) return 'todo';
  if (props.includes('skip')) return 'skip';
  if (props.includes('only')) return 'only';
  return 'run';
}
