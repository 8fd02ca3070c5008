// Detection: the share of truly flaky fixture tests the gate catches with load on (--load auto, one
// busy worker per CPU) against load off (--load 0), same fixture, same run, 3 rounds each.
// Every fixture test is flaky by construction (timing races, CPU deadlines, random failure).
// Usage: npm run build && node bench/gate-detection.mjs
import os from 'node:os';
import { CLI, scratchRepo, timed } from './gate-lib.mjs';

const CPU_SPIN = `function spinCpu(cpuMs) {
  const start = process.cpuUsage();
  let x = 0;
  for (;;) {
    for (let i = 0; i < 1000; i += 1) x += Math.sqrt(i);
    const used = process.cpuUsage(start);
    if ((used.user + used.system) / 1000 >= cpuMs) return x;
  }
}
async function spinCpuYielding(cpuMs) {
  const start = process.cpuUsage();
  for (;;) {
    let x = 0;
    for (let i = 0; i < 20000; i += 1) x += Math.sqrt(i);
    const used = process.cpuUsage(start);
    if ((used.user + used.system) / 1000 >= cpuMs) return x;
    await new Promise((r) => setImmediate(r));
  }
}
function cpuShareOver(wallMs) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  let x = 0;
  while (performance.now() - start < wallMs) x += Math.sqrt(x + 1);
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000 / (performance.now() - start);
}`;

const FLAKY = {
  'frame deadline (needs 45% of a CPU)': `expect(cpuShareOver(200)).toBeGreaterThan(0.45);`,
  'frame deadline (needs 33% of a CPU)': `expect(cpuShareOver(200)).toBeGreaterThan(0.33);`,
  'confirmation beats the 30 ms webhook timer': `let webhook = false;
    setTimeout(() => { webhook = true; }, 30);
    await spinCpuYielding(15);
    expect(webhook, 'webhook fired before the confirmation').toBe(false);`,
  'import finishes within its 100 ms timeout': `spinCpu(60);`,
  'random network hiccup (1 in 3)': `expect(Math.random() < 1 / 3, 'network hiccup').toBe(false);`,
};

const body = ["import { expect, it } from 'vitest';", '', CPU_SPIN, ''];
for (const [name, code] of Object.entries(FLAKY)) {
  const options = name.includes('100 ms timeout') ? ', { timeout: 100 }' : '';
  body.push(`it(${JSON.stringify(name)}${options}, async () => {\n    ${code}\n});`, '');
}
const repo = scratchRepo({ 'test/base.test.ts': "import { it } from 'vitest';\nit('base', () => {});\n" });
try {
  repo.git('checkout', '-q', '-b', 'feature');
  repo.write('test/flaky.test.ts', body.join('\n'));
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'flaky tests');
  const total = Object.keys(FLAKY).length;
  const rounds = 3;
  const caught = { on: [], off: [] };
  const perTest = { on: {}, off: {} };
  for (let round = 0; round < rounds; round += 1) {
    for (const mode of ['on', 'off']) {
      const r = timed(process.execPath, [CLI, 'gate', '--json', '--load', mode === 'on' ? 'auto' : '0'], repo.root);
      const report = JSON.parse(r.stdout);
      const found = report.tests.filter((t) => t.verdict !== 'stable');
      caught[mode].push(found.length);
      for (const t of report.tests) perTest[mode][t.name] = (perTest[mode][t.name] ?? 0) + (t.verdict !== 'stable' ? 1 : 0);
    }
  }
  const share = (xs) => xs.reduce((a, b) => a + b, 0) / (xs.length * total);
  console.log(`machine: ${os.cpus().length} CPUs, load average ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}; load on = ${os.availableParallelism()} busy workers`);
  for (const name of Object.keys(FLAKY)) {
    console.log(`  ${name.padEnd(48)} caught on ${perTest.on[name] ?? 0}/${rounds}, off ${perTest.off[name] ?? 0}/${rounds}`);
  }
  console.log(`caught with load on:  ${caught.on.join(', ')} of ${total} per round; share ${(share(caught.on) * 100).toFixed(0)}%`);
  console.log(`caught with load off: ${caught.off.join(', ')} of ${total} per round; share ${(share(caught.off) * 100).toFixed(0)}%`);
} finally {
  repo.remove();
}
