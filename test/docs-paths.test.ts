/**
 * Docs name only paths that exist: every repository path README.md and docs/*.md mention, in
 * backticks or as a link target, is checked against this checkout. A repository path starts with
 * src/, test/<a folder of test/>, bench/, example/ or .ci/, is a page docs/<name>.md, or is a source path relative to
 * src/ (core/, io/, commands/, reporter/, runner/). `file:line` suffixes are dropped; paths with
 * wildcards or placeholders (*, {a,b}, <name>, $VAR) and the user-project examples (test/x.test.ts,
 * allowances/test/hub.test.ts.yaml, .flakeguard/runs/, GitHub's docs/CODEOWNERS) are not repository paths.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const REPO_ROOTS = /^(?:src|bench|example|\.ci)\/|^docs\/[^/]+\.md$/;
const SRC_RELATIVE = /^(?:core|io|commands|reporter|runner)\//;
const TEST_FOLDERS = new Set(
  readdirSync(path.join(ROOT, 'test')).filter((e) => statSync(path.join(ROOT, 'test', e)).isDirectory()),
);

/** The file a mention names in this repository, or null when it is not a repository path. */
function repositoryPath(mention: string): string | null {
  const p = mention.replace(/[:,.;]+$/, '').replace(/:\d+(?::\d+)?$/, '');
  if (/[*{}<>$]/.test(p)) return null;
  if (REPO_ROOTS.test(p)) return p;
  if (SRC_RELATIVE.test(p)) return `src/${p}`;
  const [top, folder] = p.split('/');
  if (top === 'test' && folder !== undefined && TEST_FOLDERS.has(folder)) return p;
  return null;
}

function mentions(doc: string): string[] {
  const text = readFileSync(path.join(ROOT, doc), 'utf8');
  const found = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1] ?? '');
  for (const m of text.matchAll(/\]\(([^)\s#]+)[^)]*\)/g)) {
    const target = m[1] ?? '';
    if (!/^[a-z]+:/.test(target)) found.push(path.posix.normalize(path.posix.join(path.posix.dirname(doc), target)));
  }
  return found;
}

describe('paths in the docs', () => {
  const docs = [
    'README.md',
    ...readdirSync(path.join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];

  it('every repository path README.md and docs/*.md name exists', () => {
    const missing: string[] = [];
    for (const doc of docs) {
      for (const mention of mentions(doc)) {
        const rel = repositoryPath(mention);
        if (rel !== null && !existsSync(path.join(ROOT, rel))) missing.push(`${doc}: ${mention}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('tells repository paths from user-project examples and placeholders', () => {
    expect(repositoryPath('src/core/duration.ts:34')).toBe('src/core/duration.ts');
    expect(repositoryPath('core/budget/budget.ts')).toBe('src/core/budget/budget.ts');
    expect(repositoryPath('test/e2e/gate.test.ts')).toBe('test/e2e/gate.test.ts');
    expect(repositoryPath('docs/gate.md,')).toBe('docs/gate.md');
    expect(repositoryPath('test/x.test.ts')).toBeNull();
    expect(repositoryPath('docs/CODEOWNERS')).toBeNull();
    expect(repositoryPath('allowances/test/hub.test.ts.yaml')).toBeNull();
    expect(repositoryPath('.flakeguard/runs/')).toBeNull();
    expect(repositoryPath('src/core/{budget,record}/')).toBeNull();
    expect(repositoryPath('io/<capability>')).toBeNull();
  });
});
