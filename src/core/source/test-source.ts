/**
 * Every test a file declares, read from its source without running it: titles, the position Vitest
 * reports as `TestCase.location`, and the fingerprint of its body (see fingerprint.ts).
 *
 * Parser: @babel/parser, chosen by measurement (bench/allowances-parsers.mjs, 500 files / 10,000
 * tests, parse + walk every node, Node 20): babel 363-388 ms, oxc-parser 618-684 ms (its fast
 * raw-transfer mode needs Node >= 22), TypeScript 351-357 ms but only a devDependency (23 MB).
 * Babel is pure JS, so it runs wherever Node runs.
 */
import type { CallExpression, Node, Program, VariableDeclarator } from '@babel/types';
import { TEST_NAME_SEPARATOR, type TestRef } from '../test-id.js';
import { type AstNode, fingerprintNode, isNode } from './fingerprint.js';
import { createLineIndex, type SourcePosition } from './source-position.js';
import { chainOf, modeOf, parseTestSource, type SourceTestMode } from './test-source-syntax.js';

export interface SourceTest extends TestRef {
  readonly titles: readonly string[];
  /** 1-based, where Vitest's `TestCase.location` points for this call. */
  readonly line: number;
  readonly column: number;
  readonly fingerprint: string;
  /** Offsets of the body that was fingerprinted (the callback, else the arguments after the title). */
  readonly bodyStart: number;
  readonly bodyEnd: number;
  readonly mode: SourceTestMode;
  /**
   * True when this test or an enclosing describe is `.each`/`.for`: the titles keep the template
   * (`adds %i`), and Vitest reports one test per row under the filled-in names.
   */
  readonly each: boolean;
  /** True when a title is not a plain string (a template with `${}` or an expression). */
  readonly dynamicTitle: boolean;
}

const TEST_NAMES = ['it', 'test'];
const DESCRIBE_NAMES = ['describe', 'suite'];
const MODIFIERS = new Set(['only', 'skip', 'todo', 'concurrent', 'sequential', 'shuffle', 'fails']);
const CALLED_MODIFIERS = new Set(['each', 'for', 'skipIf', 'runIf']);

/** One argument of a call, as Babel types it. */
type Argument = CallExpression['arguments'][number];

interface Call {
  readonly kind: 'test' | 'describe';
  readonly mode: SourceTestMode;
  readonly each: boolean;
  /** Offset Vitest's location points at. */
  readonly at: number;
}

interface Scope {
  readonly titles: readonly string[];
  readonly each: boolean;
  readonly dynamic: boolean;
}

class Extractor {
  private readonly tests: SourceTest[] = [];
  private readonly testNames = new Set(TEST_NAMES);
  private readonly describeNames = new Set(DESCRIBE_NAMES);
  private readonly position: (offset: number) => SourcePosition;

  constructor(
    private readonly code: string,
    private readonly file: string,
  ) {
    this.position = createLineIndex(code);
  }

  run(program: Program): SourceTest[] {
    this.collectAliases(program);
    this.visit(program, { titles: [], each: false, dynamic: false });
    return this.tests;
  }

  /** Renamed imports (`test as t` imported from vitest) and `const myTest = test.extend({...})`. */
  private collectAliases(program: Program): void {
    for (const stmt of program.body) {
      if (stmt.type === 'ImportDeclaration' && stmt.source.value === 'vitest') {
        for (const spec of stmt.specifiers) {
          if (spec.type !== 'ImportSpecifier') continue;
          const name = spec.imported.type === 'Identifier' ? spec.imported.name : spec.imported.value;
          const local = spec.local.name;
          if (TEST_NAMES.includes(name)) this.testNames.add(local);
          if (DESCRIBE_NAMES.includes(name)) this.describeNames.add(local);
        }
      }
    }
  }

  /** The offset of the `(` that opens the call whose callee ends at `from`. */
  private openParenAfter(from: number): number {
    const code = this.code;
    let i = from;
    while (i < code.length) {
      const ch = code[i];
      if (ch === '(') return i;
      if (code.startsWith('//', i)) i = code.indexOf('\n', i) === -1 ? code.length : code.indexOf('\n', i);
      else if (code.startsWith('/*', i)) i = code.indexOf('*/', i) === -1 ? code.length : code.indexOf('*/', i) + 2;
      else i++;
    }
    return from;
  }

