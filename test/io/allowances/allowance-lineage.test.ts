/**
 * The lineage walker on real git repositories built in a temp folder: a rename, a move to another
 * file by cut and paste, a body edit, a name and body changed at once, a shallow clone, the cache.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractTests } from '../../../src/core/source/test-source.js';
import { traceLineage } from '../../../src/io/allowances/allowance-lineage.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-lineage-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
};
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: ENV }).toString().trim();
function put(rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}
const file = (...tests: [string, string][]): string =>
  `import { it } from 'vitest';\n${tests.map(([n, body]) => `it(${JSON.stringify(n)}, () => { ${body} });`).join('\n')}\n`;
function commitAll(message: string): string {
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', message);
  return git(root, 'rev-parse', 'HEAD');
}
const fingerprintOf = (text: string, rel: string, name: string): string =>
  extractTests(text, rel).find((t) => t.fullName === name)?.fingerprint ?? '';

function start(): {
  commit: string;
  request: { id: string; commit: string; state: { file: string; fullName: string; fingerprint: string } };
} {
  git(root, 'init', '-q', '-b', 'main');
  const text = file(['slow', 'wait(300);'], ['fast', 'ok();']);
  put('a.test.ts', text);
  const commit = commitAll('start');
  return {
    commit,
    request: {
      id: 'a1',
      commit,
      state: { file: 'a.test.ts', fullName: 'slow', fingerprint: fingerprintOf(text, 'a.test.ts', 'slow') },
    },
  };
}

describe('traceLineage', () => {
  it('follows a rename, a cut-and-paste move to another file and a body edit, one commit each', async () => {
    const { request } = start();
    put('a.test.ts', file(['slow renamed', 'wait(300);'], ['fast', 'ok();']));
    commitAll('rename');
    put('a.test.ts', file(['fast', 'ok();']));
    put('b.test.ts', file(['slow renamed', 'wait(300);']));
    commitAll('move by cut and paste');
    put('b.test.ts', file(['slow renamed', 'wait(310);']));
    commitAll('edit');
    const trace = await traceLineage(root, null, [request]);
    expect(trace.byId.get('a1')).toMatchObject({
      kind: 'traced',
      state: { file: 'b.test.ts', fullName: 'slow renamed' },
      steps: 3,
    });
  });

  it('ends where a name and a body changed in one commit, naming that commit', async () => {
    const { request } = start();
    put('a.test.ts', file(['other', 'wait(999);'], ['fast', 'ok();']));
    const sha = commitAll('rename and edit');
    const trace = await traceLineage(root, null, [request]);
    expect(trace.byId.get('a1')).toEqual({
      kind: 'ended',
      why: `the test (last "slow") left a.test.ts in commit ${sha.slice(0, 10)}: deleted, or renamed and edited in one step`,
    });
  });

  it('is unavailable in a shallow clone that lacks the commit, and without a recorded commit', async () => {
    const { request } = start();
    put('a.test.ts', file(['slow', 'wait(301);'], ['fast', 'ok();']));
    commitAll('edit');
    const clone = path.join(root, 'clone');
    git(root, 'clone', '-q', '--depth', '1', `file://${root}`, clone);
    const trace = await traceLineage(clone, null, [request, { ...request, id: 'b2', commit: null }]);
    expect(trace.byId.get('a1')).toEqual({
      kind: 'unavailable',
      why: `commit ${request.commit.slice(0, 10)} is not in this clone (a shallow clone, or history rewritten)`,
    });
    expect(trace.byId.get('b2')).toMatchObject({ kind: 'unavailable' });
  });

  it('caches by commit: the same HEAD answers from the cache, new commits resume from it', async () => {
    const { request } = start();
    put('a.test.ts', file(['slow 2', 'wait(300);'], ['fast', 'ok();']));
    commitAll('rename');
    const cache = path.join(root, '.flakeguard/cache/allowance-lineage.json');
    const first = await traceLineage(root, cache, [request]);
    expect(existsSync(cache)).toBe(true);
    const head = git(root, 'rev-parse', 'HEAD');
    const key = JSON.stringify([request.commit, 'a.test.ts', 'slow', request.state.fingerprint]);
    const written = JSON.parse(readFileSync(cache, 'utf8'));
    expect(written).toMatchObject({ version: 2, entries: { [key]: { at: head } } });
    expect(written.entries[key].lineage.state).toMatchObject({ fullName: 'slow 2' });
    expect((await traceLineage(root, cache, [request])).byId).toEqual(first.byId);
    // A version 1 cache (0.1.0's, the full name under \`name\`) is still read: the same HEAD answers
    // from it, so a state only that file holds comes back, as fullName.
    const v1 = { ...written.entries[key], lineage: { ...written.entries[key].lineage } };
    const { fullName: _fullName, ...state } = v1.lineage.state;
    v1.lineage.state = { ...state, name: 'slow as cached' };
    writeFileSync(cache, JSON.stringify({ version: 1, entries: { [key]: v1 } }));
    expect((await traceLineage(root, cache, [request])).byId.get('a1')).toMatchObject({
      kind: 'traced',
      state: { fullName: 'slow as cached' },
    });
    writeFileSync(cache, JSON.stringify(written));
    put('a.test.ts', file(['slow 3', 'wait(300);'], ['fast', 'ok();']));
    commitAll('rename again');
    expect((await traceLineage(root, cache, [request])).byId.get('a1')).toMatchObject({
      kind: 'traced',
      state: { fullName: 'slow 3' },
      steps: 2,
    });
  });

  it('reports the working tree changes since HEAD (a staged git mv, an untracked file)', async () => {
    start();
    git(root, 'mv', 'a.test.ts', 'c.test.ts');
    put('d.test.ts', file(['new', 'x();']));
    const trace = await traceLineage(root, null, []);
    expect(trace.worktree).toEqual(
      expect.arrayContaining([
        { status: 'R', from: 'a.test.ts', path: 'c.test.ts' },
        { status: 'A', from: null, path: 'd.test.ts' },
      ]),
    );
  });
});
