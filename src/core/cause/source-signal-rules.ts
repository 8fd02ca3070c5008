/**
 * The rules of source-signals.ts: each reads one plain pattern in a test's body, given what the
 * whole file says (FileFacts). Pure.
 */
import type { Node, Program } from '@babel/types';
import { chainOf } from '../source/test-source-syntax.js';
import type { SourceSignal } from './cause.js';
import { type FileFacts, isClockCall, isElapsed, walkWithParents } from './source-file-facts.js';
import { findWait } from './source-helpers.js';

export type SignalKind = 'sleep' | 'elapsed' | 'wall-clock' | 'random' | 'module-state' | 'network' | 'unawaited';
export type KindedSignal = SourceSignal & { readonly kind: SignalKind };

const calleeChain = (n: Node) =>
  n.type === 'CallExpression' && n.callee.type !== 'V8IntrinsicIdentifier' ? chainOf(n.callee) : null;
const isFunction = (n: Node): boolean =>
  n.type === 'ArrowFunctionExpression' || n.type === 'FunctionExpression' || n.type === 'FunctionDeclaration';
const MUTATORS = new Set([
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'sort',
  'reverse',
  'set',
  'add',
  'delete',
  'clear',
]);
const LIMIT_MATCHERS = new Set(['toBeLessThan', 'toBeLessThanOrEqual', 'toBeGreaterThan', 'toBeGreaterThanOrEqual']);
const COMPARISONS = new Set(['<', '<=', '>', '>=']);

interface Ctx {
  readonly facts: FileFacts;
  readonly line: (offset: number) => number;
  readonly code: string;
  readonly root: Node;
}

/** The module-level name `n` writes (assigns, increments, or mutates by a method), else null. */
function writtenName(n: Node, facts: FileFacts, plain = false): string | null {
  let name: string | null = null;
  // A plain `x = value` replaces the state without reading it: only writes that build on it count.
  if (n.type === 'AssignmentExpression' && n.left.type === 'Identifier' && (plain || n.operator !== '='))
    name = n.left.name;
  else if (n.type === 'UpdateExpression' && n.argument.type === 'Identifier') name = n.argument.name;
  else if (n.type === 'AssignmentExpression' && n.left.type === 'MemberExpression')
    name = chainOf(n.left)?.base ?? null;
  else {
    const chain = calleeChain(n);
    if (chain?.props.length === 1 && MUTATORS.has(chain.props[0] as string)) name = chain.base;
  }
  return name !== null && facts.moduleState.has(name) ? name : null;
}

