import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findDefaultBranch,
  listChangedFiles,
  readFileAtRevision,
  resolveBaseRevision,
} from '../../../src/io/git/git.js';
import { createFixture, type Fixture } from '../../helpers/fixture.js';

describe('git for the gate', () => {
  let fx: Fixture;
  let baseSha: string;
  beforeAll(async () => {
    fx = await createFixture({
      git: true,
      files: { 'a.test.ts': 'one\n', 'b.test.ts': 'two\n', 'gone.test.ts': 'x\n' },
    });
    baseSha = (await fx.git(['rev-parse', 'HEAD'])).trim();
    await fx.git(['checkout', '-q', '-b', 'feature']);
    fx.write('a.test.ts', 'one changed\n');
    await fx.git(['rm', '-q', 'gone.test.ts']);
    await fx.git(['commit', '-qam', 'branch']);
    fx.write('new.test.ts', 'fresh\n');
  });
  afterAll(() => fx.remove());

  it('finds the default branch and the merge base', async () => {
    expect(await findDefaultBranch(fx.root)).toBe('main');
    expect(await resolveBaseRevision(fx.root, undefined)).toEqual({ ref: 'main', sha: baseSha });
  });

  it('lists changed, deleted and untracked files and reads the base content', async () => {
    expect(await listChangedFiles(fx.root, baseSha)).toEqual(['a.test.ts', 'gone.test.ts', 'new.test.ts']);
    expect(await readFileAtRevision(fx.root, baseSha, 'a.test.ts')).toBe('one\n');
    expect(await readFileAtRevision(fx.root, baseSha, 'new.test.ts')).toBeNull();
  });

  it('a missing base ref stops with the fetch command (exit 2)', async () => {
    await expect(resolveBaseRevision(fx.root, 'origin/main')).rejects.toMatchObject({
      code: 'GIT',
      exitCode: 2,
      message: expect.stringContaining('git fetch --no-tags --depth=50 origin main'),
    });
  });
});

describe('readFilesAtRevision', () => {
  it('reads several files at a revision with one git process, null when missing', async () => {
    const { readFilesAtRevision } = await import('../../../src/io/git/git.js');
    const fx = await createFixture({ git: true, files: { 'sub/x.test.ts': 'héllo\n', 'sub/y.test.ts': '' } });
    try {
      const sha = (await fx.git(['rev-parse', 'HEAD'])).trim();
      const got = await readFilesAtRevision(`${fx.root}/sub`, sha, ['x.test.ts', 'nope.test.ts', 'y.test.ts']);
      expect([...got.entries()]).toEqual([
        ['x.test.ts', 'héllo\n'],
        ['nope.test.ts', null],
        ['y.test.ts', ''],
      ]);
    } finally {
      fx.remove();
    }
  });
});
