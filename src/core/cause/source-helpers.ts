/**
 * Helper functions a test file defines for waiting and timing, so that a signal at the call names
 * the call's own line: after `const sleep = (ms) => new Promise((r) => setTimeout(r, ms))`,
 * `await sleep(50)` is a real 50 ms wait; after `const now = () => performance.now()`, `now()` reads
 * the clock; after `const since = (t) => performance.now() - t`, `since(start)` is an elapsed time.
 * Found in source order, so a helper may build on one defined before it (`const tick = () =>
 * sleep(10)`). Parsed, never executed. Pure.
 */
import type { CallExpression, Node } from '@babel/types';
import { chainOf } from '../source/test-source-syntax.js';
import { walkWithParents } from './source-walk.js';

/** A helper's delay: the argument at `param`, or a fixed `ms`. */
type Delay = { readonly param: number; readonly fallback: number | null } | { readonly ms: number };

interface SleepHelper {
  readonly line: number;
  readonly delay: Delay;
}

export interface FileHelpers {
  /** Functions that wait a real setTimeout, by name. */
  readonly sleep: ReadonlyMap<string, SleepHelper>;
  /** Functions that return `Date.now()` / `performance.now()` (or another clock helper's value). */
  readonly clock: ReadonlySet<string>;
  /** Functions that return a clock reading minus something: an elapsed time. */
  readonly elapsed: ReadonlySet<string>;
}

/** A real wait with a fixed delay at a call: `setTimeout(f, 50)`, or a sleep helper called with a literal. */
export interface Wait {
  /** As the text says it: "setTimeout(50)", "sleep(50)". */
  readonly call: string;
  readonly ms: number;
  /** The helper it goes through, with the line it is defined on, or null for setTimeout itself. */
  readonly via: { readonly name: string; readonly line: number } | null;
}

interface Params {
  readonly names: readonly string[];
  /** A numeric default of a parameter (`ms = 50`), by index. */
  readonly defaults: ReadonlyMap<number, number>;
}

const NO_PARAMS: Params = { names: [], defaults: new Map() };

function paramsOf(fn: Node): Params {
  if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression' && fn.type !== 'FunctionDeclaration')
    return NO_PARAMS;
  const names: string[] = [];
  const defaults = new Map<number, number>();
  fn.params.forEach((p, i) => {
    if (p.type === 'Identifier') names.push(p.name);
    else if (p.type === 'AssignmentPattern' && p.left.type === 'Identifier') {
      names.push(p.left.name);
      if (p.right.type === 'NumericLiteral') defaults.set(i, p.right.value);
    } else names.push('');
  });
  return { names, defaults };
}

/** What `arg` (argument `index` of a call) says about the delay: a literal, or a parameter of the enclosing helper. */
function delayOfArg(arg: Node | undefined, params: Params): Delay | null {
  if (arg?.type === 'NumericLiteral') return { ms: arg.value };
  if (arg?.type !== 'Identifier') return null;
  const index = params.names.indexOf(arg.name);
  return index === -1 ? null : { param: index, fallback: params.defaults.get(index) ?? null };
}

/** The delay of a call that waits: setTimeout's second argument, or a sleep helper's. */
function delayOfCall(n: CallExpression, helpers: FileHelpers, params: Params): Delay | null {
  if (n.callee.type !== 'Identifier') return null;
  if (n.callee.name === 'setTimeout') return delayOfArg(n.arguments[1], params);
  const helper = helpers.sleep.get(n.callee.name);
  if (!helper) return null;
  if ('ms' in helper.delay) return helper.delay;
  const arg = n.arguments[helper.delay.param];
  if (arg === undefined) return helper.delay.fallback === null ? null : { ms: helper.delay.fallback };
  return delayOfArg(arg, params);
}

