// Lineage cost: a generated git repository with 1,000 commits and 500 test files (20 tests each),
// 100 allowances recorded at the first commit whose tests were renamed, edited and moved since
// (one change per commit, as a team works). Times loadAllowancesForRun (what the reporter calls)
// three ways in the same run:
//   - baseline: the same allowances without a recorded commit (no lineage: name and body matching,
//     every test file read and fingerprinted),
//   - first run: lineage traced through history (cache removed before each try),
//   - repeat run: lineage answered from the cache under the records folder (same HEAD).
// Prints medians and the ratios first/baseline and repeat/baseline, and how the allowances applied.
// Run: npm run build && node bench/allowances-lineage.mjs [commits=1000] [files=500] [tries=3]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseConfig } from '../dist/core/config.js';
import { extractTests } from '../dist/core/source/test-source.js';
import { loadAllowancesForRun } from '../dist/io/allowances/allowances-for-run.js';

const COMMITS = Number(process.argv[2] ?? 1000);
const FILES = Number(process.argv[3] ?? 500);
const TRIES = Number(process.argv[4] ?? 3);
const PER = 20;
const ALLOWANCES = 100;
const root = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-bench-lineage-'));
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'b',
  GIT_AUTHOR_EMAIL: 'b@b',
  GIT_COMMITTER_NAME: 'b',
  GIT_COMMITTER_EMAIL: 'b@b',
};
const git = (args, input) => execFileSync('git', args, { cwd: root, env, input, maxBuffer: 1 << 30 }).toString();

// A deterministic generator, so every run measures the same history.
let seed = 42;
const rand = (n) => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed % n;
};

/** files[f] = { path, tests: [{ title, body }] } */
const files = Array.from({ length: FILES }, (_, f) => ({
  path: `test/m${f}.test.ts`,
  tests: Array.from({ length: PER }, (_, t) => ({
    title: `does thing ${t} in ${f}`,
    body: `expect(rows(${f}).reduce((s, r) => s + r.id * ${t}, 0)).toBe(${t * f});`,
  })),
}));
const render = (file) =>
  [
    `import { describe, it, expect } from 'vitest';`,
    `const rows = (n: number) => [{ id: n }];`,
    `describe('module', () => {`,
    ...file.tests.map((t) => `  it('${t.title}', () => {\n    ${t.body}\n  });`),
    `});`,
    ``,
  ].join('\n');

function blob(text) {
  return `data ${Buffer.byteLength(text)}\n${text}\n`;
}

