// Allowance matching cost against `vitest list --json` on the same generated project, same run.
// Generates 500 test files (20 tests each, 10,000 tests) in a temp folder with 200 allowances
// (half named exactly, a quarter renamed, a quarter moved), then times:
//   - loadAllowancesForRun on the fast path (every allowance exact: no source read),
//   - loadAllowancesForRun on the full path (renamed/moved: every test file read, parsed and
//     fingerprinted, then matched), which is the worst case the reporter adds to a run,
//   - `vitest list --json` on the same files (the baseline).
// Prints the ratio full-path / vitest list (target <= 0.05) and the absolute figures.
// Run: npm run build && node bench/allowances.mjs [files=500] [testsPerFile=20] [vitestListRuns=1]
// (`vitest list` on 500 files takes minutes on a loaded 2-core machine, hence one run by default.)
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { parseConfig } from '../dist/core/config.js';
import { extractTests } from '../dist/core/source/test-source.js';
import { loadAllowancesForRun } from '../dist/io/allowances/allowances-for-run.js';

const FILES = Number(process.argv[2] ?? 500);
const PER = Number(process.argv[3] ?? 20);
const LIST_RUNS = Number(process.argv[4] ?? 1);
const REPO = path.resolve(import.meta.dirname, '..');
const root = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-bench-allowances-'));

function testFile(f, rename) {
  const lines = [
    `import { describe, it, expect } from 'vitest';`,
    `interface Row { id: number; name: string }`,
    ``,
    `describe('module ${f}', () => {`,
  ];
  for (let t = 0; t < PER; t++) {
    const title = rename && t === 0 ? `does thing ${t} in ${f}, renamed` : `does thing ${t} in ${f}`;
    lines.push(`  it('${title}', () => {`);
    lines.push(`    const rows: Row[] = [{ id: ${t}, name: 'row ${f}' }];`);
    lines.push(`    // a comment`);
    lines.push(`    expect(rows.reduce((sum, r) => sum + r.id * ${f}, 0)).toBe(${t * f});`);
    lines.push(`  });`);
  }
  lines.push(`});`, ``);
  return lines.join('\n');
}

function allowanceYaml(entries) {
  return entries
    .map(
      (e) =>
        `- id: ${e.id}\n  test: ${e.test}\n  file: ${e.file}\n  fingerprint: ${e.fingerprint}\n  budget: 7s\n  reason: bench\n  added: 2026-11-30\n`,
    )
    .join('');
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'bench', type: 'module', private: true }));
  writeFileSync(path.join(root, 'flakeguard.yaml'), 'budget:\n  test: 5s\n');
  mkdirSync(path.join(root, 'test'), { recursive: true });
  const tests = [];
  const exact = [];
  const followed = [];
  for (let f = 0; f < FILES; f++) {
    const file = `test/m${f}.test.ts`;
    const renamed = f % 5 === 1;
    const moved = f % 5 === 2;
    const actualFile = moved ? `test/moved/m${f}.test.ts` : file;
    const code = testFile(f, renamed);
    mkdirSync(path.dirname(path.join(root, actualFile)), { recursive: true });
    writeFileSync(path.join(root, actualFile), code);
    const source = extractTests(code, actualFile);
    for (const t of source) tests.push({ file: actualFile, fullName: t.fullName, line: t.line });
    const first = source[0];
    if (f % 5 === 0 && f % 10 === 0)
      exact.push({ id: `a${String(f).padStart(7, '0')}`, test: first.fullName, file, fingerprint: first.fingerprint });
    if (renamed || moved)
      followed.push({
        id: `b${String(f).padStart(7, '0')}`,
        test: `module ${f} > does thing 0 in ${f}`,
        file,
        fingerprint: first.fingerprint,
      });
  }
  const config = parseConfig('budget:\n  test: 5s\n', 'flakeguard.yaml');
  const writeStore = (entries) => {
    rmSync(path.join(root, 'allowances'), { recursive: true, force: true });
    const byFile = new Map();
    for (const e of entries) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
    for (const [file, list] of byFile) {
      const target = path.join(root, 'allowances', `${file}.yaml`);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, allowanceYaml(list));
    }
  };
  const timeSeam = async (reps) => {
    const times = [];
    let last;
    for (let i = 0; i < reps; i++) {
      const t0 = performance.now();
      last = await loadAllowancesForRun({ root, config, tests, platform: 'linux', today: '2026-11-30' });
      times.push(performance.now() - t0);
    }
    return { ms: median(times), last };
  };

  writeStore(exact);
  await timeSeam(1);
  const fast = await timeSeam(5);
  writeStore([...exact, ...followed]);
  await timeSeam(1);
  const full = await timeSeam(5);
  const counts = {};
  for (const a of full.last.applied.values()) counts[a.match] = (counts[a.match] ?? 0) + 1;

  const listTimes = [];
  for (let i = 0; i < LIST_RUNS; i++) {
    const t0 = performance.now();
    const r = await execa(
      process.execPath,
      [path.join(REPO, 'node_modules/vitest/vitest.mjs'), 'list', '--json=true'],
      { cwd: root, reject: false, env: { ...process.env, CI: 'true' } },
    );
    listTimes.push(performance.now() - t0);
    if (r.exitCode !== 0) throw new Error(`vitest list failed: ${String(r.stderr).slice(0, 500)}`);
  }
  const list = median(listTimes);

  console.log(
    `${FILES} files, ${tests.length} tests, ${exact.length + followed.length} allowances (${followed.length} renamed or moved)`,
  );
  console.log(
    `applied: ${JSON.stringify(counts)}, warnings: ${full.last.warnings.length}, notices: ${full.last.notices.length}`,
  );
  console.log(`vitest list --json (baseline, median of ${LIST_RUNS}):      ${list.toFixed(0)} ms`);
  console.log(
    `load average at the end: ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (2 cores shared)`,
  );
  console.log(
    `loadAllowancesForRun, all exact (median of 5):   ${fast.ms.toFixed(0)} ms  ratio ${(fast.ms / list).toFixed(4)}`,
  );
  console.log(
    `loadAllowancesForRun, read+fingerprint+match:    ${full.ms.toFixed(0)} ms  ratio ${(full.ms / list).toFixed(4)}  (target <= 0.05, < 1000 ms)`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