  private classify(call: CallExpression): Call | null {
    const callee = call.callee;
    if (callee.type === 'CallExpression') {
      const chain = chainOf(callee.callee);
      if (!chain || chain.props.length === 0) return null;
      const lastProp = chain.props[chain.props.length - 1] as string;
      if (!CALLED_MODIFIERS.has(lastProp) || !chain.props.slice(0, -1).every((p) => MODIFIERS.has(p))) return null;
      const kind = this.kindOf(chain.base);
      if (!kind) return null;
      const each = lastProp === 'each' || lastProp === 'for';
      return { kind, mode: modeOf(chain.props), each, at: this.openParenAfter(callee.end ?? 0) };
    }
    if (callee.type !== 'Identifier' && callee.type !== 'MemberExpression') return null;
    const chain = chainOf(callee);
    if (!chain || !chain.props.every((p) => MODIFIERS.has(p))) return null;
    const kind = this.kindOf(chain.base);
    if (!kind) return null;
    return { kind, mode: modeOf(chain.props), each: false, at: chain.last.start ?? call.start ?? 0 };
  }

  private kindOf(name: string): 'test' | 'describe' | null {
    if (this.testNames.has(name)) return 'test';
    if (this.describeNames.has(name)) return 'describe';
    return null;
  }

  private titleOf(node: Argument | undefined): { title: string; dynamic: boolean } {
    if (!node) return { title: '', dynamic: true };
    if (node.type === 'StringLiteral') return { title: node.value, dynamic: false };
    if (node.type === 'TemplateLiteral' && node.expressions.length === 0) {
      const value = node.quasis[0]?.value;
      return { title: value?.cooked ?? value?.raw ?? '', dynamic: false };
    }
    if (node.type === 'Identifier') return { title: node.name, dynamic: true };
    const slice = this.code.slice(node.start ?? 0, node.end ?? 0);
    const text = node.type === 'TemplateLiteral' ? slice.slice(1, -1) : slice;
    return { title: text, dynamic: true };
  }

  private visit(node: Node, scope: Scope): void {
    if (node.type === 'VariableDeclarator') this.noteExtend(node);
    if (node.type === 'CallExpression') {
      const call = this.classify(node);
      if (call) {
        this.record(node, call, scope);
        return;
      }
    }
    // Every child node, whatever its key: the walk does not need to know each node type's fields.
    const fields = node as unknown as Record<string, unknown>;
    for (const key of Object.keys(node)) {
      if (key === 'loc' || key === 'extra' || key === 'start' || key === 'end') continue;
      const value = fields[key];
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) this.visit(item, scope);
      } else if (isNode(value)) {
        this.visit(value, scope);
      }
    }
  }

  private noteExtend(declarator: VariableDeclarator): void {
    const { id, init } = declarator;
    if (id.type !== 'Identifier' || !init || init.type !== 'CallExpression') return;
    const chain = chainOf(init.callee);
    if (chain && chain.props.at(-1) === 'extend' && this.testNames.has(chain.base)) this.testNames.add(id.name);
  }

  private record(node: CallExpression, call: Call, scope: Scope): void {
    const args = node.arguments;
    const { title, dynamic } = this.titleOf(args[0]);
    const rest = args.slice(1);
    const fn = rest.find((a) => a.type === 'ArrowFunctionExpression' || a.type === 'FunctionExpression');
    const titles = [...scope.titles, title];
    const each = scope.each || call.each;
    const dynamicTitle = scope.dynamic || dynamic;
    if (call.kind === 'describe') {
      for (const arg of args) if (arg !== fn) this.visit(arg, scope);
      if (fn) this.visit(fn, { titles, each, dynamic: dynamicTitle });
      return;
    }
    const body: AstNode = fn ?? { type: 'Arguments', args: rest };
    const bodyStart = fn?.start ?? rest[0]?.start ?? node.start ?? 0;
    const bodyEnd = fn?.end ?? rest.at(-1)?.end ?? node.end ?? 0;
    const { line, column } = this.position(call.at);
    this.tests.push({
      file: this.file,
      fullName: titles.join(TEST_NAME_SEPARATOR),
      titles,
      line,
      column,
      fingerprint: fingerprintNode(body),
      bodyStart,
      bodyEnd,
      mode: call.mode,
      each,
      dynamicTitle,
    });
  }
}

/**
 * Every `it`/`test` call in `code` (also `.only/.skip/.todo/.concurrent/.each/.for/.skipIf/.runIf`,
 * `test.extend` fixtures and renamed imports of vitest's test/it/describe), in source order.
 * Throws FlakeguardError INPUT_UNREADABLE (with file:line:column) when the file does not parse.
 */
export function extractTests(code: string, file: string): SourceTest[] {
  const program = parseTestSource(code, file);
  return new Extractor(code, file).run(program);
}
