// Triage cost on a big red run, against grep over the same log in the same run.
// Generates, in a temp folder: a Vitest JSON report (Vitest's exact shape) of 2,500 tests in 100
// files with 30 failures, and a 100 MB CI log (Vitest's default-reporter lines, ANSI colours, the
// 30 FAIL blocks, a few signature lines spread through it). Then times, median of 5:
//   - grep -c -F with every literal triage looks for (the built-in literal signatures and Vitest's
//     markers): the same scan, done by grep (the baseline),
//   - grep -c ENOSPC (one literal: the cheapest possible scan, for reference),
//   - the built CLI: flakeguard triage --report r.json --log ci.log --exit-code 1 --json (no re-runs),
//     with its peak RSS from /usr/bin/time -v when present, else from the child's resourceUsage.
// Prints the ratio triage / grep (target <= 3x) and peak MB (target < 300).
// Run: npm run build && node bench/triage.mjs [logMB=100] [runs=5]
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileLogMatcher } from '../dist/core/triage/log-matcher.js';
import { BUILT_IN_SIGNATURES } from '../dist/core/triage/triage-signatures.js';

const LOG_MB = Number(process.argv[2] ?? 100);
const RUNS = Number(process.argv[3] ?? 5);
const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');
const FILES = 100;
const PER_FILE = 25;
const FAILURES = 30;

const dir = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-bench-triage-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function writeReport() {
  const failing = new Set(Array.from({ length: FAILURES }, (_, i) => Math.floor((i * FILES * PER_FILE) / FAILURES)));
  const testResults = [];
  let n = 0;
  for (let f = 0; f < FILES; f++) {
    const name = `/home/runner/work/app/app/test/module-${f}.test.ts`;
    const assertionResults = [];
    for (let t = 0; t < PER_FILE; t++, n++) {
      const failed = failing.has(n);
      assertionResults.push({
        ancestorTitles: [`module ${f}`],
        fullName: `module ${f} does thing ${t}`,
        status: failed ? 'failed' : 'passed',
        title: `does thing ${t}`,
        duration: 3 + (n % 40),
        failureMessages: failed
          ? [
              `AssertionError: expected ${t} to be ${t + 1} // Object.is equality\n    at ${name}:${10 + t}:20\n    at file:///home/runner/work/app/app/node_modules/@vitest/runner/dist/chunk-artifact.js:302:11`,
            ]
          : [],
        meta: {},
        tags: [],
      });
    }
    testResults.push({
      assertionResults,
      startTime: 1e12,
      endTime: 1e12 + 400,
      status: assertionResults.some((a) => a.status === 'failed') ? 'failed' : 'passed',
      message: '',
      name,
    });
  }
  const report = {
    numTotalTestSuites: FILES,
    numTotalTests: n,
    numFailedTests: FAILURES,
    success: false,
    startTime: 1e12,
    testResults,
  };
  writeFileSync(path.join(dir, 'r.json'), JSON.stringify(report));
}

function writeLog() {
  const file = path.join(dir, 'ci.log');
  const fd = openSync(file, 'w');
  const line = (i) =>
    ` \u001b[32m✓\u001b[39m test/module-${i % FILES}.test.ts\u001b[2m > \u001b[22mmodule ${i % FILES}\u001b[2m > \u001b[22mdoes thing ${i % PER_FILE}\u001b[32m ${i % 40}\u001b[2mms\u001b[22m\u001b[39m\n`;
  const target = LOG_MB * 1024 * 1024;
  let bytes = 0;
  let i = 0;
  let block = '';
  const specials = [
    'npm warn deprecated inflight@1.0.6',
    'Error: connect ECONNREFUSED 127.0.0.1:6379',
    'Error: Process completed with exit code 1.',
  ];
  while (bytes < target) {
    block += line(i++);
    if (i % 200_000 === 0) block += `${specials[(i / 200_000) % specials.length]}\n`;
    if (block.length > 1 << 20) {
      writeSync(fd, block);
      bytes += Buffer.byteLength(block);
      block = '';
    }
  }
  for (let k = 0; k < FAILURES; k++) {
    const n = Math.floor((k * FILES * PER_FILE) / FAILURES);
    const f = Math.floor(n / PER_FILE);
    const t = n % PER_FILE;
    block += `\u001b[41m\u001b[1m FAIL \u001b[22m\u001b[49m test/module-${f}.test.ts\u001b[2m > \u001b[22mmodule ${f}\u001b[2m > \u001b[22mdoes thing ${t}\n\u001b[31m\u001b[1mAssertionError\u001b[22m: expected ${t} to be ${t + 1}\u001b[39m\n\n`;
  }
  writeSync(fd, block);
  closeSync(fd);
  return file;
}

