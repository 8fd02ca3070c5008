// The import graph between the parts of one folder of src/ (its subfolders and its own files), as
// figures: parts, imports between them, imports against the layer order, cycles. The layer order is
// the order of the parts, bottom first, that the fewest imports run against (an import runs against
// it when a part imports one above it): exact, part by part of each cycle. Without a cycle it is 0.
// test/boundaries.test.ts reads the same graph (core's capability folders form no cycle).
// Usage: node scripts/import-graph.mjs [src src/core src/io ...]   (default: those three)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function listTs(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listTs(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

/** The module specifiers a file imports or re-exports (comments left out). */
export function importsOf(file) {
  const source = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  return [
    ...source.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm),
    ...source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
    ...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1] ?? '');
}

/** The parts of `dir` (a subfolder, or a file directly in it) and every relative import between two of them. */
export function importGraph(dir) {
  const abs = path.resolve(ROOT, dir);
  const partOf = (file) => path.relative(abs, file).split(path.sep)[0];
  const parts = new Set(readdirSync(abs).filter((n) => !n.startsWith('.') && (n.endsWith('.ts') || !n.includes('.'))));
  const imports = [];
  for (const file of listTs(abs)) {
    for (const spec of importsOf(file).filter((s) => s.startsWith('.'))) {
      const target = path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts');
      const rel = path.relative(abs, target);
      if (rel.startsWith('..')) continue;
      const [from, to] = [partOf(file), partOf(target)];
      if (from !== to) imports.push({ from, to, file: path.relative(ROOT, file).split(path.sep).join('/'), spec });
    }
  }
  return { parts: [...parts].sort(), imports };
}

/** The strongly connected groups of more than one part (Tarjan), each sorted. */
export function cyclesOf(graph) {
  const next = new Map(graph.parts.map((p) => [p, new Set()]));
  for (const i of graph.imports) next.get(i.from)?.add(i.to);
  const index = new Map();
  const low = new Map();
  const stack = [];
  const groups = [];
  const visit = (p) => {
    index.set(p, index.size);
    low.set(p, index.get(p));
    stack.push(p);
    for (const q of next.get(p) ?? []) {
      if (!index.has(q)) {
        visit(q);
        low.set(p, Math.min(low.get(p), low.get(q)));
      } else if (stack.includes(q)) low.set(p, Math.min(low.get(p), index.get(q)));
    }
    if (low.get(p) !== index.get(p)) return;
    const group = [];
    let q;
    do {
      q = stack.pop();
      group.push(q);
    } while (q !== p);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const p of graph.parts) if (!index.has(p)) visit(p);
  return groups;
}

/** One cycle through a group, as `a -> b -> ... -> a` (a shortest one from the group's first part). */
export function nameCycle(graph, group) {
  const inGroup = new Set(group);
  const start = group[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const p = queue.shift();
    for (const i of graph.imports) {
      if (i.from !== p || !inGroup.has(i.to)) continue;
      if (i.to === start) {
        const path = [start];
        for (let q = p; q !== null; q = previous.get(q)) path.unshift(q);
        return path.join(' -> ');
      }
      if (!previous.has(i.to)) {
        previous.set(i.to, p);
        queue.push(i.to);
      }
    }
  }
  return group.join(' -> ');
}

/** The imports inside one cyclic group that run against its best order (fewest such imports; exact). */
function againstInGroup(graph, group) {
  const n = group.length;
  const at = new Map(group.map((p, k) => [p, k]));
  const weight = group.map(() => group.map(() => 0));
  for (const i of graph.imports) if (at.has(i.from) && at.has(i.to)) weight[at.get(i.from)][at.get(i.to)] += 1;
  // best[S]: fewest imports against the order when the parts of S are the bottom |S| parts.
  const best = new Array(1 << n).fill(Number.POSITIVE_INFINITY);
  const top = new Array(1 << n).fill(-1);
  best[0] = 0;
  for (let s = 0; s < 1 << n; s++) {
    if (best[s] === Number.POSITIVE_INFINITY) continue;
    for (let v = 0; v < n; v++) {
      if (s & (1 << v)) continue;
      let cost = best[s];
      for (let u = 0; u < n; u++) if (s & (1 << u)) cost += weight[u][v];
      if (cost < best[s | (1 << v)]) {
        best[s | (1 << v)] = cost;
        top[s | (1 << v)] = v;
      }
    }
  }
  const order = [];
  for (let s = (1 << n) - 1; s > 0; s &= ~(1 << top[s])) order.unshift(group[top[s]]);
  const rank = new Map(order.map((p, k) => [p, k]));
  return graph.imports.filter((i) => rank.has(i.from) && rank.has(i.to) && rank.get(i.to) > rank.get(i.from));
}

/** The figures of one folder: parts, imports between them, imports against the layer order, cycles. */
export function graphFigures(dir) {
  const graph = importGraph(dir);
  const cycles = cyclesOf(graph);
  const against = cycles.flatMap((group) => againstInGroup(graph, group));
  const pairs = new Set(graph.imports.map((i) => `${i.from} -> ${i.to}`));
  return {
    dir,
    folders: graph.parts.filter((p) => !p.endsWith('.ts')).length,
    files: graph.parts.filter((p) => p.endsWith('.ts')).length,
    imports: graph.imports.length,
    pairs: pairs.size,
    against,
    cycles: cycles.map((group) => ({ parts: group, one: nameCycle(graph, group) })),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dirs = process.argv.length > 2 ? process.argv.slice(2) : ['src', 'src/core', 'src/io'];
  for (const dir of dirs) {
    const f = graphFigures(dir);
    console.log(
      `${dir}: ${f.folders} folders and ${f.files} files; ${f.imports} imports between them (${f.pairs} pairs); ` +
        `${f.against.length} against the layer order; ${f.cycles.length} cycle(s)`,
    );
    for (const c of f.cycles) console.log(`  cycle among ${c.parts.join(', ')}: ${c.one}`);
    for (const i of f.against) console.log(`  against: ${i.file} imports ${i.spec} (${i.from} -> ${i.to})`);
  }
}