function history() {
  let out = '';
  let time = 1_700_000_000;
  const commit = (mark, message, ops) => {
    out += `commit refs/heads/main\nmark :${mark}\ncommitter b <b@b> ${time++} +0000\n${blob(message)}${mark > 1 ? `from :${mark - 1}\n` : ''}${ops}`;
  };
  commit(
    1,
    'start',
    files.map((f) => `M 100644 inline ${f.path}\n${blob(render(f))}`).join('') +
      `M 100644 inline flakeguard.yaml\n${blob('budget:\n  test: 5s\n')}`,
  );
  for (let c = 2; c <= COMMITS; c++) {
    // Half the changes hit an allowance's test file, so lineage has history to walk.
    const f = rand(2) === 0 ? rand(ALLOWANCES) : rand(FILES);
    const file = files[f];
    const t = rand(3) === 0 ? 0 : rand(PER);
    const op = c % 50 === 0 ? 'move' : ['rename', 'edit', 'add'][rand(3)];
    if (op === 'move') {
      const from = file.path;
      file.path = `test/moved${c}/m${f}.test.ts`;
      commit(c, `move ${from}`, `R ${from} ${file.path}\n`);
      continue;
    }
    if (op === 'rename') file.tests[t].title = `${file.tests[t].title.replace(/ v\d+$/, '')} v${c}`;
    if (op === 'edit') file.tests[t].body = `${file.tests[t].body} // ${c}`.replace(/\/\/ \d+ \/\/ /, '// ');
    if (op === 'add') file.tests.push({ title: `added ${c}`, body: `expect(${c}).toBe(${c});` });
    commit(c, `${op} in ${file.path}`, `M 100644 inline ${file.path}\n${blob(render(file))}`);
  }
  return out;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  git(['init', '-q', '-b', 'main']);
  const started = performance.now();
  git(['fast-import', '--quiet'], history());
  git(['reset', '-q', '--hard', 'main']);
  const first = git(['rev-list', '--max-parents=0', 'HEAD']).trim();
  process.stdout.write(
    `repository: ${git(['rev-list', '--count', 'HEAD']).trim()} commits, ${FILES} test files, built in ${Math.round(performance.now() - started)} ms\n`,
  );
  // The allowances: test 0 of the first ALLOWANCES files, as they were at the first commit.
  const start = files.slice(0, ALLOWANCES).map((_, f) => {
    const text = render({
      tests: Array.from({ length: PER }, (_, t) => ({
        title: `does thing ${t} in ${f}`,
        body: `expect(rows(${f}).reduce((s, r) => s + r.id * ${t}, 0)).toBe(${t * f});`,
      })),
    });
    return { f, name: `module > does thing 0 in ${f}`, fingerprint: extractTests(text, 'x.test.ts')[0].fingerprint };
  });
  const writeAllowances = (withCommit) => {
    rmSync(path.join(root, 'allowances'), { recursive: true, force: true });
    for (const a of start) {
      const rel = `allowances/test/m${a.f}.test.ts.yaml`;
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      const id = (0xa0000000 + a.f).toString(16);
      writeFileSync(
        path.join(root, rel),
        `- id: ${id}\n  test: ${a.name}\n  file: test/m${a.f}.test.ts\n  fingerprint: ${a.fingerprint}\n${withCommit ? `  commit: ${first}\n` : ''}  budget: 7s\n  reason: bench\n  added: 2026-11-30\n`,
      );
    }
  };
  const tests = files.flatMap((file) =>
    extractTests(render(file), file.path).map((t) => ({ file: file.path, fullName: t.fullName, line: t.line })),
  );
  const config = parseConfig('budget:\n  test: 5s\n', 'flakeguard.yaml');
  const cache = path.join(root, '.flakeguard/cache/allowance-lineage.json');
  const once = async (setup) => {
    setup();
    const t0 = performance.now();
    const result = await loadAllowancesForRun({ root, config, tests, platform: process.platform, today: '2026-11-30' });
    return { ms: performance.now() - t0, result };
  };
  const kinds = (result) =>
    JSON.stringify(
      [...result.applied.values()].reduce((acc, a) => {
        acc[a.match] = (acc[a.match] ?? 0) + 1;
        return acc;
      }, {}),
    );
  // Interleaved, so a change in the machine's load falls on all three alike.
  const runs = { baseline: [], first: [], repeat: [] };
  await once(() => writeAllowances(false)); // warm-up: module loading and JIT
  for (let i = 0; i < TRIES; i++) {
    runs.baseline.push(await once(() => writeAllowances(false)));
    runs.first.push(
      await once(() => {
        writeAllowances(true);
        rmSync(cache, { force: true });
      }),
    );
    runs.repeat.push(await once(() => undefined));
  }
  const summary = (list) => ({ ms: median(list.map((r) => r.ms)), result: list[list.length - 1].result });
  const baseline = summary(runs.baseline);
  const firstRun = summary(runs.first);
  const repeat = summary(runs.repeat);
  const orphans = (r) => r.warnings.filter((w) => w.includes('is an orphan')).length;
  process.stdout.write(
    `baseline (no lineage: name and body):  ${Math.round(baseline.ms)} ms  applied ${kinds(baseline.result)}, orphans ${orphans(baseline.result)}\n`,
  );
  process.stdout.write(
    `lineage, first run (no cache):         ${Math.round(firstRun.ms)} ms  ratio ${(firstRun.ms / baseline.ms).toFixed(2)}  applied ${kinds(firstRun.result)}, orphans ${orphans(firstRun.result)}\n`,
  );
  process.stdout.write(
    `lineage, repeat run (cache, same HEAD): ${Math.round(repeat.ms)} ms  ratio ${(repeat.ms / baseline.ms).toFixed(2)}\n`,
  );
  process.stdout.write(
    `median of ${TRIES}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (${os.cpus().length} cores shared)\n`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