const HAS_TIME = existsSync('/usr/bin/time');

/** Wall ms, CPU ms (user + system) and peak RSS MB of one command, via /usr/bin/time -v when present. */
function time(cmd, args) {
  const start = performance.now();
  const r = HAS_TIME
    ? spawnSync('/usr/bin/time', ['-v', cmd, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 })
    : spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = performance.now() - start;
  const field = (name) => Number(new RegExp(`${name}: ([\\d.]+)`).exec(r.stderr ?? '')?.[1] ?? Number.NaN);
  return {
    ms,
    cpu: (field('User time \\(seconds\\)') + field('System time \\(seconds\\)')) * 1000,
    rssMb: field('Maximum resident set size \\(kbytes\\)') / 1024,
    r,
  };
}

writeReport();
const log = writeLog();
// The same literals triage searches for (signature texts, regex needles, Vitest markers).
const literals = compileLogMatcher(BUILT_IN_SIGNATURES).needles.map((n) => Buffer.from(n).toString('utf8'));
writeFileSync(path.join(dir, 'patterns.txt'), `${literals.join('\n')}\n`);
execFileSync('cat', [log], { stdio: 'ignore', maxBuffer: 1 << 30 }); // warm the page cache for everyone

const grepAll = [];
const grepOne = [];
const triage = [];
let findings = null;
for (let k = 0; k < RUNS; k++) {
  grepAll.push(time('grep', ['-c', '-F', '-f', path.join(dir, 'patterns.txt'), log]));
  grepOne.push(time('grep', ['-c', 'ENOSPC', log]));
  const t = time(process.execPath, [
    CLI,
    'triage',
    '--report',
    path.join(dir, 'r.json'),
    '--log',
    log,
    '--exit-code',
    '1',
    '--root',
    dir,
    '--json',
  ]);
  if (t.r.status !== 1) throw new Error(`triage exited ${t.r.status}: ${t.r.stderr}`);
  triage.push(t);
  findings ??= JSON.parse(t.r.stdout).findings;
}
const med = (xs, key) => median(xs.map((x) => x[key]));
const counts = {};
for (const f of findings) counts[f.class] = (counts[f.class] ?? 0) + 1;
console.log(`log ${LOG_MB} MB, report ${FILES * PER_FILE} tests with ${FAILURES} failures; median of ${RUNS}`);
console.log(`findings: ${findings.length} ${JSON.stringify(counts)}`);
console.log(
  `load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} on ${os.cpus().length} CPUs (wall times suffer from load; CPU times less)`,
);
console.log(
  `grep -c -F -f (${literals.length} literals): wall ${med(grepAll, 'ms').toFixed(0)} ms, CPU ${med(grepAll, 'cpu').toFixed(0)} ms`,
);
console.log(
  `grep -c ENOSPC (one literal):     wall ${med(grepOne, 'ms').toFixed(0)} ms, CPU ${med(grepOne, 'cpu').toFixed(0)} ms`,
);
console.log(
  `flakeguard triage (no re-runs):   wall ${med(triage, 'ms').toFixed(0)} ms, CPU ${med(triage, 'cpu').toFixed(0)} ms, peak RSS ${HAS_TIME ? `${med(triage, 'rssMb').toFixed(0)} MB` : 'not measured (no /usr/bin/time)'}`,
);
console.log(
  `ratio triage / grep -F -f: wall ${(med(triage, 'ms') / med(grepAll, 'ms')).toFixed(2)}x, CPU ${(med(triage, 'cpu') / med(grepAll, 'cpu')).toFixed(2)}x (target <= 3x)`,
);
console.log(
  `ratio triage / grep one literal: wall ${(med(triage, 'ms') / med(grepOne, 'ms')).toFixed(2)}x (for reference)`,
);
console.log(`peak memory: ${HAS_TIME ? med(triage, 'rssMb').toFixed(0) : '?'} MB (target < 300)`);
rmSync(dir, { recursive: true, force: true });
