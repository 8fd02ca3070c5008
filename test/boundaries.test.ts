import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { cyclesOf, type ImportGraph, importGraph, importsOf, nameCycle } from '../scripts/import-graph.mjs';
import { E2E_TESTS, RELEASE_TESTS } from '../vitest.config.js';

const SRC = path.resolve(import.meta.dirname, '../src');

/**
 * The layer table: which folders of src/ a folder may import. core is pure; io adapts the machine
 * (files, git, processes, Vitest) to core's types; commands and the reporter gather inputs and print
 * outputs; the runner runs inside Vitest's workers and shares only the gate's protocol with core.
 */
const LAYERS: Record<string, { folders: readonly string[]; packages: (spec: string) => boolean }> = {
  core: {
    folders: ['core'],
    packages: (s) => ['yaml', 'simple-statistics', '@babel/parser', '@babel/types'].includes(s),
  },
  io: { folders: ['core', 'io'], packages: () => true },
  commands: { folders: ['core', 'io', 'commands'], packages: () => true },
  reporter: { folders: ['core', 'io', 'reporter'], packages: () => true },
  // core/replay/seeded-random.ts: the seeded generator a try draws from (issue 46), one file that
  // imports nothing, so the runner and `flakeguard replay --seed` derive the same sequences.
  runner: {
    folders: [
      'runner',
      'core/gate/runner-protocol.ts',
      'core/gate/proc-text.ts',
      'core/test-id.ts',
      'core/replay/seeded-random.ts',
      // The setup file of replays from CI (runner/seed-setup.ts): the meta it writes, the reporter reads.
      'core/replay/ci-seed.ts',
    ],
    packages: (s) => s.startsWith('node:') || s === 'vitest' || s === '@vitest/runner',
  },
  'cli.ts': { folders: ['core', 'io', 'commands'], packages: (s) => s.startsWith('node:') },
  'index.ts': { folders: ['core', 'io'], packages: () => false },
};

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listTs(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

const layerOf = (rel: string): string => rel.split('/')[0] ?? rel;
const files = listTs(SRC);

/**
 * File size: no source file is over FILE_LINES lines. When Biome first formatted the tree (120
 * columns, 2026-12-02), lines of up to 200+ characters were wrapped and these files went over: they
 * are listed at that length as a ratchet, like LONG_FUNCTIONS below. A listed file may shrink but
 * never grow; once it is within the limit its line must go. Never add a line: split the file.
 */
const FILE_LINES = 250;
const LONG_FILES: Record<string, number> = {};

/**
 * Core's parts (a capability folder, or a shared file directly in src/core) in one order: a part
 * imports only parts below it. A loop is named with one import per hop and the way out.
 */
function coreLoops(graph: ImportGraph): string[] {
  return cyclesOf(graph).map((group) => {
    const cycle = nameCycle(graph, group);
    const hops = cycle.split(' -> ');
    const along = hops.slice(1).map((to, k) => {
      const hop = graph.imports.find((i) => i.from === hops[k] && i.to === to);
      return hop ? `${hop.file} imports ${hop.spec}` : `${hops[k]} -> ${to}`;
    });
    return (
      `src/core loops: ${cycle} (${along.join('; ')}); the parts in the loop: ${group.join(', ')}. ` +
      'Move what both sides use to the folder that owns it, or to a module below both ' +
      '(as core/failure-rate.ts); `node scripts/import-graph.mjs src/core` lists the imports against the order'
    );
  });
}

describe('the layers of src/', () => {
  it('every folder imports only what the layer table allows', () => {
    const offenders: string[] = [];
    for (const file of files) {
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      const rule = LAYERS[layerOf(rel)];
      if (!rule) {
        offenders.push(`${rel} is in no layer`);
        continue;
      }
      for (const spec of importsOf(file)) {
        if (spec.startsWith('.')) {
          const target = path
            .relative(SRC, path.resolve(path.dirname(file), spec))
            .split(path.sep)
            .join('/')
            .replace(/\.js$/, '.ts');
          const ok = rule.folders.some((f) => target === f || target.startsWith(`${f}/`));
          if (!ok) offenders.push(`${rel} imports ${target}`);
        } else if (!rule.packages(spec)) {
          offenders.push(`${rel} imports package ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('a command folder imports only itself, the shared src/commands/*.ts helpers, io and core', () => {
    const offenders: string[] = [];
    for (const file of files) {
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      const parts = rel.split('/');
      if (parts[0] !== 'commands' || parts.length < 3) continue;
      const own = `commands/${parts[1]}/`;
      for (const spec of importsOf(file).filter((s) => s.startsWith('.'))) {
        const target = path
          .relative(SRC, path.resolve(path.dirname(file), spec))
          .split(path.sep)
          .join('/');
        const shared = /^commands\/[^/]+\.[jt]s$/.test(target);
        if (target.startsWith('commands/') && !target.startsWith(own) && !shared)
          offenders.push(`${rel} imports ${target}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('core never touches process, console or the clock', () => {
    const offenders = files
      .filter((f) => layerOf(path.relative(SRC, f)) === 'core')
      .filter((f) => {
        const source = readFileSync(f, 'utf8')
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .replace(/^\s*\/\/.*$/gm, '');
        return /\bprocess\.|\bconsole\.|Date\.now\(|new Date\(\)/.test(source);
      })
      .map((f) => path.relative(SRC, f));
    expect(offenders).toEqual([]);
  });

  // V8 flags are process-wide: only the CLI entry, whose process runs flakeguard's code alone, sets
  // one (issue 37); the reporter's path (the user's Vitest process) never reaches the setter.
  it('only the CLI entry changes V8 flags, through io/history/wasm-baseline.ts', () => {
    const setters = files
      .filter((f) => /setFlagsFromString/.test(readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')))
      .map((f) => path.relative(SRC, f).split(path.sep).join('/'));
    expect(setters).toEqual(['io/history/wasm-baseline.ts']);
    const importers = files
      .filter((f) => importsOf(f).some((spec) => /(^|\/)wasm-baseline\.js$/.test(spec)))
      .map((f) => path.relative(SRC, f).split(path.sep).join('/'));
    expect(importers).toEqual(['cli.ts']);
  });

  it('has no import cycle', () => {
    const graph = new Map<string, string[]>();
    for (const file of files) {
      const deps = importsOf(file)
        .filter((s) => s.startsWith('.'))
        .map((s) => path.resolve(path.dirname(file), s).replace(/\.js$/, '.ts'));
      graph.set(file, deps);
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (node: string, trail: string[]): void => {
      if (state.get(node) === 'done') return;
      if (state.get(node) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(node)), node].map((f) => path.relative(SRC, f)).join(' -> '));
        return;
      }
      state.set(node, 'open');
      for (const dep of graph.get(node) ?? []) visit(dep, [...trail, node]);
      state.set(node, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it("core's folders and shared files point one way: no cycle among them", () => {
    expect(coreLoops(importGraph('src/core'))).toEqual([]);
  });

  it('names a loop among core folders with its imports and the fix', () => {
    const imports = [
      { from: 'history', to: 'gate', file: 'src/core/history/h.ts', spec: '../gate/rate.js' },
      { from: 'gate', to: 'history', file: 'src/core/gate/g.ts', spec: '../history/h.js' },
      { from: 'gate', to: 'duration.ts', file: 'src/core/gate/g.ts', spec: '../duration.js' },
    ];
    const loops = coreLoops({ parts: ['duration.ts', 'gate', 'history'], imports });
    expect(loops).toHaveLength(1);
    expect(loops[0]).toContain('gate -> history -> gate');
    expect(loops[0]).toContain('src/core/history/h.ts imports ../gate/rate.js');
    expect(loops[0]).toContain('a module below both');
  });

  it(`no source file is over ${FILE_LINES} lines, except the listed ones, which only shrink`, () => {
    const problems: string[] = [];
    const sizes = new Map(
      files.map((f) => [path.relative(SRC, f).split(path.sep).join('/'), readFileSync(f, 'utf8').split('\n').length]),
    );
    for (const [rel, lines] of sizes) {
      const allowed = LONG_FILES[rel];
      if (lines > (allowed ?? FILE_LINES))
        problems.push(
          `${rel} has ${lines} lines (${allowed === undefined ? 'limit' : 'listed at'} ${allowed ?? FILE_LINES}): split it`,
        );
    }
    for (const [rel, listed] of Object.entries(LONG_FILES)) {
      const lines = sizes.get(rel);
      if (lines === undefined || lines <= FILE_LINES)
        problems.push(`${rel} is listed in LONG_FILES at ${listed} but has ${lines ?? 'no'} lines: remove its line`);
    }
    expect(problems).toEqual([]);
  });
});

/**
 * Function size: no function in src/ is over FUNCTION_LINES lines (from its first line to its
 * closing brace, nested functions counted in their parent too). Biome has no rule for length, so
 * this is it. The functions that were longer when the rule came are listed with their length then
 * (re-based once, when Biome first formatted the tree at 120 columns and wrapped long lines): a
 * ratchet. A listed function may shrink but never grow; once it is within the limit, or renamed
 * or moved, its line here must go (the test says so). Never add a line: split the function.
 */
const FUNCTION_LINES = 50;
const LONG_FUNCTIONS: Record<string, number> = {
  'core/html/html-chart.ts renderSeries': 88,
};

/** Every function with a body in src/, as `file name` (an unnamed one as `parent > (arrow)`) and its line count. */
function functionSizes(): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const file of files) {
    const rel = path.relative(SRC, file).split(path.sep).join('/');
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node, parent: string | null): void => {
      let name = parent;
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const own =
          node.name ??
          (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent)
            ? node.parent.name
            : undefined);
        name = own
          ? own.getText(source)
          : `${parent ?? '(top)'} > (${ts.isArrowFunction(node) ? 'arrow' : 'function'})`;
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.end).line;
        const key = `${rel} ${name}`;
        sizes.set(key, Math.max(sizes.get(key) ?? 0, last - first + 1));
      }
      ts.forEachChild(node, (child) => visit(child, name));
    };
    visit(source, null);
  }
  return sizes;
}

describe('the size of functions in src/', () => {
  it(`no function is over ${FUNCTION_LINES} lines, except the listed ones, which only shrink`, () => {
    const sizes = functionSizes();
    const problems: string[] = [];
    for (const [key, lines] of sizes) {
      if (lines <= FUNCTION_LINES) continue;
      const allowed = LONG_FUNCTIONS[key];
      if (allowed === undefined) problems.push(`${key} has ${lines} lines (limit ${FUNCTION_LINES}): split it`);
      else if (lines > allowed)
        problems.push(`${key} grew to ${lines} lines (listed at ${allowed}, limit ${FUNCTION_LINES}): split it`);
    }
    for (const key of Object.keys(LONG_FUNCTIONS)) {
      const lines = sizes.get(key);
      if (lines === undefined)
        problems.push(
          `${key} is listed in LONG_FUNCTIONS but no longer exists (renamed or moved?): remove or rename its line`,
        );
      else if (lines <= FUNCTION_LINES)
        problems.push(`${key} is within ${FUNCTION_LINES} lines now (${lines}): remove it from LONG_FUNCTIONS`);
    }
    expect(problems).toEqual([]);
  });
});

/**
 * One key per test (issue 37): `testKey` is built from the project, the file and the full name, and
 * its parameter type requires the project, so a key without it does not compile; no other code
 * joins a file and a full name into a key. What applies in every project on purpose (an allowance,
 * its quarantine, a place in source) uses `refKey`, named for that. The run record's `key` field
 * (0.1.0's `<file>::<full name>`, never read back), the HTML's `data-test` attribute and the gate's
 * allowance id hash are not keys.
 */
const HAND_KEYS_ALLOWED = new Set([
  'core/budget/run-record-build.ts',
  'core/html/history-html.ts',
  // an allowance id's hash input, not a key
  'commands/gate/gate-proposals.ts',
]);

function memberOf(source: ts.SourceFile, iface: string, member: string): ts.PropertySignature | undefined {
  let found: ts.PropertySignature | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === iface)
      for (const m of node.members) if (ts.isPropertySignature(m) && m.name.getText(source) === member) found = m;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('test identity', () => {
  it("a test key's type requires the Vitest project (string, or null for unknown), never optional", () => {
    const file = path.join(SRC, 'core/test-id.ts');
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    for (const iface of ['TestId', 'TestKeyParts']) {
      const project = memberOf(source, iface, 'project');
      expect(project, `${iface} has no project`).toBeDefined();
      expect(project?.questionToken, `${iface}.project is optional: make it required`).toBeUndefined();
      expect(project?.type?.getText(source)).toBe('string | null');
    }
  });

  it('every testKey call on an object literal names the project', () => {
    const offenders: string[] = [];
    for (const file of files) {
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        const arg =
          ts.isCallExpression(node) && node.expression.getText(source) === 'testKey' ? node.arguments[0] : undefined;
        if (
          arg &&
          ts.isObjectLiteralExpression(arg) &&
          !arg.properties.some((p) => ts.isSpreadAssignment(p) || p.name?.getText(source) === 'project')
        )
          offenders.push(`${rel}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(offenders).toEqual([]);
  });

  it('no code outside core/test-id.ts joins a file and a full name into a key by hand', () => {
    const offenders = files
      .map((f) => path.relative(SRC, f).split(path.sep).join('/'))
      .filter((rel) => rel !== 'core/test-id.ts' && !HAND_KEYS_ALLOWED.has(rel))
      .filter((rel) =>
        /file\}::\$\{|JSON\.stringify\(\[[^\]]*\bfile\b[^\]]*\b(?:fullName|name)\b/.test(
          readFileSync(path.join(SRC, rel), 'utf8'),
        ),
      );
    expect(offenders).toEqual([]);
  });

  it('no code joins a file and a project into a key by hand: specKey (core/tuple-key.ts) does', () => {
    const offenders = files
      .map((f) => path.relative(SRC, f).split(path.sep).join('/'))
      .filter((rel) => rel !== 'core/tuple-key.ts')
      .filter((rel) =>
        /(?:JSON\.stringify|tupleKey)\(\[[^\]]*\b(?:file|moduleId)\b[^\]]*\bproject\b/.test(
          readFileSync(path.join(SRC, rel), 'utf8'),
        ),
      );
    expect(offenders).toEqual([]);
  });
});

/**
 * The two tiers (vitest.config.ts): a test file that starts a process (a fixture project's Vitest,
 * the CLI, git, a shell, Chromium, load workers) is in the e2e tier, so `npm run test:unit` stays
 * fast and needs no build. Patterns there are a folder (`dir/**\/*.test.ts`) or one file.
 */
describe('the test tiers', () => {
  const TESTS = path.resolve(import.meta.dirname);
  const STARTS_A_PROCESS =
    /\b(?:createFixture|fixtureCopies|reporterProject|execa|execFileSync|execFile|spawnSync|spawn|fork|launchBrowser|startLoadWorkers|runGit)\(/;
  const matches = (patterns: readonly string[], rel: string): boolean =>
    patterns.some((pattern) =>
      pattern.endsWith('/**/*.test.ts') ? rel.startsWith(pattern.slice(0, -'**/*.test.ts'.length)) : rel === pattern,
    );
  const inE2e = (rel: string): boolean => matches(E2E_TESTS, rel) || RELEASE_TESTS.includes(rel);
  const testFiles = listTs(TESTS).filter(
    (f) => f.endsWith('.test.ts') && !f.includes(`${path.sep}fixtures${path.sep}`),
  );
  const rel = (f: string): string => `test/${path.relative(TESTS, f).split(path.sep).join('/')}`;

  it('every test file that starts a process is in the e2e tier', () => {
    const offenders = testFiles
      .filter((f) => STARTS_A_PROCESS.test(readFileSync(f, 'utf8')) && !inE2e(rel(f)))
      .map(rel);
    expect(offenders).toEqual([]);
    expect(E2E_TESTS.filter((p) => !p.endsWith('/**/*.test.ts') && !p.endsWith('.test.ts'))).toEqual([]);
  });

  // `npm test` needs no registry: a test that packs the tarball to install it, or fetches a package
  // with `npx -y`, is in the release tier (vitest.release.config.ts, `npm run test:release`).
  it('every test file that installs from the npm registry is in the release tier, and only those', () => {
    const INSTALLS = /\bpackTarball\(|'npx',\s*\['-y'/;
    const installing = testFiles.filter((f) => INSTALLS.test(readFileSync(f, 'utf8'))).map(rel);
    expect(installing.sort()).toEqual([...RELEASE_TESTS].sort());
  });
});
