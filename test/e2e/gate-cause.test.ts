import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateReportJson } from '../../src/core/gate/gate-report.js';
import type { Fixture } from '../helpers/fixture.js';
import { COUNTER, createGateFixture, GATE_LOAD_RUNNING, gateAtNoSlowdown } from './gate-fixtures.js';

// Needs `npm run build`. One fixture per cause class through the real gate, in one call: 4 tries
// each, no slowdown, 1 load worker (the timer-race fixture fails exactly while one runs; the others
// ignore it). 4 is the fewest tries that decides every class here: the timer race's 4/4 failed
// under load against 0/4 unthrottled is significant (one-sided Fisher p = 1/70; 3 and 3 give 1/20,
// not below 0.05), as are the cold-start fixture's cold failures against its warm passes; each try
// more is a fresh worker of each of the six files, with the load worker spinning meanwhile. Deterministic: counters on disk and the worker's own memory stand in for chance (a
// coin that alternates, a port that another server holds on every other try, a connection that only
// a fresh worker lacks), so the classes never depend on the machine. The project reuses its workers
// (isolate: false, at most 2): a test file's first try in a worker is cold, the tries after it warm,
// as in a project that runs that way in CI; each try still runs its whole file (order.test.ts).
const CONFIG = `import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { isolate: false, maxWorkers: 2 } });
`;

const CAUSE_FILES: Record<string, string> = {
  'test/render.test.ts': `import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';

${GATE_LOAD_RUNNING}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('renders the frame in time', async () => {
  await sleep(10);
  expect(gateLoadRunning(), 'the gate is running its load workers').toBe(false);
});
`,
  'test/connect.test.ts': `import { expect, it } from 'vitest';

// The worker's first request opens the connection and misses its deadline; later ones reuse it.
const worker = globalThis as { connected?: boolean };
it('answers within its deadline', () => {
  const fresh = worker.connected !== true;
  worker.connected = true;
  expect(fresh, 'the first request of a fresh worker missed its deadline').toBe(false);
});
`,
  'test/order.test.ts': `import { expect, it } from 'vitest';

const store: string[] = [];
it('fills the store', () => {
  store.push('item');
});
it('reads the store', () => {
  expect(store).toEqual(['item']);
});
`,
  'test/coin.test.ts': `import { mkdirSync } from 'node:fs';
import { expect, it } from 'vitest';

${COUNTER}

it('flips a coin', () => {
  // Unseeded, made deterministic for the test: tails on every other try.
  const heads = nextTry('coin') % 2 === 0 ? Math.random() < 2 : Math.random() > 2;
  expect(heads, 'the coin came up tails').toBe(true);
});
`,
  'test/seeded.test.ts': `import { expect, it } from 'vitest';

function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

it('flips a seeded coin', () => {
  const random = seeded(42);
  expect(random() < 0.5, 'seed 42 draws 0.58 first').toBe(false);
});
`,
  'test/port.test.ts': `import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { it } from 'vitest';

${COUNTER}

const listen = (s: Server, port: number) =>
  new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => resolve());
  });

it('listens on its port', async () => {
  const other = createServer();
  await listen(other, 0);
  const port = (other.address() as { port: number }).port;
  // Another job's server holds the port on every other try.
  if (nextTry('port') % 2 === 0) await new Promise((r) => other.close(r));
  const server = createServer();
  try {
    await listen(server, port);
  } finally {
    server.close();
    other.close();
  }
});
`,
};

/** The 1-based line of `file` that contains `text` (the first one). */
function lineOf(file: string, text: string): number {
  const index = (CAUSE_FILES[file] ?? '').split('\n').findIndex((l) => l.includes(text));
  if (index === -1) throw new Error(`${file} has no line with ${text}`);
  return index + 1;
}

