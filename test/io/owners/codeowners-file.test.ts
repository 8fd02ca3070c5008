import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readProjectOwners, requireCodeownersFor } from '../../../src/io/owners/codeowners-file.js';

let dirs: string[] = [];
const repo = (files: Record<string, string>): string => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-owners-'));
  dirs.push(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
};
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

describe('readProjectOwners', () => {
  it('a project in a monorepo folder: the file at the repository root, patterns matched on the path from there', () => {
    const root = repo({
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.github/CODEOWNERS': '/packages/web/ @org/web\n/packages/api/ @org/api\n',
      'packages/web/package.json': '{}',
    });
    const owners = readProjectOwners(path.join(root, 'packages/web'));
    expect(owners.file).toBe('.github/CODEOWNERS');
    expect(owners.ownersOf('test/a.test.ts')).toEqual(['@org/web']);
  });

  it("GitHub's order: .github/ before the root before docs/", () => {
    const root = repo({ '.git/HEAD': '', CODEOWNERS: '* @root\n', 'docs/CODEOWNERS': '* @docs\n' });
    expect(readProjectOwners(root).ownersOf('a.test.ts')).toEqual(['@root']);
    writeFileSync(path.join(root, 'CODEOWNERS'), '');
    mkdirSync(path.join(root, '.github'));
    writeFileSync(path.join(root, '.github/CODEOWNERS'), '* @github\n');
    expect(readProjectOwners(root).ownersOf('a.test.ts')).toEqual(['@github']);
  });

  it('no CODEOWNERS: no file, no owners; --owner stops with where it looked', () => {
    const root = repo({ '.git/HEAD': '' });
    const owners = readProjectOwners(root);
    expect(owners).toMatchObject({ file: null });
    expect(owners.ownersOf('a.test.ts')).toEqual([]);
    expect(() => requireCodeownersFor(undefined, owners, 'flakeguard triage')).not.toThrow();
    expect(() => requireCodeownersFor('@org/web', owners, 'flakeguard triage')).toThrow(
      'flakeguard triage --owner @org/web: no CODEOWNERS file (looked for .github/CODEOWNERS, CODEOWNERS, docs/CODEOWNERS, .gitlab/CODEOWNERS at the repository root)',
    );
  });
});
