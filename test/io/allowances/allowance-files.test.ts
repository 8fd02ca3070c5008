import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkAllowanceWritePath, scanAllowanceFiles } from '../../../src/io/allowances/allowance-files.js';
import { loadAllowanceStore, updateAllowanceFile } from '../../../src/io/allowances/allowance-store.js';

// FIFOs need mkfifo, a process: test/e2e/bad-input/special-files.test.ts has them.
let base: string;
let root: string;
beforeEach(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-files-'));
  root = path.join(base, 'project');
  mkdirSync(root);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const entry = (id: string, test: string) =>
  `- id: ${id}\n  test: ${test}\n  file: test/a.test.ts\n  budget: 2s\n  reason: r\n  added: 2026-11-30\n`;
function put(rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}
const link = (target: string, rel: string): void => {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  symlinkSync(target, path.join(root, rel));
};
const problems = () => scanAllowanceFiles(root, 'allowances').problems.map((p) => `${p.where}: ${p.message}`);

describe('allowance files through symbolic links', () => {
  it('follows a linked folder and a linked file inside the project, under the path through the link', () => {
    put('shared/test/a.test.ts.yaml', entry('a1a1a1a1', 'one'));
    put('shared/b.yaml', entry('b2b2b2b2', 'two'));
    link('../shared/test', 'allowances/test');
    link('../../shared/b.yaml', 'allowances/other/b.test.ts.yaml');
    expect(scanAllowanceFiles(root, 'allowances')).toEqual({
      files: ['allowances/other/b.test.ts.yaml', 'allowances/test/a.test.ts.yaml'],
      problems: [],
    });
    expect(loadAllowanceStore(root, 'allowances').allowances.map((a) => a.id)).toEqual(['b2b2b2b2', 'a1a1a1a1']);
  });

  it('follows an allowances folder that is itself a link inside the project', () => {
    put('config/allowances/test/a.test.ts.yaml', entry('a1a1a1a1', 'one'));
    link('config/allowances', 'allowances');
    expect(scanAllowanceFiles(root, 'allowances').files).toEqual(['allowances/test/a.test.ts.yaml']);
  });

  it('refuses, naming the link, one that leaves the project, loops or points at nothing', () => {
    mkdirSync(path.join(base, 'outside'));
    writeFileSync(path.join(base, 'outside/x.test.ts.yaml'), entry('c3c3c3c3', 'three'));
    link('../../outside', 'allowances/out');
    link('..', 'allowances/test/up');
    link('b.yaml', 'allowances/a.yaml');
    link('a.yaml', 'allowances/b.yaml');
    link('gone.yaml', 'allowances/dangling.yaml');
    const real = realpathSync(root);
    expect(problems()).toEqual([
      'allowances/a.yaml: a symbolic link that loops; it was not read. Point it at a file or folder that does not hold it',
      'allowances/b.yaml: a symbolic link that loops; it was not read. Point it at a file or folder that does not hold it',
      'allowances/dangling.yaml: a symbolic link to gone.yaml, which does not exist; it was not read. Restore its target or remove the link',
      `allowances/out: a symbolic link to ${realpathSync(path.join(base, 'outside'))}, outside the project at ${real}; it was not read. Links are followed only inside the project: move its target into the project, or copy the allowance files in`,
      'allowances/test/up: a symbolic link that loops (back to allowances); it was not read. Point it at a file or folder that does not hold it',
    ]);
    expect(loadAllowanceStore(root, 'allowances').allowances).toEqual([]);
  });

  it('an allowances path that is a file is a problem, not an empty store', () => {
    put('allowances', 'not a folder\n');
    expect(problems()).toEqual([
      'allowances: a file, not a folder; no allowance was read. Make it the folder of allowance files, or set `allowances:` in flakeguard.yaml to one',
    ]);
    expect(scanAllowanceFiles(root, 'missing')).toEqual({ files: [], problems: [] });
  });
});

describe('allowance writers through symbolic links', () => {
  it('update the file a link inside the project points to, keeping the link', () => {
    put('shared/test/a.test.ts.yaml', entry('a1a1a1a1', 'one'));
    link('../shared/test', 'allowances/test');
    updateAllowanceFile(root, 'allowances/test/a.test.ts.yaml', (t) => t.replace('budget: 2s', 'budget: 3s'));
    expect(readFileSync(path.join(root, 'shared/test/a.test.ts.yaml'), 'utf8')).toContain('budget: 3s');
    // Emptied through the link: the file goes, the linked folder stays.
    updateAllowanceFile(root, 'allowances/test/a.test.ts.yaml', () => '');
    expect(scanAllowanceFiles(root, 'allowances')).toEqual({ files: [], problems: [] });
  });

  it('refuse a path through a link that leaves the project, naming the link', () => {
    mkdirSync(path.join(base, 'outside'));
    link('../../outside', 'allowances/test');
    expect(() => checkAllowanceWritePath(root, 'allowances/test/a.test.ts.yaml')).toThrow(
      /^allowances\/test: a symbolic link to .*outside, outside the project at .*; it was not written\./,
    );
    expect(() => checkAllowanceWritePath(root, 'allowances/new/a.test.ts.yaml')).not.toThrow();
  });
});
