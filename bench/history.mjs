#!/usr/bin/env node
/**
 * History store benchmark. Three measurements, each printed with a ratio against a baseline taken
 * in the same run:
 *  1. ingest: <runs> run records of <tests> tests into the embedded store (PGlite) and into
 *     PostgreSQL (the machine's server, started here; PGlite's wire server where there is none),
 *     against writing the same run record to disk (what the reporter does anyway);
 *  2. the default query (`flakeguard history`: flakiest and nearest to their limit) over them,
 *     against JSON.parse of the same run records (the least a query over record files would cost);
 *  3. the reporter with `history: true` against the same reporter without history and against
 *     Vitest's default reporter alone (bench/reporter-overhead.mjs's suite and method), alternating:
 *     wall time, and CPU time of the whole process tree (GNU time; steadier on a shared machine).
 *
 *   npm run build && node bench/history.mjs                    # scaled: 200 runs x 2,000 tests, 3 rounds
 *   npm run build && node bench/history.mjs --runs 1000 --rounds 7   # the full size
 *   options: --runs N --tests N --rounds N --skip-ingest --skip-reporter --skip-postgres
 *            --wasm-tier-up (PGlite compiled with V8's tier-up, FLAKEGUARD_WASM_TIER_UP=1: the other
 *            half of the comparison in src/io/history/wasm-baseline.ts; run the bench once each way)
 *  The reporter part also runs `flakeguard+history+liftoff`: the same run with Vitest started with
 *  `node --liftoff-only`, the tier the reporter compiled PGlite at before issue 37 (it flipped the flag
 *  in the user's process; now it leaves V8's flags alone): the CPU the reporter pays for that.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { median } from 'simple-statistics';
import { startPostgres } from '../test/io/history/postgres-server.mjs';
import { generateSuite } from './reporter-overhead-suite.mjs';
import { syntheticRecord } from './synthetic-record.mjs';

const REPO = path.resolve(import.meta.dirname, '..');
const dist = (p) => import(path.join(REPO, 'dist', p));
const { openHistoryStore } = await dist('io/history/history-store.js');
const { ingestRunRecord } = await dist('io/history/history-ingest.js');
const { readHistoryInput } = await dist('io/history/history-query.js');
const { computeHistoryReport } = await dist('core/history/history-report.js');
const { writeRunRecord } = await dist('io/record/run-record-file.js');

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '200' },
    tests: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
    'skip-reporter': { type: 'boolean', default: false },
    'skip-postgres': { type: 'boolean', default: false },
    'skip-ingest': { type: 'boolean', default: false },
    'wasm-tier-up': { type: 'boolean', default: false },
  },
});
if (values['wasm-tier-up']) process.env.FLAKEGUARD_WASM_TIER_UP = '1';
// This process ingests and queries as `flakeguard history ingest` does: V8 flags as the CLI entry sets them.
(await dist('io/history/wasm-baseline.js')).compileWasmAtBaselineOnly({ env: process.env, execArgv: process.execArgv });
const RUNS = Number(values.runs);
const TESTS = Number(values.tests);
const ROUNDS = Number(values.rounds);
const DAY = 86_400_000;
const NOW = Date.now();
const scratch = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-bench-history-'));
const out = (line) => process.stdout.write(`${line}\n`);
const s = (ms) => `${(ms / 1000).toFixed(2)}s`;

/** Run `r` of RUNS, four a day up to now: 2% of tests retried once, 0.5% failed, one test creeping up. */
function makeRecord(r) {
  const startedAt = new Date(NOW - (RUNS - 1 - r) * (DAY / 4)).toISOString();
  const tests = [];
  for (let i = 0; i < TESTS; i += 1) {
    const h = (i * 7919 + r * 104729) % 1000;
    const state = h < 5 ? 'failed' : 'passed';
    const flaky = state === 'passed' && h >= 5 && h < 25;
    // Noise from a hash of (test, run): no trend, except test 0, which creeps up 1 ms a run.
    const noise = ((Math.imul(i + 1, 2654435761) ^ Math.imul(r + 1, 40503)) >>> 0) % 400;
    const durationMs = i === 0 ? 3000 + r + (noise % 50) : 5 + noise;
    tests.push({
      key: `test/m${i % 100}.test.ts::group > case ${i}`,
      file: `test/m${i % 100}.test.ts`,
      fullName: `group > case ${i}`,
      line: null,
      state,
      durationMs,
      retries: flaky ? 1 : 0,
      flaky,
      errors: state === 'failed' || flaky ? [{ message: 'expected 1 to be 2', frame: null }] : [],
      limitMs: 5000,
      limitSource: 'budget',
    });
  }
  return syntheticRecord({
    runId: `${startedAt.replace(/[-:.]/g, '')}-${String(r).padStart(6, '0')}`,
    startedAt,
    commit: `c${r % 50}`,
    tests,
  });
}

