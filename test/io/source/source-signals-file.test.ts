import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSourceSignals } from '../../../src/io/source/source-files.js';

const dirs: string[] = [];
function project(code: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'fg-source-signals-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'test'));
  writeFileSync(path.join(dir, 'test/x.test.ts'), code);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const CODE = [
  "import { expect, it } from 'vitest';",
  "it('draws', () => {",
  '  expect(Math.random()).toBeLessThan(2);',
  '});',
].join('\n');

describe('readSourceSignals', () => {
  it("reads the test's signals from its file on disk", () => {
    const root = project(CODE);
    const found = readSourceSignals(root, { file: 'test/x.test.ts', fullName: 'draws', line: 2 });
    expect(found.map((s) => [s.line, s.classes])).toEqual([[3, ['random-or-concurrency']]]);
  });

  it('without a line, the one test of that name; none when two share it', () => {
    const root = project(CODE);
    expect(readSourceSignals(root, { file: 'test/x.test.ts', fullName: 'draws', line: null })).toHaveLength(1);
    writeFileSync(path.join(root, 'test/x.test.ts'), `${CODE}\n${CODE.split('\n').slice(1).join('\n')}`);
    expect(readSourceSignals(root, { file: 'test/x.test.ts', fullName: 'draws', line: null })).toEqual([]);
  });

  it('none when the file is gone, no longer parses, or the test moved', () => {
    const root = project(CODE);
    expect(readSourceSignals(root, { file: 'test/gone.test.ts', fullName: 'draws', line: 2 })).toEqual([]);
    expect(readSourceSignals(root, { file: 'test/x.test.ts', fullName: 'draws', line: 9 })).toEqual([]);
    writeFileSync(path.join(root, 'test/x.test.ts'), 'it("draws", () => {');
    expect(readSourceSignals(root, { file: 'test/x.test.ts', fullName: 'draws', line: 1 })).toEqual([]);
  });
});
