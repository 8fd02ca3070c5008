import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assertBuildIsFresh, findStaleBuild } from './dist-fresh.js';

describe('the e2e tier refuses a build older than the source', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  function project(files: Record<string, number>): string {
    const root = mkdtempSync(path.join(os.tmpdir(), 'fg-dist-fresh-'));
    roots.push(root);
    for (const [rel, secondsAgo] of Object.entries(files)) {
      const file = path.join(root, rel);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, '');
      const when = new Date(Date.UTC(2026, 0, 1) - secondsAgo * 1000);
      utimesSync(file, when, when);
    }
    return root;
  }

  it('accepts a build written after every source, and ignores declaration files', () => {
    expect(
      findStaleBuild(
        project({ 'src/a.ts': 60, 'src/core/b.ts': 60, 'src/types.d.ts': 0, 'dist/a.js': 10, 'dist/core/b.js': 10 }),
      ),
    ).toEqual([]);
  });

  it('names each source changed after its build, and each source never built', () => {
    expect(
      findStaleBuild(
        project({ 'src/a.ts': 5, 'src/core/b.ts': 60, 'src/core/new.ts': 1, 'dist/a.js': 10, 'dist/core/b.js': 10 }),
      ),
    ).toEqual(['src/a.ts (changed after dist/ was built)', 'src/core/new.ts (not built)']);
  });

  it('stops the run with the stale files and the command to run', () => {
    expect(() => assertBuildIsFresh(project({ 'src/a.ts': 10, 'dist/a.js': 60, 'src/b.ts': 10 }))).toThrow(
      'dist/ is older than src/: src/a.ts (changed after dist/ was built), src/b.ts (not built). Run `npm run build` first, or `npm run test:e2e`',
    );
    expect(() => assertBuildIsFresh(project({ 'src/a.ts': 60, 'dist/a.js': 10 }))).not.toThrow();
    expect(() => assertBuildIsFresh(project({ 'src/a.ts': 60 }))).toThrow(
      'the e2e tests run the built package, and there is no dist/. Run `npm run build` first',
    );
  });
});
