// Parser choice for test-source extraction: parses a generated set of TypeScript test files with
// oxc-parser, @babel/parser and TypeScript's own parser, walking every AST node (what fingerprinting
// does), and prints the median time per parser and the ratio to the fastest.
// (oxc's experimentalRawTransfer, its fast path, needs Node >= 22; flakeguard supports Node 20.)
// Run: node bench/allowances-parsers.mjs [files=200] [testsPerFile=20]

import { parse as babelParse } from '@babel/parser';
import { parseSync } from 'oxc-parser';
import ts from 'typescript';

const FILES = Number(process.argv[2] ?? 200);
const PER = Number(process.argv[3] ?? 20);

function makeFile(f) {
  const lines = [`import { describe, it, expect } from 'vitest';`, `interface Row { id: number; name: string }`, ``];
  lines.push(`describe('module ${f}', () => {`);
  for (let t = 0; t < PER; t++) {
    lines.push(`  it('does thing ${t} in ${f}', async () => {`);
    lines.push(`    const rows: Row[] = [{ id: ${t}, name: \`row \${${t}}\` }];`);
    lines.push(`    const total = rows.reduce((sum: number, r) => sum + r.id * ${f}, 0) as number;`);
    lines.push(`    // a comment ${t}`);
    lines.push(`    await new Promise<void>((resolve) => setTimeout(resolve, 0));`);
    lines.push(`    expect(total).toBe(${t * f});`);
    lines.push(`  });`);
  }
  lines.push(`});`, ``);
  return lines.join('\n');
}

function walk(node) {
  let n = 0;
  const stack = [node];
  while (stack.length) {
    const cur = stack.pop();
    if (Array.isArray(cur)) {
      for (const c of cur) if (c && typeof c === 'object') stack.push(c);
      continue;
    }
    n++;
    for (const k in cur) {
      if (k === 'loc' || k === 'range' || k === 'parent') continue;
      const v = cur[k];
      if (v && typeof v === 'object') stack.push(v);
    }
  }
  return n;
}

function tsWalk(sf) {
  let n = 0;
  const visit = (node) => {
    n++;
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return n;
}

const files = Array.from({ length: FILES }, (_, i) => ({ name: `t${i}.test.ts`, code: makeFile(i) }));
const bytes = files.reduce((s, f) => s + f.code.length, 0);

const parsers = {
  'oxc-parser': (f) => walk(parseSync(f.name, f.code, { preserveParens: false }).program),
  '@babel/parser': (f) => walk(babelParse(f.code, { sourceType: 'module', plugins: ['typescript'] }).program),
  typescript: (f) => tsWalk(ts.createSourceFile(f.name, f.code, ts.ScriptTarget.Latest, true)),
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = {};
for (const [name, run] of Object.entries(parsers)) {
  for (const f of files.slice(0, 5)) run(f); // warm-up
  const times = [];
  let nodes = 0;
  for (let rep = 0; rep < 7; rep++) {
    const t0 = performance.now();
    nodes = 0;
    for (const f of files) nodes += run(f);
    times.push(performance.now() - t0);
  }
  results[name] = { ms: median(times), nodes };
}
const best = Math.min(...Object.values(results).map((r) => r.ms));
console.log(
  `${FILES} files, ${FILES * PER} tests, ${(bytes / 1024).toFixed(0)} KiB; parse + walk every node, median of 7`,
);
for (const [name, r] of Object.entries(results)) {
  console.log(`${name.padEnd(14)} ${r.ms.toFixed(1).padStart(8)} ms  x${(r.ms / best).toFixed(2)}  (${r.nodes} nodes)`);
}
