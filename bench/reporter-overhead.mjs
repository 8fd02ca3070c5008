#!/usr/bin/env node
/**
 * Reporter overhead: wall time of `vitest run --reporter=default --reporter=<flakeguard reporter>`
 * against `vitest run --reporter=default` on a generated suite (2,000 tests in 100 files), in
 * alternating order over several rounds. Prints the median ratio (target <= 1.03), the absolute
 * medians, the run record's size and the reporter's added peak memory (main process max RSS).
 * The machine may be shared, so it also prints CPU time: of the whole process tree (GNU time, when
 * /usr/bin/time exists) and of Vitest's main process, where the reporter runs.
 *
 *   npm run build && node bench/reporter-overhead.mjs [--rounds 7] [--files 100] [--tests-per-file 20] [--keep]
 *   (--reporter <file> measures another build of the reporter instead of dist/reporter/index.js)
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { median } from 'simple-statistics';
import { generateSuite } from './reporter-overhead-suite.mjs';

const REPO = path.resolve(import.meta.dirname, '..');
const PEAK = path.join(REPO, 'bench/reporter-peak-rss.mjs');

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '7' },
    files: { type: 'string', default: '100' },
    'tests-per-file': { type: 'string', default: '20' },
    keep: { type: 'boolean', default: false },
    reporter: { type: 'string', default: path.join(REPO, 'dist/reporter/index.js') },
  },
});
const REPORTER = path.resolve(values.reporter);
const rounds = Number(values.rounds);
const files = Number(values.files);
const testsPerFile = Number(values['tests-per-file']);

if (!existsSync(REPORTER)) {
  process.stderr.write(
    `reporter-overhead: ${path.relative(process.cwd(), REPORTER)} is missing; run npm run build first\n`,
  );
  process.exit(2);
}

const root = generateSuite({ repoRoot: REPO, files, testsPerFile });
const scratch = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-bench-rss-'));
const recordsDir = path.join(root, '.flakeguard/runs');

const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

async function runOnce(withFlakeguard, label) {
  const rssFile = path.join(scratch, `${label}.rss`);
  const timeFile = path.join(scratch, `${label}.time`);
  const reporters = ['--reporter=default', ...(withFlakeguard ? [`--reporter=${REPORTER}`] : [])];
  const command = [
    process.execPath,
    '--import',
    PEAK,
    path.join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    ...reporters,
  ];
  const [file, ...args] = GNU_TIME ? [GNU_TIME, '-o', timeFile, '-f', '%U %S', ...command] : command;
  const started = performance.now();
  const result = await execa(file, args, {
    cwd: root,
    reject: false,
    stdin: 'ignore',
    env: { FLAKEGUARD_BENCH_RSS_FILE: rssFile, NO_COLOR: '1', CI: 'true', GITHUB_ACTIONS: '' },
  });
  const ms = performance.now() - started;
  if (result.exitCode !== 0) {
    process.stderr.write(`${String(result.stdout).slice(-2000)}\n${String(result.stderr).slice(-2000)}\n`);
    throw new Error(`vitest exited ${result.exitCode} (${label})`);
  }
  if (withFlakeguard && !/flakeguard: \d+ tests within duration budgets/.test(String(result.stdout))) {
    throw new Error('the flakeguard reporter did not report (is dist/ built?)');
  }
  const main = JSON.parse(readFileSync(rssFile, 'utf8'));
  const treeCpuMs = GNU_TIME
    ? readFileSync(timeFile, 'utf8')
        .trim()
        .split('\n')
        .at(-1)
        .split(' ')
        .reduce((a, b) => a + Number(b) * 1000, 0)
    : NaN;
  return { ms, rssKiB: main.maxRssKiB, mainCpuMs: main.cpuUs / 1000, treeCpuMs };
}

const fmt = (ms) => `${(ms / 1000).toFixed(2)}s`;
process.stdout.write(
  `suite: ${files * testsPerFile} tests in ${files} files at ${root}\nmachine: ${os.cpus().length} CPUs, loadavg ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}\n`,
);

// Warm-up (Vite's transform cache, the file system cache), not counted.
await runOnce(false, 'warm-base');
await runOnce(true, 'warm-fg');

const base = [];
const withFg = [];
const ratios = [];
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? [false, true] : [true, false];
  const pair = {};
  for (const fg of order) pair[fg ? 'fg' : 'base'] = await runOnce(fg, `${round}-${fg ? 'fg' : 'base'}`);
  base.push(pair.base);
  withFg.push(pair.fg);
  ratios.push(pair.fg.ms / pair.base.ms);
  process.stdout.write(
    `round ${round + 1}/${rounds}: wall default ${fmt(pair.base.ms)}, default+flakeguard ${fmt(pair.fg.ms)}, ratio ${(pair.fg.ms / pair.base.ms).toFixed(3)}; ` +
      `tree CPU ${fmt(pair.base.treeCpuMs)} vs ${fmt(pair.fg.treeCpuMs)}; main CPU ${fmt(pair.base.mainCpuMs)} vs ${fmt(pair.fg.mainCpuMs)}; loadavg ${os.loadavg()[0].toFixed(2)}\n`,
  );
}

const records = readdirSync(recordsDir)
  .filter((n) => n.endsWith('.json'))
  .map((n) => path.join(recordsDir, n));
const recordBytes = statSync(records.at(-1)).size;
const baseMs = median(base.map((r) => r.ms));
const fgMs = median(withFg.map((r) => r.ms));
const baseRss = median(base.map((r) => r.rssKiB));
const fgRss = median(withFg.map((r) => r.rssKiB));
const ratio = median(ratios);
const treeRatio = median(withFg.map((r, i) => r.treeCpuMs / base[i].treeCpuMs));
const mainAdded = median(withFg.map((r, i) => r.mainCpuMs - base[i].mainCpuMs));

process.stdout.write(
  [
    '',
    `median wall time: default ${fmt(baseMs)}, default+flakeguard ${fmt(fgMs)}`,
    `median ratio (per round, flakeguard/default): ${ratio.toFixed(3)} (target <= 1.03) ${ratio <= 1.03 ? 'OK' : 'OVER TARGET'}`,
    `ratio of medians: ${(fgMs / baseMs).toFixed(3)}; per-round ratios: ${ratios.map((r) => r.toFixed(3)).join(' ')}`,
    `median CPU-time ratio, whole process tree: ${Number.isNaN(treeRatio) ? 'not measured (no /usr/bin/time)' : treeRatio.toFixed(3)}`,
    `CPU time added in Vitest's main process (median of per-round differences): ${mainAdded.toFixed(0)} ms (main CPU default ${fmt(median(base.map((r) => r.mainCpuMs)))})`,
    `run record: ${(recordBytes / 1024).toFixed(1)} KiB for ${files * testsPerFile} tests (${Math.round(recordBytes / (files * testsPerFile))} bytes per test)`,
    `main-process peak RSS (median): default ${(baseRss / 1024).toFixed(1)} MiB, default+flakeguard ${(fgRss / 1024).toFixed(1)} MiB, added ${((fgRss - baseRss) / 1024).toFixed(1)} MiB`,
    '',
  ].join('\n'),
);

rmSync(scratch, { recursive: true, force: true });
if (values.keep) process.stdout.write(`kept ${root}\n`);
else rmSync(root, { recursive: true, force: true });
