// Selection: a repo of 500 test files (5 tests each), a branch that changes 20 of them (an edited
// body, a renamed test, a new test). Times the gate's selection (the project's Vitest asked for its
// test files and projects, no test run; git diff + static parse of the changed files at both
// revisions) against `vitest list --json` on the same 20 changed files (a
// runtime alternative would need at least that, at both revisions). `--full` also lists all 500.
// Usage: npm run build && node bench/gate-selection.mjs [--full]   Target: <= 1 s and <= 0.05.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmt, median, REPO, scratchRepo, timed, VITEST } from './gate-lib.mjs';

const { selectGateTests } = await import(pathToFileURL(path.join(REPO, 'dist/commands/gate/gate-select.js')).href);
const { resolveBaseRevision } = await import(pathToFileURL(path.join(REPO, 'dist/io/git/git.js')).href);

const FILES = 500;
const CHANGED = 20;
const fileText = (f, variant) => {
  const lines = ["import { describe, expect, it } from 'vitest';", '', `describe('module ${f}', () => {`];
  for (let i = 0; i < 5; i += 1) {
    const name = variant && i === 1 ? `renamed case ${i}` : `case ${i}`;
    const body =
      variant && i === 2 ? `expect(${f} + ${i} + 1).toBe(${f + i + 1});` : `expect(${f} + ${i}).toBe(${f + i});`;
    lines.push(`  it('${name}', () => {`, `    ${body}`, '  });');
  }
  if (variant) lines.push("  it('brand new', () => {", '    expect(true).toBe(true);', '  });');
  lines.push('});', '');
  return lines.join('\n');
};

const files = {};
for (let f = 0; f < FILES; f += 1) files[`test/m${String(f).padStart(3, '0')}.test.ts`] = fileText(f, false);
const repo = scratchRepo(files);
try {
  repo.git('checkout', '-q', '-b', 'feature');
  const changed = [];
  for (let f = 0; f < FILES; f += FILES / CHANGED) {
    const rel = `test/m${String(f).padStart(3, '0')}.test.ts`;
    repo.write(rel, fileText(f, true));
    changed.push(rel);
  }
  repo.git('commit', '-qam', 'change 20 files');

  const times = [];
  let result;
  for (let i = 0; i < 5; i += 1) {
    const start = performance.now();
    const base = await resolveBaseRevision(repo.root, 'main');
    result = await selectGateTests(repo.root, base.sha, { setup: { config: null, projects: [] }, affected: false });
    times.push(performance.now() - start);
  }
  const kinds = {};
  for (const s of result.selected) kinds[s.kind] = (kinds[s.kind] ?? 0) + 1;
  const listRuns = [];
  for (let i = 0; i < 3; i += 1) {
    const r = timed(process.execPath, [VITEST, 'list', ...changed, '--json=true'], repo.root);
    if (r.status !== 0) throw new Error(`vitest list failed: ${r.stderr}`);
    listRuns.push(r.ms);
  }
  const { listTestFiles } = await import(pathToFileURL(path.join(REPO, 'dist/io/vitest/list-test-files.js')).href);
  const listStart = performance.now();
  await listTestFiles({ root: repo.root });
  const vitestListMs = performance.now() - listStart;
  const selectionMs = median(times);
  const listMs = median(listRuns);
  console.log(`selected: ${JSON.stringify(kinds)} of ${FILES * 5} tests (expected 20 changed, 20 renamed, 20 new)`);
  console.log(
    `gate selection (Vitest's file list + merge base + diff + parse 20 files at 2 revisions), median of 5: ${fmt(selectionMs)} (target <= 1 s)`,
  );
  console.log(
    `  of which Vitest's own file list (its config loaded, ${FILES} files globbed, no test run): ${fmt(vitestListMs)}`,
  );
  console.log(`vitest list --json on the 20 changed files, median of 3:                      ${fmt(listMs)}`);
  console.log(`ratio selection / vitest list (20 files): ${(selectionMs / listMs).toFixed(4)} (target <= 0.05)`);
  if (process.argv.includes('--full')) {
    const full = timed(process.execPath, [VITEST, 'list', '--json=true'], repo.root);
    console.log(
      `vitest list --json on all ${FILES} files: ${fmt(full.ms)}; ratio ${(selectionMs / full.ms).toFixed(4)}`,
    );
  }
} finally {
  repo.remove();
}
