/** Small syntax helpers for test-source.ts: parser plugins by file type, callee chains, modes. */
import type { Expression, Node, V8IntrinsicIdentifier } from '@babel/types';

export type SourceTestMode = 'run' | 'skip' | 'only' | 'todo';

export function pluginsFor(file: string): ('typescript' | 'jsx' | 'decorators-legacy')[] {
  if (/\.(c|m)?tsx$/.test(file)) return ['typescript', 'jsx', 'decorators-legacy'];
  if (/\.(c|m)?ts$/.test(file)) return ['typescript', 'decorators-legacy'];
  return ['jsx'];
}

/** Walks member expressions down to an identifier: `it.concurrent.skip` -> it, [concurrent, skip]. */
export function chainOf(
  node: Expression | V8IntrinsicIdentifier,
): { base: string; props: string[]; last: Node } | null {
  const props: string[] = [];
  let cur: Expression | V8IntrinsicIdentifier = node;
  let last: Node = node;
  while (cur.type === 'MemberExpression' && !cur.computed) {
    const prop = cur.property;
    if (prop.type !== 'Identifier') return null;
    props.unshift(prop.name);
    if (props.length === 1) last = prop;
    cur = cur.object;
  }
  if (cur.type !== 'Identifier') return null;
  return { base: cur.name, props, last: props.length ? last : cur };
}

export function modeOf(props: readonly string[]): SourceTestMode {
  if (props.includes('todo')) return 'todo';
  if (props.includes('skip')) return 'skip';
  if (props.includes('only')) return 'only';
  return 'run';
}
