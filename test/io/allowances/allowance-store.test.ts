import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  listAllowanceFiles,
  loadAllowanceStore,
  readAllowanceText,
  writeAllowanceFile,
} from '../../../src/io/allowances/allowance-store.js';
import { parseRenames } from '../../../src/io/git/git-renames.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-store-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const entry = (id: string, test: string) =>
  `- id: ${id}\n  test: ${test}\n  file: test/a.test.ts\n  budget: 2s\n  reason: r\n  added: 2026-11-30\n`;
function put(rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

describe('allowance store', () => {
  it('lists .yaml files under the folder, sorted, skipping dot files (temp files of a write)', () => {
    put('allowances/test/b.test.ts.yaml', '');
    put('allowances/test/a.test.ts.yaml', '');
    put('allowances/test/.a.test.ts.yaml.123.tmp', '');
    put('allowances/README.md', '');
    expect(listAllowanceFiles(root, 'allowances')).toEqual([
      'allowances/test/a.test.ts.yaml',
      'allowances/test/b.test.ts.yaml',
    ]);
    expect(listAllowanceFiles(root, 'missing')).toEqual([]);
  });

  it('loads every file, keeps the first of a duplicated id, and reports a broken file without losing the others', () => {
    put('allowances/test/a.test.ts.yaml', entry('a1a1a1a1', 'one'));
    put('allowances/test/b.test.ts.yaml', entry('a1a1a1a1', 'two') + entry('b2b2b2b2', 'three'));
    put('allowances/test/c.test.ts.yaml', '- id: [\n');
    const store = loadAllowanceStore(root, 'allowances');
    expect(store.allowances.map((a) => `${a.id} ${a.fullName}`)).toEqual(['a1a1a1a1 one', 'b2b2b2b2 three']);
    expect(store.problems.map((p) => `${p.kind} ${p.where}`)).toEqual([
      'duplicate-id allowances/test/b.test.ts.yaml:1:3',
      expect.stringMatching(/^syntax allowances\/test\/c\.test\.ts\.yaml:\d+:\d+$/),
    ]);
    expect(store.texts.get('allowances/test/a.test.ts.yaml')).toBe(entry('a1a1a1a1', 'one'));
  });

  it('writes atomically and removes a file left empty with the folders it emptied', () => {
    writeAllowanceFile(root, 'allowances/test/deep/a.test.ts.yaml', entry('a1a1a1a1', 'one'));
    expect(readAllowanceText(root, 'allowances/test/deep/a.test.ts.yaml')).toBe(entry('a1a1a1a1', 'one'));
    expect(readdirSync(path.join(root, 'allowances/test/deep'))).toEqual(['a.test.ts.yaml']);
    put('allowances/keep.yaml', '');
    writeAllowanceFile(root, 'allowances/test/deep/a.test.ts.yaml', '\n');
    expect(existsSync(path.join(root, 'allowances/test'))).toBe(false);
    expect(existsSync(path.join(root, 'allowances/keep.yaml'))).toBe(true);
    expect(readAllowanceText(root, 'allowances/test/deep/a.test.ts.yaml')).toBe('');
  });
});

describe('parseRenames', () => {
  it('reads renames from git diff --name-status -z and ignores other changes', () => {
    const z = [
      'M',
      'src/a.ts',
      'R087',
      'test/hub/tracker.test.ts',
      'test/core/tracker.test.ts',
      'C100',
      'x.ts',
      'y.ts',
      'D',
      'gone.ts',
      '',
    ].join('\0');
    expect([...parseRenames(z)]).toEqual([['test/hub/tracker.test.ts', 'test/core/tracker.test.ts']]);
  });
});
