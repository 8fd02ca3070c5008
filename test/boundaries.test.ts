import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../src');

/**
 * The layer table: which folders of src/ a folder may import. core is pure; io adapts the machine
 * (files, git, processes, Vitest) to core's types; commands and the reporter gather inputs and print
 * outputs; the runner runs inside Vitest's workers and shares only the gate's protocol with core.
 */
const LAYERS: Record<string, { folders: readonly string[]; packages: (spec: string) => boolean }> = {
  core: { folders: ['core'], packages: (s) => ['yaml', 'simple-statistics', '@babel/parser', '@babel/types'].includes(s) },
  io: { folders: ['core', 'io'], packages: () => true },
  commands: { folders: ['core', 'io', 'commands'], packages: () => true },
  reporter: { folders: ['core', 'io', 'reporter'], packages: () => true },
  runner: { folders: ['runner', 'core/gate/runner-protocol.ts', 'core/test-id.ts'], packages: (s) => s.startsWith('node:') || s === 'vitest' || s === '@vitest/runner' },
  'cli.ts': { folders: ['core', 'io', 'commands'], packages: (s) => s.startsWith('node:') },
  'index.ts': { folders: ['core', 'io'], packages: () => false },
};

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listTs(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [
    ...source.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm),
    ...source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
    ...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1] ?? '');
}

const layerOf = (rel: string): string => rel.split('/')[0] ?? rel;
const files = listTs(SRC);

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
          const target = path.relative(SRC, path.resolve(path.dirname(file), spec)).split(path.sep).join('/').replace(/\.js$/, '.ts');
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
        const target = path.relative(SRC, path.resolve(path.dirname(file), spec)).split(path.sep).join('/');
        const shared = /^commands\/[^/]+\.[jt]s$/.test(target);
        if (target.startsWith('commands/') && !target.startsWith(own) && !shared) offenders.push(`${rel} imports ${target}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('core never touches process, console or the clock', () => {
    const offenders = files
      .filter((f) => layerOf(path.relative(SRC, f)) === 'core')
      .filter((f) => {
        const source = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
        return /\bprocess\.|\bconsole\.|Date\.now\(|new Date\(\)/.test(source);
      })
      .map((f) => path.relative(SRC, f));
    expect(offenders).toEqual([]);
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

  it('no source file is over 250 lines', () => {
    const long = files
      .map((f) => ({ f: path.relative(SRC, f), lines: readFileSync(f, 'utf8').split('\n').length }))
      .filter((x) => x.lines > 250);
    expect(long).toEqual([]);
  });
});
