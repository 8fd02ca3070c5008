// Detection: over N gate calls (default 10) on one branch adding three flaky tests, one of each kind,
// how often the gate catches each (any verdict but stable), the gate before cold tries (old: warm
// repeats in one worker, built from git at OLD_GATE_REF) against this one (new: cold tries), both
// at the default load (--load auto: one busy worker per CPU), alternating calls, same machine.
//   random 30%:      fails 30% of its tries, whatever the process
//   load-sensitive:  a 30 ms timer must not fire before 15 ms of CPU work is done
//   cold-start:      an HTTP server whose first request in a process meets a cold cache (0-15 ms),
//                    and a 10 ms abort: the request must reach the handler first
// Usage: npm run build && node bench/gate-detection.mjs [--calls 10]     Target: >= 95% each, new.
import os from 'node:os';
import { buildOldGate, CLI, numberArg, scratchRepo, timed } from './gate-lib.mjs';

const KINDS = {
  'random 30%': `import { expect, it } from 'vitest';

it('syncs the basket', () => {
  expect(Math.random() < 0.3, 'network hiccup').toBe(false);
});
`,
  'load-sensitive': `import { expect, it } from 'vitest';

async function spinCpu(cpuMs) {
  const start = process.cpuUsage();
  for (;;) {
    let x = 0;
    for (let i = 0; i < 20000; i += 1) x += Math.sqrt(i);
    const used = process.cpuUsage(start);
    if ((used.user + used.system) / 1000 >= cpuMs) return x;
    await new Promise((r) => setImmediate(r));
  }
}

it('confirms before the webhook', async () => {
  let webhook = false;
  setTimeout(() => { webhook = true; }, 30);
  await spinCpu(15);
  expect(webhook, 'the webhook fired before the confirmation').toBe(false);
});
`,
  'cold-start': `import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';

let warm = false;
let server;
let onAbort = () => {};
beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    if (!warm) {
      // The first request in a process fills the route cache: 0-15 ms.
      await new Promise((r) => setTimeout(r, Math.random() * 15));
      warm = true;
    }
    // The handler's abort callback: missed when the client aborted before the handler ran.
    req.on('close', () => { onAbort(); res.end(); });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(() => new Promise((r) => server.close(r)));

it('starts the server', () => {
  expect(server.listening).toBe(true);
});
it('aborts an upload in flight', async () => {
  const aborted = new Promise((r) => { onAbort = () => r(true); });
  const controller = new AbortController();
  const req = http.request({ port: server.address().port, host: '127.0.0.1', method: 'POST', signal: controller.signal });
  req.on('error', () => {});
  req.write('x');
  setTimeout(() => controller.abort(), 10);
  const seen = await Promise.race([aborted, new Promise((r) => setTimeout(() => r(false), 200))]);
  expect(seen, 'the server saw the abort (the request reached the handler within 10 ms)').toBe(true);
});
`,
};
const FILES = {
  'random 30%': 'test/random.test.mjs',
  'load-sensitive': 'test/webhook.test.mjs',
  'cold-start': 'test/upload.test.mjs',
};
const TARGET = {
  'random 30%': 'syncs the basket',
  'load-sensitive': 'confirms before the webhook',
  'cold-start': 'aborts an upload in flight',
};

const calls = numberArg('calls', 10);
const old = buildOldGate();
const repo = scratchRepo({ 'test/base.test.mjs': "import { it } from 'vitest';\nit('base', () => {});\n" });
try {
  repo.git('checkout', '-q', '-b', 'feature');
  for (const [kind, text] of Object.entries(KINDS)) repo.write(FILES[kind], text);
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'three flaky tests');
  const designs = { old: old.cli, new: CLI };
  const caught = { old: {}, new: {} };
  const wall = { old: 0, new: 0 };
  const tries = { old: 0, new: 0 };
  for (let call = 0; call < calls; call += 1) {
    for (const [design, cli] of Object.entries(designs)) {
      const r = timed(process.execPath, [cli, 'gate', '--json', '--load', 'auto'], repo.root);
      if (r.status !== 0 && r.status !== 1) throw new Error(`${design} gate exited ${r.status}: ${r.stderr}`);
      wall[design] += r.ms;
      const report = JSON.parse(r.stdout);
      for (const [kind, name] of Object.entries(TARGET)) {
        const t = report.tests.find((x) => x.fullName === name);
        tries[design] += t?.tryCount ?? t?.runs ?? 0; // the old design writes a report before version 4 (runs)
        caught[design][kind] = (caught[design][kind] ?? 0) + (t && t.verdict !== 'stable' ? 1 : 0);
      }
      const line = Object.entries(TARGET).map(([kind, name]) => {
        const t = report.tests.find((x) => x.fullName === name);
        return `${kind} ${t?.verdict} ${t?.passes}/${t?.tryCount ?? t?.runs}`;
      });
      process.stderr.write(`call ${call + 1}/${calls} ${design}: ${line.join(', ')}\n`);
    }
  }
  const pct = (n) => `${Math.round((n / calls) * 100)}%`.padStart(5);
  console.log(
    `machine: ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')}; --load auto = ${os.availableParallelism()} busy workers; ${calls} gate calls per design`,
  );
  console.log(`${'kind'.padEnd(16)} old (warm repeats)  new (cold tries)`);
  for (const kind of Object.keys(KINDS)) {
    console.log(
      `${kind.padEnd(16)} ${String(caught.old[kind] ?? 0).padStart(2)}/${calls} ${pct(caught.old[kind] ?? 0)}       ${String(caught.new[kind] ?? 0).padStart(2)}/${calls} ${pct(caught.new[kind] ?? 0)}`,
    );
  }
  console.log(
    `mean gate wall time: old ${(wall.old / calls / 1000).toFixed(1)} s, new ${(wall.new / calls / 1000).toFixed(1)} s; loaded tries per test: old ${(tries.old / calls / 3).toFixed(1)}, new ${(tries.new / calls / 3).toFixed(1)}`,
  );
} finally {
  repo.remove();
  old.remove();
}