function snippet(ctx: Ctx, n: Node): string {
  const text = ctx.code.slice(n.start ?? 0, n.end ?? 0).replace(/\s+/g, ' ');
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

const CLASSES: Readonly<Record<SignalKind, KindedSignal['classes']>> = {
  sleep: ['timing'],
  elapsed: ['timing'],
  'wall-clock': ['timing'],
  random: ['random-or-concurrency'],
  unawaited: ['random-or-concurrency'],
  'module-state': ['order'],
  network: ['network'],
};

function signal(ctx: Ctx, n: Node, kind: SignalKind, text: string, fix: string): KindedSignal {
  return { kind, line: ctx.line(n.start ?? 0), text, classes: CLASSES[kind], fix };
}

/** `Date.now() - start < 100`, `expect(elapsed).toBeLessThan(100)`: elapsed real time against a literal. */
function elapsedRule(ctx: Ctx, n: Node): KindedSignal | null {
  if (ctx.facts.fakeTimers) return null;
  let limit: Node | undefined;
  if (n.type === 'BinaryExpression' && COMPARISONS.has(n.operator) && n.left.type !== 'PrivateName') {
    if (n.right.type === 'NumericLiteral' && isElapsed(n.left, ctx.facts)) limit = n.right;
    if (n.left.type === 'NumericLiteral' && isElapsed(n.right, ctx.facts)) limit = n.left;
  } else if (n.type === 'CallExpression' && n.callee.type === 'MemberExpression') {
    const { object, property } = n.callee;
    const subject = object.type === 'CallExpression' ? object.arguments[0] : undefined;
    const isExpect =
      object.type === 'CallExpression' && object.callee.type === 'Identifier' && object.callee.name === 'expect';
    const limited = property.type === 'Identifier' && LIMIT_MATCHERS.has(property.name);
    if (isExpect && limited && subject && isElapsed(subject, ctx.facts) && n.arguments[0]?.type === 'NumericLiteral')
      limit = n.arguments[0];
  }
  if (limit?.type !== 'NumericLiteral') return null;
  const at = snippet(ctx, n);
  return signal(
    ctx,
    n,
    'elapsed',
    `\`${at}\` compares elapsed real time with ${limit.value} ms: it passes or fails with the machine's speed`,
    `advance fake time (vi.useFakeTimers()) or await the event instead of comparing elapsed time in \`${at}\``,
  );
}

/** A real wait with a literal delay: `setTimeout(f, 10)`, or `sleep(10)` of a helper the file defines (source-helpers.ts). */
function sleepRule(ctx: Ctx, n: Node): KindedSignal | null {
  const wait = ctx.facts.fakeTimers ? null : findWait(n, ctx.facts.helpers);
  if (wait === null) return null;
  const via = wait.via === null ? '' : ` (\`${wait.via.name}\` at line ${wait.via.line} waits with setTimeout)`;
  return signal(
    ctx,
    n,
    'sleep',
    `a real \`${wait.call}\` wait${via} before an assertion: it waits a fixed time, not for the event`,
    `await the event instead of \`${wait.call}\``,
  );
}

function wallClockRule(ctx: Ctx, n: Node, parent: Node | undefined): KindedSignal | null {
  if (ctx.facts.fakeTimers) return null;
  const newDate = n.type === 'NewExpression' && n.callee.type === 'Identifier' && n.callee.name === 'Date';
  const dateNow = isClockCall(n) && calleeChain(n)?.base === 'Date';
  if (newDate && n.arguments.length > 0) return null;
  if (!newDate && !dateNow) return null;
  if (parent?.type === 'BinaryExpression' && parent.operator === '-') return null; // an elapsed time
  if (parent?.type === 'VariableDeclarator') return null; // a start time (see elapsedRule)
  const at = snippet(ctx, n);
  return signal(
    ctx,
    n,
    'wall-clock',
    `\`${at}\` reads the real clock (no vi.useFakeTimers() in the file)`,
    `vi.useFakeTimers() and vi.setSystemTime() instead of the real clock in \`${at}\``,
  );
}

function randomRule(ctx: Ctx, n: Node): KindedSignal | null {
  const chain = calleeChain(n);
  if (ctx.facts.randomMocked || chain?.base !== 'Math' || chain.props.join('.') !== 'random') return null;
  return signal(
    ctx,
    n,
    'random',
    '`Math.random()` without a seed: every run draws other values',
    'seed the generator (or inject the random source) instead of `Math.random()`',
  );
}

function networkRule(ctx: Ctx, n: Node): KindedSignal | null {
  const chain = calleeChain(n);
  if (!chain || n.type !== 'CallExpression') return null;
  const isFetch = chain.base === 'fetch' && chain.props.length === 0;
  if (!isFetch && !ctx.facts.netNames.has(chain.base)) return null;
  const call = `${snippet(ctx, n.callee)}()`;
  return signal(
    ctx,
    n,
    'network',
    `\`${call}\` uses the real network`,
    `listen on port 0 and read the port back, or mock the network, instead of \`${call}\``,
  );
}

/** `save();` or `fetch(url);` as a statement of the test's own function: a promise nothing awaits. */
function unawaitedRule(ctx: Ctx, n: Node, parents: readonly Node[]): KindedSignal | null {
  if (n.type !== 'ExpressionStatement' || n.expression.type !== 'CallExpression') return null;
  const callee = n.expression.callee;
  if (callee.type !== 'Identifier') return null;
  if (callee.name !== 'fetch' && !ctx.facts.asyncFns.has(callee.name)) return null;
  if (parents.findLast(isFunction) !== ctx.root) return null;
  const call = `${callee.name}()`;
  return signal(
    ctx,
    n,
    'unawaited',
    `\`${call}\` returns a promise that nothing awaits: the test can assert or end before it settles`,
    `await \`${call}\` (or return it)`,
  );
}

function nodeSignals(ctx: Ctx, n: Node, parents: readonly Node[]): (KindedSignal | null)[] {
  return [
    sleepRule(ctx, n),
    elapsedRule(ctx, n),
    wallClockRule(ctx, n, parents.at(-1)),
    randomRule(ctx, n),
    networkRule(ctx, n),
    unawaitedRule(ctx, n, parents),
  ];
}

const hookCall =
  (names: ReadonlySet<string>) =>
  (p: Node): boolean => {
    const chain = calleeChain(p);
    return chain !== null && chain.props.length === 0 && names.has(chain.base);
  };
const isResetHook = hookCall(new Set(['beforeEach', 'afterEach']));
const isCleanupHook = hookCall(new Set(['afterEach', 'afterAll']));

/** Every signal in the body at [bodyStart, bodyEnd] of `program`, unsorted. A sleep counts only before an `expect`. */
export function bodyRules(
  program: Program,
  facts: FileFacts,
  body: { readonly bodyStart: number; readonly bodyEnd: number },
  line: (offset: number) => number,
  code: string,
): KindedSignal[] {
  const out: KindedSignal[] = [];
  const sleeps: { readonly s: KindedSignal; readonly at: number }[] = [];
  const writes = new Map<string, Node>();
  const resets = new Set<string>();
  const declared = new Set<string>();
  let lastExpect = -1;
  let ctx: Ctx | null = null;
  walkWithParents(program, (n, parents) => {
    const name = writtenName(n, facts);
    const assigned = writtenName(n, facts, true);
    if (assigned && parents.some(isResetHook)) resets.add(assigned);
    // A name a cleanup hook reads is a registry of things to close, not state a later test reads.
    if (n.type === 'Identifier' && facts.moduleState.has(n.name) && parents.some(isCleanupHook)) resets.add(n.name);
    if ((n.start ?? 0) < body.bodyStart || (n.end ?? 0) > body.bodyEnd) return;
    ctx ??= { facts, line, code, root: n };
    if (name && !writes.has(name)) writes.set(name, n);
    noteDeclared(n, declared);
    if (calleeChain(n)?.base === 'expect') lastExpect = Math.max(lastExpect, n.start ?? 0);
    for (const s of nodeSignals(ctx, n, parents)) {
      if (s?.kind === 'sleep') sleeps.push({ s, at: n.start ?? 0 });
      else if (s) out.push(s);
    }
  });
  if (!ctx) return [];
  const c: Ctx = ctx;
  for (const { s, at } of sleeps) if (lastExpect > at) out.push(s);
  for (const [name, n] of writes) {
    if (resets.has(name) || declared.has(name)) continue;
    const text = `writes module-level \`${name}\` (declared at line ${facts.moduleState.get(name)}): the tests after it see what this test left`;
    out.push(signal(c, n, 'module-state', text, `reset \`${name}\` in beforeEach (or declare it inside the test)`));
  }
  return out;
}

function noteDeclared(n: Node, declared: Set<string>): void {
  if (n.type === 'VariableDeclarator' && n.id.type === 'Identifier') declared.add(n.id.name);
  if (n.type === 'ArrowFunctionExpression' || n.type === 'FunctionExpression' || n.type === 'FunctionDeclaration')
    for (const p of n.params) if (p.type === 'Identifier') declared.add(p.name);
}
