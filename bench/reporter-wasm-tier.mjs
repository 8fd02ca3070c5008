#!/usr/bin/env node
/**
 * What the reporter's history work costs at V8's default WASM tiering, now that it leaves V8's
 * flags alone in the user's Vitest process (issue 37; src/io/history/wasm-baseline.ts), against the
 * same work in a process started with `--liftoff-only` (the tier it used to set while PGlite
 * started). Each sample is one fresh Node process doing what the reporter does with history on:
 * open an existing embedded store (a copy of one made once here), store one run of <tests> tests,
 * close. The two sides alternate; CPU of the process (all its threads: TurboFan compiles on
 * background threads) and wall time, medians, with the load average. The machine may be shared:
 * only this run's ratio counts.
 *
 *   npm run build && node bench/reporter-wasm-tier.mjs [--rounds 8] [--tests 2000]
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { median } from 'simple-statistics';
import { syntheticRecord } from './synthetic-record.mjs';

const REPO = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '8' }, tests: { type: 'string', default: '2000' } },
});
const ROUNDS = Number(values.rounds);
const TESTS = Number(values.tests);
const scratch = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-bench-wasm-'));
const out = (line) => process.stdout.write(`${line}\n`);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const ONE_RUN = `
import { openHistoryStore } from ${JSON.stringify(path.join(REPO, 'dist/io/history/history-store.js'))};
import { ingestRunRecord } from ${JSON.stringify(path.join(REPO, 'dist/io/history/history-ingest.js'))};
import { readFileSync } from 'node:fs';
const [folder, recordFile] = process.argv.slice(2);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const store = await openHistoryStore({ kind: 'embedded', folder, lock: folder + '.lock' });
const outcome = await ingestRunRecord(store, JSON.parse(readFileSync(recordFile, 'utf8')), { branch: 'main', job: null });
await store.close();
const cpu = process.cpuUsage(cpu0);
process.stdout.write(JSON.stringify({ outcome, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - t0 }));
`;

function record(n) {
  const startedAt = new Date(Date.now() - n * 60_000).toISOString();
  const tests = Array.from({ length: TESTS }, (_, i) => ({
    key: `test/m${i % 100}.test.ts::group > case ${i}`,
    file: `test/m${i % 100}.test.ts`,
    fullName: `group > case ${i}`,
    line: null,
    state: 'passed',
    durationMs: 5 + (i % 400),
    retries: 0,
    flaky: false,
    errors: [],
    limitMs: 5000,
    limitSource: 'budget',
  }));
  return syntheticRecord({ runId: `bench-${n}`, startedAt, commit: 'c0', tests });
}

const script = path.join(scratch, 'one-run.mjs');
writeFileSync(script, ONE_RUN);
const template = path.join(scratch, 'template');
out(`machine: ${os.cpus().length} CPUs, load average ${load()}; ${ROUNDS} rounds, one run of ${TESTS} tests each`);
// The store is made once (initdb and migrations) with a first run in it, as a project's store is after its first run.
writeFileSync(path.join(scratch, 'r0.json'), JSON.stringify(record(0)));
await execa(process.execPath, [script, template, path.join(scratch, 'r0.json')]);

const samples = { default: [], liftoff: [] };
for (let round = 0; round < ROUNDS; round += 1) {
  const sides = round % 2 === 0 ? ['default', 'liftoff'] : ['liftoff', 'default'];
  const line = [];
  for (const side of sides) {
    const folder = path.join(scratch, `store-${round}-${side}`);
    cpSync(template, folder, { recursive: true });
    const file = path.join(scratch, `r-${round}-${side}.json`);
    writeFileSync(file, JSON.stringify(record(round * 2 + (side === 'liftoff' ? 2 : 1))));
    const flags = side === 'liftoff' ? ['--liftoff-only'] : [];
    const result = JSON.parse((await execa(process.execPath, [...flags, script, folder, file])).stdout);
    if (result.outcome !== 'stored') throw new Error(`run not stored: ${JSON.stringify(result)}`);
    samples[side].push(result);
    line.push(`${side} ${(result.cpuMs / 1000).toFixed(2)} CPU-s ${(result.wallMs / 1000).toFixed(2)} s`);
    rmSync(folder, { recursive: true, force: true });
  }
  out(`round ${round + 1}/${ROUNDS}: ${line.join(', ')}; load average ${load()}`);
}
const m = (side, key) => median(samples[side].map((s) => s[key]));
out(
  `median CPU: default tiering ${(m('default', 'cpuMs') / 1000).toFixed(2)} s, --liftoff-only ${(m('liftoff', 'cpuMs') / 1000).toFixed(2)} s: +${((m('default', 'cpuMs') - m('liftoff', 'cpuMs')) / 1000).toFixed(2)} s (x${(m('default', 'cpuMs') / m('liftoff', 'cpuMs')).toFixed(2)})`,
);
out(
  `median wall: default tiering ${(m('default', 'wallMs') / 1000).toFixed(2)} s, --liftoff-only ${(m('liftoff', 'wallMs') / 1000).toFixed(2)} s (x${(m('default', 'wallMs') / m('liftoff', 'wallMs')).toFixed(2)}); load average ${load()}`,
);
rmSync(scratch, { recursive: true, force: true });
