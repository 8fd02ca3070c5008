import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findVitestConfigFile } from '../../../src/io/vitest/vitest-config-file.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));
function tree(files: readonly string[]): string {
  dir = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-config-'));
  for (const f of files) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), 'export default {};\n');
  }
  mkdirSync(path.join(dir, 'app/src'), { recursive: true });
  return dir;
}

describe('findVitestConfigFile: the config Vitest starts with, by its own lookup', () => {
  it('vitest.config before vite.config, .ts before .mjs, in the root', () => {
    const root = tree(['app/vite.config.ts', 'app/vitest.config.mjs', 'app/vitest.config.ts']);
    expect(findVitestConfigFile(path.join(root, 'app'))).toBe(path.join(root, 'app/vitest.config.ts'));
  });

  it('a parent folder when the root has none (as vitest/node walks up)', () => {
    const root = tree(['vite.config.js']);
    expect(findVitestConfigFile(path.join(root, 'app/src'))).toBe(path.join(root, 'vite.config.js'));
  });

  it('the root before its parent', () => {
    const root = tree(['vitest.config.ts', 'app/vite.config.cjs']);
    expect(findVitestConfigFile(path.join(root, 'app'))).toBe(path.join(root, 'app/vite.config.cjs'));
  });

  it('--config wins, resolved against the root', () => {
    const root = tree(['app/vitest.config.ts']);
    expect(findVitestConfigFile(path.join(root, 'app'), 'ci.config.ts')).toBe(path.join(root, 'app/ci.config.ts'));
  });
});