async function ingestAll(label, target) {
  const store = await openHistoryStore(target);
  const times = [];
  let writeMs = 0;
  let parseMs = 0;
  const started = performance.now();
  for (let r = 0; r < RUNS; r += 1) {
    const record = makeRecord(r);
    const t0 = performance.now();
    await ingestRunRecord(store, record, { branch: 'main', job: null });
    times.push(performance.now() - t0);
    if (r % 10 === 0) {
      // The baseline, on every tenth run: the record written to disk, and parsed back.
      const w0 = performance.now();
      const file = writeRunRecord(scratch, 'records', record);
      writeMs += (performance.now() - w0) * 10;
      const text = readFileSync(file, 'utf8');
      const p0 = performance.now();
      JSON.parse(text);
      parseMs += (performance.now() - p0) * 10;
      rmSync(file);
    }
  }
  const total = performance.now() - started;
  const perRun = median(times);
  out(
    `${label} ingest: ${RUNS} runs x ${TESTS} tests in ${s(total)}; per run median ${perRun.toFixed(1)} ms, last 10% ${median(times.slice(-Math.ceil(RUNS / 10))).toFixed(1)} ms`,
  );
  out(
    `  ratio to writing the run record (${(writeMs / RUNS).toFixed(1)} ms a run): ${(perRun / (writeMs / RUNS)).toFixed(2)}`,
  );
  // The window covers every stored run (four runs a day).
  const cutoffMs = NOW - (RUNS / 4 + 1) * DAY;
  const query = { since: new Date(cutoffMs).toISOString().slice(0, 10), branch: null, test: null, file: null, top: 10 };
  const q0 = performance.now();
  const report = computeHistoryReport(
    await readHistoryInput(store, { cutoffMs, branch: null, test: null, file: null }, query),
  );
  const queryMs = performance.now() - q0;
  const crossing = report.tests.find((t) => t.fullName === 'group > case 0');
  out(
    `${label} default query over ${report.runs} runs: ${s(queryMs)} (${report.tests.length} tests listed; the creeping test: ${crossing?.durationMs?.median ?? '?'} ms median, +${crossing?.trendMsPerDay ?? '?'} ms a day, crosses in ${crossing?.daysToLimit ?? '?'} days)`,
  );
  out(`  ratio to JSON.parse of the ${RUNS} run records (${s(parseMs)}): ${(queryMs / parseMs).toFixed(2)}`);
  await store.close();
}

out(
  `machine: ${os.cpus().length} CPUs, loadavg ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${RUNS} runs x ${TESTS} tests`,
);
if (!values['skip-ingest'])
  await ingestAll('embedded (PGlite)', { kind: 'embedded', folder: path.join(scratch, 'runs', 'history') });
if (!values['skip-postgres'] && !values['skip-ingest']) {
  const server = await startPostgres();
  try {
    await ingestAll(`PostgreSQL (${server.engine})`, { kind: 'postgres', url: server.url });
  } finally {
    await server.stop();
  }
}

