import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CORE = path.resolve(import.meta.dirname, '../../src/core');
const ALLOWED_PACKAGES = ['yaml', 'simple-statistics', '@babel/parser'];

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listTs(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

describe('src/core stays pure', () => {
  it('imports only core modules and pure libraries, never Node I/O, vitest or execa', () => {
    const offenders: string[] = [];
    for (const file of listTs(CORE)) {
      const source = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      const specs = [
        ...source.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm),
        ...source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
        ...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
      ];
      for (const match of specs) {
        const spec = match[1] ?? '';
        const ok = spec.startsWith('./') || ALLOWED_PACKAGES.includes(spec);
        if (!ok) offenders.push(`${path.relative(CORE, file)} imports ${spec}`);
      }
      if (/\bprocess\.|\bconsole\.|Date\.now\(|new Date\(\)/.test(source)) {
        offenders.push(`${path.relative(CORE, file)} touches process, console or the clock`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
