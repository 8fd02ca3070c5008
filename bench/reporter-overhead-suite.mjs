/**
 * Writes a generated Vitest project for the reporter benchmark: `files` test files of `testsPerFile`
 * tests each (nested describes, a few assertions, some async), the repo's node_modules linked in,
 * a git repository with one commit (so the reporter's git look-up costs what it costs in a project).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function testFileSource(fileIndex, testsPerFile) {
  const lines = [`import { describe, expect, it } from 'vitest';`, ''];
  const groups = 4;
  const perGroup = Math.ceil(testsPerFile / groups);
  let written = 0;
  for (let g = 0; g < groups && written < testsPerFile; g++) {
    lines.push(`describe('module ${fileIndex} group ${g}', () => {`);
    for (let t = 0; t < perGroup && written < testsPerFile; t++, written++) {
      const n = fileIndex * 1000 + written;
      if (written % 5 === 0) {
        lines.push(
          `  it('resolves value ${n}', async () => {`,
          `    const v = await Promise.resolve(${n});`,
          `    expect(v).toBe(${n});`,
          '  });',
        );
      } else {
        lines.push(
          `  it('computes case ${n}', () => {`,
          `    const items = Array.from({ length: 50 }, (_, i) => i * ${(n % 7) + 1});`,
          `    expect(items.reduce((a, b) => a + b, 0)).toBe(${((n % 7) + 1) * 1225});`,
          `    expect({ id: ${n}, tags: ['a', 'b'] }).toEqual({ id: ${n}, tags: ['a', 'b'] });`,
          '  });',
        );
      }
    }
    lines.push('});', '');
  }
  return lines.join('\n');
}

export function generateSuite({ repoRoot, files = 100, testsPerFile = 20 }) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-bench-'));
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({ name: 'bench-suite', type: 'module', private: true }),
  );
  writeFileSync(path.join(root, 'vitest.config.mjs'), `export default { test: { include: ['test/**/*.test.ts'] } };\n`);
  writeFileSync(path.join(root, 'flakeguard.yaml'), 'budget:\n  test: 5s\n  file: 60s\n  warnAt: 80%\n');
  writeFileSync(path.join(root, '.gitignore'), 'node_modules\n.flakeguard\n');
  mkdirSync(path.join(root, 'test'), { recursive: true });
  for (let f = 0; f < files; f++) {
    writeFileSync(
      path.join(root, 'test', `module-${String(f).padStart(3, '0')}.test.ts`),
      testFileSource(f, testsPerFile),
    );
  }
  const git = (...args) =>
    execFileSync('git', args, {
      cwd: root,
      stdio: 'ignore',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'b',
        GIT_AUTHOR_EMAIL: 'b@b',
        GIT_COMMITTER_NAME: 'b',
        GIT_COMMITTER_EMAIL: 'b@b',
      },
    });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'suite');
  return root;
}