describe('flakeguard gate: the cause of each flaky test', () => {
  let fixture: Fixture;
  let report: GateReportJson;
  beforeAll(async () => {
    fixture = await createGateFixture(CAUSE_FILES, {
      'vitest.config.ts': CONFIG,
      'test/keep.test.ts': "import { it } from 'vitest';\nit('keeps', () => {});\n",
    });
    const run = await fixture.flakeguard(gateAtNoSlowdown(4, 1, '--json'));
    expect(run.exitCode, run.stderr).toBe(1);
    report = JSON.parse(run.stdout) as GateReportJson;
  });
  afterAll(() => fixture.remove());
  const test = (name: string) => report.tests.find((t) => t.fullName === name);

  it('timer race (fails under load, passes unthrottled): timing, measured; the fix names the sleep helper call', () => {
    const t = test('renders the frame in time');
    expect(t).toMatchObject({
      verdict: 'flaky',
      cause: { class: 'timing', confidence: 'measured', evidence: [{ kind: 'factor' }, { kind: 'source' }] },
    });
    expect(t?.cause?.fix).toBe(
      `await the event instead of \`sleep(10)\` at test/render.test.ts:${lineOf('test/render.test.ts', 'await sleep(10)')}`,
    );
  });

  it('cold start (fails the first try of a fresh worker, passes warm): cold-start, measured', () => {
    const t = test('answers within its deadline');
    expect(t).toMatchObject({
      verdict: 'flaky',
      cause: { class: 'cold-start', confidence: 'measured', evidence: [{ kind: 'cold' }] },
    });
    expect(t?.tries.filter((x) => x.state === 'failed').every((x) => x.cold)).toBe(true);
    expect(t?.tries.some((x) => x.state === 'passed' && !x.cold)).toBe(true);
    expect(t?.cause?.fix).toMatch(
      new RegExp(`^do the first-time work .* at test/connect\\.test\\.ts:${lineOf('test/connect.test.ts', "it('")}$`),
    );
  });

  it('order dependence: names the test that leaves the state, and the line that writes it', () => {
    const t = test('reads the store');
    expect(t).toMatchObject({ verdict: 'order-dependent', cause: { class: 'order', confidence: 'measured' } });
    expect(t?.cause?.evidence[0]?.text).toContain('"fills the store" in test/order.test.ts');
    expect(t?.cause?.evidence[1]).toMatchObject({ kind: 'source', line: lineOf('test/order.test.ts', 'store.push') });
    expect(t?.cause?.fix).toBe(
      `reset \`store\` in beforeEach (or declare it inside the test) at test/order.test.ts:${lineOf('test/order.test.ts', 'store.push')}`,
    );
    expect(test('fills the store')).toMatchObject({ verdict: 'stable', cause: null });
  });

  it('random by a counter (fails unthrottled too): randomness or concurrency, measured; its failed seeds passed on replay, so the fix is not to seed Math.random; seeded: stable', () => {
    const coin = test('flips a coin');
    expect(coin).toMatchObject({
      verdict: 'flaky',
      cause: { class: 'random-or-concurrency', confidence: 'measured' },
    });
    // Tails on every other try whatever it draws: a failed try's seed replayed without slowdown
    // passes at least once when two are replayed (one replay alone may fail again: then the
    // Math.random() line's fix, as before the replays).
    const refuted = (coin?.cause?.evidence ?? []).some((e) => e.text.endsWith('do not decide it'));
    const at = refuted
      ? lineOf('test/coin.test.ts', "it('flips a coin'")
      : lineOf('test/coin.test.ts', 'Math.random()');
    expect(coin?.cause?.fix).toMatch(
      refuted
        ? new RegExp(
            `^seeding Math\\.random will not fix it: find what differs between tries with the same seed .* at test/coin\\.test\\.ts:${at}$`,
          )
        : new RegExp(
            `^seed the generator \\(or inject the random source\\) instead of \`Math\\.random\\(\\)\` at test/coin\\.test\\.ts:${at}$`,
          ),
    );
    expect(coin?.cause?.evidence.some((e) => e.text.startsWith('`Math.random()`'))).toBe(true);
    expect(test('flips a seeded coin')).toMatchObject({ verdict: 'stable', passes: 4, tryCount: 4, cause: null });
  });

  it('a port already in use: network, measured, from the try errors; the fix names the source line', () => {
    const t = test('listens on its port');
    expect(t).toMatchObject({ verdict: 'flaky', cause: { class: 'network', confidence: 'measured' } });
    // The try errors decide; the two createServer() calls of its source support (core/cause/source-signals.ts).
    expect(t?.cause?.evidence.map((e) => e.kind)).toEqual(['error', 'source', 'source']);
    expect(t?.cause?.evidence[0]?.text).toMatch(/failed tries name EADDRINUSE$/);
    expect(t?.cause?.evidence[1]?.text).toBe('`createServer()` uses the real network');
    expect(t?.cause?.fix).toBe(
      `listen on port 0 and read the port back, or mock the network, instead of \`createServer()\` at test/port.test.ts:${lineOf('test/port.test.ts', 'const other = createServer()')}`,
    );
  });
});
