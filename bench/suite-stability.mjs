// Suite stability: runs this repository's test suite N times in a row (default 10) while 2 busy
// loops per core load the machine (flakeguard's own load workers: they die with this script), and
// prints passes/runs for every test. Target: N/N for every test. Each run keeps the repo's own
// reporters plus Vitest's JSON report. A test passes a run when its assertions passed and it was
// within its duration budget (the run record's violations): a run that only flakeguard failed on a
// budget is red in CI too, so its tests over budget count as not passing, in a column of their own.
// The whole suite by default; --project unit|e2e runs one tier, and test files or folders after the
// options run only those (as `vitest run` takes them), e.g. the files a fix is about.
//
// Usage: npm run build && node bench/suite-stability.mjs [--runs 10] [--loops-per-core 2] [--project e2e] [files...]
//   node bench/suite-stability.mjs --runs 10 test/e2e/html-chromium.test.ts test/reporter/github.test.ts
// (FLAKEGUARD_KEEP_LOGS=1 keeps each run's output and JSON report in a temp folder.)
// Prints the per-test table, then a summary; exits 1 if any test passed fewer than N times.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals: files } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '10' },
    'loops-per-core': { type: 'string', default: '2' },
    project: { type: 'string', multiple: true, default: [] },
  },
});
const runs = Number(values.runs);
const perCore = Number(values['loops-per-core']);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs "${values.runs}" must be a whole number of at least 1`);
if (!Number.isInteger(perCore) || perCore < 0)
  throw new Error(`--loops-per-core "${values['loops-per-core']}" must be a whole number`);
for (const project of values.project) {
  if (!['unit', 'e2e'].includes(project))
    throw new Error(`--project "${project}" is not a tier of vitest.config.ts; write --project unit or --project e2e`);
}
// The e2e tier is two projects (e2e and e2e-timing, vitest.config.ts).
const selection = [...values.project.map((p) => `--project=${p === 'e2e' ? 'e2e*' : p}`), ...files];
const what = selection.length === 0 ? 'the whole suite' : selection.join(' ');

const { defaultWorkerCount, startLoadWorkers } = await import(path.join(ROOT, 'dist/io/load/load-workers.js')).catch(
  () => {
    throw new Error('dist/ is missing: run npm run build first');
  },
);
const cores = defaultWorkerCount();
const tmp = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-stability-'));
const load = startLoadWorkers(perCore * cores);
console.log(
  `suite-stability: ${runs} run(s) of ${what} under ${perCore * cores} busy loops (${perCore} per core, ${cores} cores); FLAKEGUARD_KEEP_LOGS=1 keeps each run's log`,
);

/** key -> { passes, seen, overBudget } over the runs; a test missing from a run (its file failed to load) is a non-pass. */
const tally = new Map();
const runLines = [];
try {
  for (let i = 1; i <= runs; i += 1) {
    const json = path.join(tmp, `run-${i}.json`);
    const started = performance.now();
    const r = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--reporter=default',
        '--reporter=./src/reporter/index.ts',
        '--reporter=json',
        `--outputFile.json=${json}`,
        ...selection,
      ],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, CI: 'true', NO_COLOR: '1' },
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    writeFileSync(path.join(tmp, `run-${i}.log`), `${r.stdout}\n${r.stderr}`);
    let report;
    try {
      report = JSON.parse(readFileSync(json, 'utf8'));
    } catch {
      runLines.push(`run ${i}: exit ${r.status}, ${seconds}s, no JSON report (see run-${i}.log)`);
      continue;
    }
    // The tests over budget, from the run record flakeguard's reporter wrote (its path is on stdout).
    const recordPath = /^flakeguard: run record (.+\.json)$/m.exec(r.stdout)?.[1];
    const overBudget = new Set();
    const filesOver = [];
    if (recordPath && existsSync(path.resolve(ROOT, recordPath))) {
      for (const v of JSON.parse(readFileSync(path.resolve(ROOT, recordPath), 'utf8')).violations ?? []) {
        if (v.kind === 'test') overBudget.add(`${v.file} > ${v.name}`);
        else filesOver.push(v.file);
      }
    }
    let passed = 0;
    let total = 0;
    for (const file of report.testResults) {
      const rel = path.relative(ROOT, file.name).split(path.sep).join('/');
      for (const t of file.assertionResults) {
        const key = `${rel} > ${[...t.ancestorTitles, t.title].join(' > ')}`;
        const entry = tally.get(key) ?? { passes: 0, seen: 0, overBudget: 0 };
        entry.seen += 1;
        total += 1;
        if (overBudget.has(key)) entry.overBudget += 1;
        else if (t.status === 'passed') {
          entry.passes += 1;
          passed += 1;
        }
        tally.set(key, entry);
      }
    }
    const verdict =
      r.stdout
        .split('\n')
        .filter((l) => l.startsWith('flakeguard: '))
        .at(-1) ?? '';
    const files = filesOver.length > 0 ? `; files over budget: ${filesOver.join(', ')}` : '';
    runLines.push(
      `run ${i}: exit ${r.status}, ${seconds}s, ${passed}/${total} tests passed within budget; ${verdict}${files}`,
    );
    console.log(runLines.at(-1));
  }
} finally {
  const summary = await load.stop();
  const share =
    summary.machineShare === null ? 'not measured' : `${Math.round(summary.machineShare * 100)}% of the machine`;
  runLines.push(`load: ${summary.workers} busy loops took ${share} over ${(summary.wallMs / 1000).toFixed(0)}s`);
}

const rows = [...tally].map(([key, e]) => ({ key, passes: e.passes, overBudget: e.overBudget }));
rows.sort((a, b) => a.passes - b.passes || a.key.localeCompare(b.key));
const width = String(runs).length;
console.log('\npasses/runs  over budget  test');
for (const row of rows) {
  const over = row.overBudget > 0 ? `${row.overBudget}/${runs}` : '-';
  console.log(
    `${String(row.passes).padStart(width)}/${runs}${' '.repeat(Math.max(1, 11 - 2 * width))}${over.padEnd(13)}${row.key}`,
  );
}
const unstable = rows.filter((r) => r.passes < runs);
console.log('');
for (const line of runLines) console.log(line);
console.log(
  `suite-stability: ${rows.length - unstable.length}/${rows.length} tests passed ${runs}/${runs}${unstable.length > 0 ? `; below target: ${unstable.length}` : ''}`,
);
if (process.env.FLAKEGUARD_KEEP_LOGS) console.log(`logs kept in ${tmp}`);
else rmSync(tmp, { recursive: true, force: true });
process.exitCode = unstable.length > 0 ? 1 : 0;