/** A real wait with a fixed delay at `n`, or null (fake timers are the caller's to check). */
export function findWait(n: Node, helpers: FileHelpers): Wait | null {
  if (n.type !== 'CallExpression' || n.callee.type !== 'Identifier') return null;
  const delay = delayOfCall(n, helpers, NO_PARAMS);
  if (delay === null || !('ms' in delay)) return null;
  const name = n.callee.name;
  const helper = helpers.sleep.get(name);
  return { call: `${name}(${delay.ms})`, ms: delay.ms, via: helper ? { name, line: helper.line } : null };
}

/** `Date.now()`, `performance.now()`, or a call of a clock helper. */
export function isClockReading(n: Node, helpers: FileHelpers | null): boolean {
  if (n.type !== 'CallExpression' || n.arguments.length > 0) return false;
  if (n.callee.type === 'Identifier') return helpers?.clock.has(n.callee.name) ?? false;
  if (n.callee.type !== 'MemberExpression') return false;
  const chain = chainOf(n.callee);
  return chain !== null && chain.props.join('.') === 'now' && (chain.base === 'Date' || chain.base === 'performance');
}

/** The expression a function returns: an arrow's expression body, or a block's only statement (`return x` / `await x`). */
function returned(fn: Node): Node | null {
  if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression' && fn.type !== 'FunctionDeclaration')
    return null;
  if (fn.body.type !== 'BlockStatement') return fn.body;
  const [only] = fn.body.body;
  if (fn.body.body.length !== 1) return null;
  if (only?.type === 'ReturnStatement') return only.argument ?? null;
  return only?.type === 'ExpressionStatement' && only.expression.type === 'AwaitExpression' ? only.expression : null;
}

/**
 * The delay of a function that is a wait and nothing else: it returns (or awaits) `new Promise`
 * whose executor calls setTimeout, or a call of a sleep helper. A function that merely contains a
 * setTimeout (a retry, a debounce) is not a wait.
 */
function waitDelay(fn: Node, helpers: FileHelpers): Delay | null {
  let out = returned(fn);
  if (out?.type === 'AwaitExpression') out = out.argument;
  const params = paramsOf(fn);
  if (out?.type === 'CallExpression') return delayOfCall(out, helpers, params);
  if (out?.type !== 'NewExpression' || out.callee.type !== 'Identifier' || out.callee.name !== 'Promise') return null;
  const executor = out.arguments[0];
  if (!executor) return null;
  let delay: Delay | null = null;
  walkWithParents(executor, (c) => {
    if (
      delay === null &&
      c.type === 'CallExpression' &&
      c.callee.type === 'Identifier' &&
      c.callee.name === 'setTimeout'
    )
      delay = delayOfArg(c.arguments[1], params);
  });
  return delay;
}

/** The name and function of a helper definition: `function f() {}` or `const f = () => …` / `function () {}`. */
function definition(n: Node): { readonly name: string; readonly fn: Node } | null {
  if (n.type === 'FunctionDeclaration' && n.id) return { name: n.id.name, fn: n };
  if (n.type !== 'VariableDeclarator' || n.id.type !== 'Identifier' || !n.init) return null;
  const fn = n.init;
  return fn.type === 'ArrowFunctionExpression' || fn.type === 'FunctionExpression' ? { name: n.id.name, fn } : null;
}

/** Every waiting and timing helper of the file. */
export function findHelpers(program: Node, line: (offset: number) => number): FileHelpers {
  const sleep = new Map<string, SleepHelper>();
  const clock = new Set<string>();
  const elapsed = new Set<string>();
  const helpers: FileHelpers = { sleep, clock, elapsed };
  walkWithParents(program, (n) => {
    const def = definition(n);
    if (!def) return;
    const out = returned(def.fn);
    if (out && isClockReading(out, helpers)) clock.add(def.name);
    if (out?.type === 'BinaryExpression' && out.operator === '-' && isClockReading(out.left, helpers))
      elapsed.add(def.name);
    const delay = waitDelay(def.fn, helpers);
    if (delay !== null) sleep.set(def.name, { line: line(n.start ?? 0), delay });
  });
  return helpers;
}
