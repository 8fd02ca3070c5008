#!/usr/bin/env node
/**
 * History at a team's scale (issue 38): every query the commands ask the store, timed on synthetic
 * histories of two sizes 10x apart, the larger a longer history of the same team (the same tests,
 * the same runs a day, ten times the days). Prints each query's p50/p95 at both sizes and their
 * ratio (the target: under 300 ms p95 at the larger size, at most 1.5x from the smaller), and the
 * ingest rate of one run of --ingest-tests tests into the larger store, with the load average.
 *
 * The runs are built in SQL (generate_series, one INSERT ... SELECT per slice of runs): 2,000 tests
 * in 400 files of two Vitest projects; runs on linux, darwin and win32, 6 in 10 on main, 3 in 10 on
 * a feature branch (a new one every two days), 1 in 10 without a branch; 1 in 5 a 2-way shard of
 * half the tests; 1 in 20 a local run (no CI context, linux); runs in pairs on one commit (a re-run).
 * Flake rates: 2.5% of tests flake 5% of runs, 7.5% flake 0.5%; failures and retries carry a
 * timeout, a network or an assertion error. Durations: per test a base of 5 ms to 3.5 s, win32 1.5x
 * and darwin 1.2x, local runs 0.5x, 10% noise; 1% of tests start near their 5 s limit and creep up
 * 20 ms a day. The summaries are then built by schema 4's own backfill (the migration a store
 * written before it runs), the same arithmetic as ingest.
 *
 *   npm run build && node bench/history-scale.mjs                       # PostgreSQL, 2 M and 20 M results
 *   node bench/history-scale.mjs --engine embedded --sizes 200000,2000000
 *   options: --sizes a,b (results) --tests N --runs-a-day N --samples N --ingest-tests N --ingests N
 *            --keep <folder>: embedded only; each store is built once into the folder and reused by
 *            later runs for 12 hours (history-scale-keep.mjs; a 20 M store takes about 15 minutes to
 *            build and 21 GB). Nothing is ingested into a kept store: it would change its shape.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { startPostgres } from '../test/io/history/postgres-server.mjs';
import { keptStore } from './history-scale-keep.mjs';
import { buildSynthetic, queryCases, uptime } from './history-scale-lib.mjs';

const REPO = path.resolve(import.meta.dirname, '..');
const dist = (p) => import(path.join(REPO, 'dist', p));
const { openHistoryStore } = await dist('io/history/history-store.js');
const { ingestRunRecord } = await dist('io/history/history-ingest.js');

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'postgres' },
    sizes: { type: 'string', default: '2000000,20000000' },
    tests: { type: 'string', default: '2000' },
    'runs-a-day': { type: 'string', default: '250' },
    samples: { type: 'string', default: '30' },
    'ingest-tests': { type: 'string', default: '20000' },
    ingests: { type: 'string', default: '5' },
    keep: { type: 'string' },
  },
});
if (values.keep !== undefined && values.engine !== 'embedded')
  throw new Error(`--keep ${values.keep}: kept stores are embedded ones; add --engine embedded, or drop --keep`);
const sizes = values.sizes.split(',').map(Number);
const TESTS = Number(values.tests);
const PER_DAY = Number(values['runs-a-day']);
const SAMPLES = Number(values.samples);
const out = (line) => process.stdout.write(`${line}\n`);
const ms = (v) => `${v.toFixed(1)} ms`;
const pct = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

out(`history-scale: ${values.engine}, ${TESTS} tests, ${PER_DAY} runs a day, sizes ${sizes.join(' and ')} results`);
out(`machine: ${os.cpus().length} CPUs, shared with other engineers' work today; ${uptime()}`);

const scratch = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-bench-scale-'));
const servers = [];
const opened = [];
try {
  // Both histories are built first and kept open; then every query's samples alternate between them,
  // so a load that comes and goes on this shared machine weighs on both sizes alike.
  for (const size of sizes) {
    const shape = { results: size, tests: TESTS, perDay: PER_DAY };
    if (values.keep !== undefined) {
      const { store, built } = await keptStore(openHistoryStore, values.keep, shape, out);
      opened.push({ store, built, kept: true, cases: queryCases(store, built), timings: new Map() });
      continue;
    }
    let target;
    if (values.engine === 'postgres') {
      const server = await startPostgres();
      servers.push(server);
      target = { kind: 'postgres', url: server.url };
    } else {
      target = { kind: 'embedded', folder: path.join(scratch, `store-${size}`) };
    }
    const store = await openHistoryStore(target, { wait: 'history-command' });
    opened.push(store);
    const built = await buildSynthetic(store, shape, out);
    opened[opened.length - 1] = { store, built, cases: queryCases(store, built), timings: new Map() };
  }
  const names = opened[0].cases.map((c) => c.name);
  for (const [k, name] of names.entries()) {
    const samples = opened.map(() => ({ times: [], reads: [] }));
    for (const o of opened) await o.cases[k].run(0); // warm: the first read of a cold cache is the database's
    for (let i = 1; i <= SAMPLES; i += 1) {
      for (const [j, o] of opened.entries()) {
        const t0 = performance.now();
        const read = await o.cases[k].run(i);
        samples[j].times.push(performance.now() - t0);
        if (typeof read === 'number') samples[j].reads.push(read);
      }
    }
    for (const [j, o] of opened.entries()) {
      const times = samples[j].times.sort((a, b) => a - b);
      const reads = samples[j].reads.sort((a, b) => a - b);
      o.timings.set(name, { p50: pct(times, 0.5), p95: pct(times, 0.95) });
      // A report's store read alone: the rest is core's computation (the trends), the same as before.
      if (reads.length > 0) o.timings.set(`${name} [store read]`, { p50: pct(reads, 0.5), p95: pct(reads, 0.95) });
      const readText = reads.length > 0 ? `; store read p50 ${ms(pct(reads, 0.5))}, p95 ${ms(pct(reads, 0.95))}` : '';
      out(
        `  ${sizes[j]}: ${name}: p50 ${ms(pct(times, 0.5))}, p95 ${ms(pct(times, 0.95))}${readText} (${SAMPLES} samples; ${uptime()})`,
      );
    }
  }
  const last = opened[opened.length - 1];
  if (last.kept) out(`ingest: not measured (--keep: an ingest would change the kept store; run without --keep)`);
  else await benchIngest(last.store, last.built);
  out('');
  out(
    `query (p95 target < 300 ms at ${sizes[1]}; ratio target <= 1.5x)  | p50 / p95 at ${sizes.join(' | ')} | p95 ratio`,
  );
  const [small, large] = opened;
  for (const [name, a] of small?.timings ?? []) {
    const b = large?.timings.get(name);
    if (!b) continue;
    const ratio = b.p95 / a.p95;
    const ok = b.p95 < 300 && ratio <= 1.5 ? 'ok' : 'MISSED';
    out(`  ${name}: ${ms(a.p50)} / ${ms(a.p95)} | ${ms(b.p50)} / ${ms(b.p95)} | ${ratio.toFixed(2)}x ${ok}`);
  }
  out(uptime());
} finally {
  for (const o of opened) await (o.store ?? o).close();
  for (const server of servers) await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}

/** Stores --ingests runs of --ingest-tests tests each (half of them new tests the first time). */
async function benchIngest(store, built) {
  const n = Number(values['ingest-tests']);
  const times = [];
  for (let k = 0; k < Number(values.ingests); k += 1) {
    const record = built.makeRecord(n, k);
    const t0 = performance.now();
    const outcome = await ingestRunRecord(store, record, { branch: k % 2 === 0 ? 'main' : 'feat-ingest', job: null });
    times.push(performance.now() - t0);
    if (outcome !== 'stored') throw new Error(`ingest ${k}: ${outcome}`);
    out(
      `  ingest of one ${n}-test run: ${ms(times[k])} (${(n / (times[k] / 1000)).toFixed(0)} results/s; ${uptime()})`,
    );
  }
  times.sort((a, b) => a - b);
  out(
    `ingest, ${n} tests a run, ${times.length} runs into the ${built.results}-result store: median ${ms(pct(times, 0.5))}, slowest ${ms(times[times.length - 1])}; ${uptime()}`,
  );
}
