/** Small syntax helpers for test-source.ts: parser plugins by file type, callee chains, modes. */
import { parse } from '@babel/parser';
import type { Expression, Node, Program, V8IntrinsicIdentifier } from '@babel/types';
import { FlakeguardError } from '../errors.js';

export type SourceTestMode = 'run' | 'skip' | 'only' | 'todo';

function pluginsFor(file: string): ('typescript' | 'jsx' | 'decorators-legacy')[] {
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

/** The program of a test file. Throws FlakeguardError INPUT_UNREADABLE (with file:line:column) when it does not parse. */
export function parseTestSource(code: string, file: string): Program {
  try {
    return parse(code, {
      sourceType: 'module',
      plugins: pluginsFor(file),
      attachComment: false,
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
      errorRecovery: false,
    }).program;
  } catch (error) {
    const loc = (error as { loc?: { line: number; column: number } }).loc;
    const at = loc ? `${file}:${loc.line}:${loc.column + 1}` : file;
    const message = (error as Error).message.replace(/\s*\(\d+:\d+\)$/, '');
    throw new FlakeguardError(
      'INPUT_UNREADABLE',
      `${at}: cannot read the tests in this file: ${message}; fix the syntax error`,
      { cause: error },
    );
  }
}
