/**
 * What a whole test file says, for the rules of source-signal-rules.ts: fake timers, a mocked
 * Math.random, async functions, network imports, module-level state, clock readings. Pure.
 */
import type { Node, Program } from '@babel/types';
import { chainOf } from '../source/test-source-syntax.js';
import { type FileHelpers, findHelpers, isClockReading } from './source-helpers.js';
import { walkWithParents } from './source-walk.js';

export { walkWithParents } from './source-walk.js';

export interface FileFacts {
  /** vi.useFakeTimers() or vi.setSystemTime() somewhere in the file. */
  fakeTimers: boolean;
  /** vi.spyOn(Math, 'random') or an assignment to Math.random. */
  randomMocked: boolean;
  readonly asyncFns: Set<string>;
  /** Names bound to http, https, net, http2, dgram or tls (import or require). */
  readonly netNames: Set<string>;
  /** Module-level `let`/`var` and `const` arrays, objects and `new …()`, with their lines. */
  readonly moduleState: ReadonlyMap<string, number>;
  /** Names declared `= Date.now()` / `= performance.now()`, and `= <clock> - x`. */
  readonly clockNames: Set<string>;
  readonly elapsedNames: Set<string>;
  /** Waiting and timing helpers the file defines (source-helpers.ts). */
  readonly helpers: FileHelpers;
}

/** `Date.now()` or `performance.now()` (a clock helper's call: isClockReading with the file's helpers). */
export const isClockCall = (n: Node): boolean => isClockReading(n, null);

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
    helpers: findHelpers(program, position),
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
  if (isClockReading(init, facts.helpers)) facts.clockNames.add(name);
  if (isElapsed(init, facts)) facts.elapsedNames.add(name);
}

/** `Date.now() - start`, `performance.now() - t0`, an elapsed helper's call, or a name declared as one. */
export function isElapsed(n: Node, facts: FileFacts): boolean {
  if (n.type === 'Identifier') return facts.elapsedNames.has(n.name);
  if (n.type === 'CallExpression' && n.callee.type === 'Identifier') return facts.helpers.elapsed.has(n.callee.name);
  if (n.type !== 'BinaryExpression' || n.operator !== '-') return false;
  return [n.left, n.right].some(
    (s) => isClockReading(s, facts.helpers) || (s.type === 'Identifier' && facts.clockNames.has(s.name)),
  );
}