if (!values['skip-reporter']) {
  const reporter = path.join(REPO, 'dist/reporter/index.js');
  const plain = generateSuite({ repoRoot: REPO, files: 100, testsPerFile: 20 });
  const withHistory = generateSuite({ repoRoot: REPO, files: 100, testsPerFile: 20 });
  writeFileSync(
    path.join(withHistory, 'flakeguard.yaml'),
    'budget:\n  test: 5s\n  file: 60s\n  warnAt: 80%\nhistory: true\n',
  );
  const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
  const timeFile = path.join(scratch, 'time.txt');
  const cpu = {
    default: [],
    flakeguard: [],
    'flakeguard+history': [],
    'flakeguard+history+liftoff': [],
    'flakeguard+postgres': [],
  };
  const server = values['skip-postgres'] ? null : await startPostgres();
  const run = async (root, fg, name) => {
    const command = [
      process.execPath,
      ...(name === 'flakeguard+history+liftoff' ? ['--liftoff-only'] : []),
      path.join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--reporter=default',
      ...(fg ? [`--reporter=${reporter}`] : []),
    ];
    const [file, ...args] = GNU_TIME ? [GNU_TIME, '-o', timeFile, '-f', '%U %S', ...command] : command;
    const t0 = performance.now();
    const pg = name === 'flakeguard+postgres' ? { FLAKEGUARD_HISTORY_URL: server.url } : {};
    const result = await execa(file, args, {
      cwd: root,
      reject: false,
      stdin: 'ignore',
      env: { NO_COLOR: '1', CI: 'true', GITHUB_ACTIONS: '', ...pg },
    });
    const ms = performance.now() - t0;
    if (GNU_TIME && name)
      cpu[name].push(
        readFileSync(timeFile, 'utf8')
          .trim()
          .split('\n')
          .at(-1)
          .split(' ')
          .reduce((a, b) => a + Number(b) * 1000, 0),
      );
    if (result.exitCode !== 0)
      throw new Error(`vitest exited ${result.exitCode}: ${String(result.stdout).slice(-1500)}`);
    if (root === withHistory && fg && !/history .*: run stored/.test(String(result.stdout)))
      throw new Error(`history was not stored: ${String(result.stdout).slice(-800)}`);
    return ms;
  };
  // Warm-up: Vite's caches, and the embedded store created once (it is created on a project's first run only).
  await run(plain, false);
  await run(plain, true);
  await run(withHistory, true);
  const ratios = { vsDefault: [], vsNoHistory: [], pgVsDefault: [], vsLiftoff: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    const configs = [
      ['default', plain, false],
      ['flakeguard', plain, true],
      ['flakeguard+history', withHistory, true],
      ['flakeguard+history+liftoff', withHistory, true],
    ];
    if (server) configs.push(['flakeguard+postgres', plain, true]);
    const order = round % 2 === 0 ? configs : [...configs].reverse();
    const ms = {};
    for (const [name, root, fg] of order) ms[name] = await run(root, fg, name);
    ratios.vsDefault.push(ms['flakeguard+history'] / ms.default);
    ratios.vsNoHistory.push(ms['flakeguard+history'] / ms.flakeguard);
    ratios.vsLiftoff.push(ms['flakeguard+history'] / ms['flakeguard+history+liftoff']);
    if (server) ratios.pgVsDefault.push(ms['flakeguard+postgres'] / ms.default);
    out(
      `reporter round ${round + 1}/${ROUNDS}: default ${s(ms.default)}, flakeguard ${s(ms.flakeguard)}, flakeguard with history ${s(ms['flakeguard+history'])}, with history under --liftoff-only ${s(ms['flakeguard+history+liftoff'])}; load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}` + (server ? `, with PostgreSQL history ${s(ms['flakeguard+postgres'])}` : ''),
    );
  }
  const vd = median(ratios.vsDefault);
  out(
    `reporter with history on, median ratio to Vitest's default reporter alone: ${vd.toFixed(3)} (target <= 1.03) ${vd <= 1.03 ? 'OK' : 'OVER TARGET'}`,
  );
  out(
    `reporter with history on, median ratio to the same reporter without history: ${median(ratios.vsNoHistory).toFixed(3)}`,
  );
  out(
    `reporter with history on, median ratio to the same run with Vitest under --liftoff-only: ${median(ratios.vsLiftoff).toFixed(3)}`,
  );
  if (server)
    out(
      `reporter with PostgreSQL history (${server.engine}), median ratio to Vitest's default reporter alone: ${median(ratios.pgVsDefault).toFixed(3)}`,
    );
  if (GNU_TIME) {
    const c = (name) => median(cpu[name]);
    out(
      `CPU time of the process tree (median): default ${s(c('default'))}, flakeguard ${s(c('flakeguard'))}, flakeguard with history ${s(c('flakeguard+history'))}`,
    );
    out(
      `  CPU ratio, history on to default alone: ${(c('flakeguard+history') / c('default')).toFixed(3)}; to flakeguard without history: ${(c('flakeguard+history') / c('flakeguard')).toFixed(3)}`,
    );
    out(
      `  CPU with history under --liftoff-only ${s(c('flakeguard+history+liftoff'))}: history at V8's default tiering costs ${s(c('flakeguard+history') - c('flakeguard+history+liftoff'))} more (ratio ${(c('flakeguard+history') / c('flakeguard+history+liftoff')).toFixed(3)})`,
    );
    if (server)
      out(
        `  CPU with PostgreSQL history ${s(c('flakeguard+postgres'))}: ratio to default alone ${(c('flakeguard+postgres') / c('default')).toFixed(3)}`,
      );
  }
  await server?.stop();
  rmSync(plain, { recursive: true, force: true });
  rmSync(withHistory, { recursive: true, force: true });
}
rmSync(scratch, { recursive: true, force: true });
