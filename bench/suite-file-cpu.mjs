// CPU seconds per test file of a suite run: each file's worker and every process it waited for
// (fixture Vitest runs, the CLI, git, load workers), measured by bench/file-cpu/setup.ts. The e2e
// tiers are CPU-bound on 2 cores, so CPU per file is what a faster `npm test` must cut (issue 26);
// unlike wall time it hardly moves with what else the machine runs. Prints the files by CPU, the
// total, and the load before and after.
//
// Usage: npm run build && node bench/suite-file-cpu.mjs [--top 30] [vitest args, e.g. --project 'e2e*' test/e2e]
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

const REPO = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
let top = 30;
const at = args.indexOf('--top');
if (at >= 0) {
  top = Number(args[at + 1]);
  if (!Number.isInteger(top) || top < 1)
    throw new Error(`--top "${args[at + 1]}" must be a whole number of at least 1`);
  args.splice(at, 2);
}
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-file-cpu-'));
const out = path.join(scratch, 'files.jsonl');
try {
  const loadBefore = load();
  const run = await execa('npx', ['vitest', 'run', '--config', 'bench/file-cpu/vitest.config.ts', ...args], {
    cwd: REPO,
    env: { FLAKEGUARD_FILE_CPU_OUT: out },
    reject: false,
    all: true,
  });
  if (!existsSync(out)) {
    process.stderr.write(
      `${run.all.split('\n').slice(-30).join('\n')}\nno test file ended (Vitest exit ${run.exitCode}): its output is above\n`,
    );
    process.exit(2);
  }
  const rows = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .sort((a, b) => b.cpu - a.cpu);
  const total = rows.reduce((sum, r) => sum + r.cpu, 0);
  process.stdout.write(`load before ${loadBefore}, after ${load()}; Vitest exit ${run.exitCode}\n`);
  process.stdout.write(`${rows.length} files, ${total.toFixed(1)} CPU-s in all\n  CPU-s  wall-s  file\n`);
  for (const r of rows.slice(0, top))
    process.stdout.write(
      `${r.cpu.toFixed(1).padStart(7)} ${r.wall.toFixed(1).padStart(7)}  ${path.relative(REPO, r.file)}\n`,
    );
  process.exitCode = run.exitCode ?? 2;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
