import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FlakeguardError } from '../../../src/core/errors.js';
import { writeHtmlReport } from '../../../src/io/files/html-file.js';

const dirs: string[] = [];
const temp = (): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fg-html-file-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('writeHtmlReport', () => {
  it('writes the page relative to cwd, creating folders, replacing the old page without leftovers', () => {
    const dir = temp();
    writeFileSync(path.join(dir, 'old.txt'), 'x');
    const target = writeHtmlReport('reports/gate.html', '<!DOCTYPE html><p>one</p>', dir);
    expect(target).toBe(path.join(dir, 'reports', 'gate.html'));
    writeHtmlReport('reports/gate.html', '<!DOCTYPE html><p>two</p>', dir);
    expect(readFileSync(target, 'utf8')).toBe('<!DOCTYPE html><p>two</p>');
    expect(readdirSync(path.join(dir, 'reports'))).toEqual(['gate.html']);
  });

  it('says which file could not be written and what to do', () => {
    const dir = temp();
    writeFileSync(path.join(dir, 'file'), 'x');
    let error: unknown;
    try {
      writeHtmlReport('file/gate.html', '<p>x</p>', dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FlakeguardError);
    expect((error as FlakeguardError).exitCode).toBe(2);
    expect((error as Error).message).toMatch(
      /^--html file\/gate\.html: cannot write the report \((ENOTDIR|EEXIST)\); pass a file in a writable folder$/,
    );
  });
});
