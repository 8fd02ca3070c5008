// Gate overhead: `flakeguard gate --load 0` on a branch adding 10 tests, against a naive script that
// runs `vitest run <file> -t <name>` five times per test, measured in the same run.
// Usage: npm run build && node bench/gate-overhead.mjs     Target: ratio <= 0.5.
import os from 'node:os';
import { CLI, fmt, scratchRepo, timed, VITEST } from './gate-lib.mjs';

const TESTS_PER_FILE = 2;
const FILES = 5;
const test = (f, i) => `it('computes value ${f}-${i}', () => {
  let x = 0;
  for (let k = 0; k < 200000; k += 1) x += Math.sqrt(k);
  expect(x).toBeGreaterThan(0);
});
`;
const repo = scratchRepo({ 'test/base.test.ts': "import { it } from 'vitest';\nit('base', () => {});\n" });
try {
  repo.git('checkout', '-q', '-b', 'feature');
  const targets = [];
  for (let f = 0; f < FILES; f += 1) {
    const body = ["import { expect, it } from 'vitest';", ''];
    for (let i = 0; i < TESTS_PER_FILE; i += 1) {
      body.push(test(f, i));
      targets.push({ file: `test/new-${f}.test.ts`, name: `computes value ${f}-${i}` });
    }
    repo.write(`test/new-${f}.test.ts`, body.join('\n'));
  }
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'ten new tests');

  const gate = timed(process.execPath, [CLI, 'gate', '--load', '0', '--runs', '5', '--json'], repo.root);
  if (gate.status !== 0) throw new Error(`gate exited ${gate.status}: ${gate.stderr}`);
  const report = JSON.parse(gate.stdout);
  if (report.tests.length !== 10 || report.tests.some((t) => t.runs !== 5)) throw new Error('gate did not run 10 tests x 5');

  const naiveStart = performance.now();
  for (const t of targets) {
    for (let i = 0; i < 5; i += 1) {
      const r = timed(process.execPath, [VITEST, 'run', t.file, '-t', `^${t.name}$`], repo.root);
      if (r.status !== 0) throw new Error(`naive run failed: ${r.stdout}${r.stderr}`);
    }
  }
  const naiveMs = performance.now() - naiveStart;
  console.log(`machine: ${os.cpus().length} CPUs, load average ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}`);
  console.log(`gate --load 0 (10 tests x 5 tries + each new test once alone): ${fmt(gate.ms)}`);
  console.log(`naive (50 x vitest run <file> -t <name>):                   ${fmt(naiveMs)}`);
  console.log(`ratio gate / naive: ${(gate.ms / naiveMs).toFixed(3)} (target <= 0.5)`);
} finally {
  repo.remove();
}
