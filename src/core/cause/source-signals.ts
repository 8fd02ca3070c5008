/**
 * Supporting signals in a test's own source, parsed and never executed (issue 28 part 2): lines
 * that show a likely cause of flakiness. Each is a SourceSignal (core/cause/cause.ts): evidence and
 * the fix's line, never a class on its own. Precision over recall: a signal only where the syntax
 * shows it plainly (the rules are in source-signal-rules.ts). Pure.
 */
import type { Node, Program } from '@babel/types';
import { createLineIndex } from '../source/source-position.js';
import { chainOf, parseTestSource } from '../source/test-source-syntax.js';
import type { SourceSignal } from './cause.js';
import { bodyRules, type FileFacts, isClockCall, type SignalKind, walkWithParents } from './source-signal-rules.js';

export type { SignalKind } from './source-signal-rules.js';

const NET_MODULES = new Set(['http', 'https', 'net', 'http2', 'dgram', 'tls']);
const isNetModule = (m: string): boolean => NET_MODULES.has(m.replace(/^node:/, ''));
const MUTABLE_INIT = new Set(['ArrayExpression', 'ObjectExpression', 'NewExpression']);

function moduleState(program: Program, position: (offset: number) => number): Map<string, number> {
  const state = new Map<string, number>();
  for (const stmt of program.body) {
    const decl = stmt.type === 'ExportNamedDeclaration' ? stmt.declaration : stmt;
    if (decl?.type !== 'VariableDeclaration') continue;
    for (const d of decl.declarations) {
      if (d.id.type !== 'Identifier') continue;
      const mutable =
        decl.kind !== 'const' || (d.init !== null && d.init !== undefined && MUTABLE_INIT.has(d.init.type));
      if (mutable) state.set(d.id.name, position(d.start ?? 0));
    }
  }
  return state;
}

/** What the whole file says: fake timers, mocked random, async functions, network imports, module state. */
export function fileFacts(program: Program, position: (offset: number) => number): FileFacts {
  const facts: FileFacts = {
    fakeTimers: false,
    randomMocked: false,
    asyncFns: new Set(),
    netNames: new Set(),
    moduleState: moduleState(program, position),
    clockNames: new Set(),
    elapsedNames: new Set(),
  };
  walkWithParents(program, (n) => noteFact(facts, n));
  return facts;
}

function noteFact(facts: FileFacts, n: Node): void {
  if (n.type === 'CallExpression') {
    const chain = n.callee.type === 'V8IntrinsicIdentifier' ? null : chainOf(n.callee);
    const prop = chain?.props.join('.');
    if (chain?.base === 'vi' && (prop === 'useFakeTimers' || prop === 'setSystemTime')) facts.fakeTimers = true;
    const [target, method] = n.arguments;
    if (chain?.base === 'vi' && prop === 'spyOn' && target?.type === 'Identifier' && target.name === 'Math')
      facts.randomMocked ||= method?.type === 'StringLiteral' && method.value === 'random';
  }
  if (n.type === 'AssignmentExpression' && n.left.type === 'MemberExpression') {
    const chain = chainOf(n.left);
    if (chain?.base === 'Math' && chain.props[0] === 'random') facts.randomMocked = true;
  }
  if (n.type === 'FunctionDeclaration' && n.async && n.id) facts.asyncFns.add(n.id.name);
  if (n.type === 'ImportDeclaration' && isNetModule(n.source.value))
    for (const s of n.specifiers) facts.netNames.add(s.local.name);
  if (n.type === 'VariableDeclarator' && n.id.type === 'Identifier' && n.init) noteDeclarator(facts, n.id.name, n.init);
}

function noteDeclarator(facts: FileFacts, name: string, init: Node): void {
  const fn = init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression';
  if (fn && init.async) facts.asyncFns.add(name);
  if (init.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require') {
    const arg = init.arguments[0];
    if (arg?.type === 'StringLiteral' && isNetModule(arg.value)) facts.netNames.add(name);
  }
  if (isClockCall(init)) facts.clockNames.add(name);
  if (
    init.type === 'BinaryExpression' &&
    init.operator === '-' &&
    [init.left, init.right].some((s) => isClockCall(s) || (s.type === 'Identifier' && facts.clockNames.has(s.name)))
  )
    facts.elapsedNames.add(name);
}

const PRIORITY: readonly SignalKind[] = [
  'sleep',
  'elapsed',
  'unawaited',
  'random',
  'module-state',
  'network',
  'wall-clock',
];

/**
 * The signals in one test: `code` is its file's text, `body` the offsets of its body (SourceTest's
 * bodyStart/bodyEnd, core/source/test-source.ts). Strongest kind first, then by line; at most one
 * signal of a kind per line. Throws FlakeguardError INPUT_UNREADABLE when the file does not parse.
 */
export function findSourceSignals(
  code: string,
  file: string,
  body: { readonly bodyStart: number; readonly bodyEnd: number },
): SourceSignal[] {
  const program = parseTestSource(code, file);
  const position = createLineIndex(code);
  const index = (offset: number): number => position(offset).line;
  const found = bodyRules(program, fileFacts(program, index), body, index, code);
  const seen = new Set<string>();
  const unique = found.filter((s) => {
    const key = `${s.kind}:${s.line}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  unique.sort((a, b) => PRIORITY.indexOf(a.kind) - PRIORITY.indexOf(b.kind) || a.line - b.line);
  return unique.map(({ kind: _kind, ...signal }) => signal);
}
