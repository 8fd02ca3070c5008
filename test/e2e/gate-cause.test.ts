import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateReport } from '../../src/core/gate/gate-report.js';
import type { Fixture } from '../helpers/fixture.js';
import { COUNTER, createGateFixture, gateAtNoSlowdown, LOAD_FILES } from './gate-fixtures.js';

// Needs `npm run build`. One fixture per cause class through the real gate, in one call: 6 tries
// each, no slowdown, 2 load workers (the timer-race fixture fails exactly while they run; the others
// ignore them). Deterministic: counters on disk stand in for chance (a coin that alternates, a port
// that another server holds on every other try), so the classes never depend on the machine.
const CAUSE_FILES: Record<string, string> = {
  ...LOAD_FILES,
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
  // Math.random() without a seed, made deterministic: tails on every other try.
  expect(nextTry('coin') % 2, 'the coin came up tails').toBe(0);
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

describe('flakeguard gate: the cause of each flaky test', () => {
  let fixture: Fixture;
  let report: GateReport;
  beforeAll(async () => {
    fixture = await createGateFixture(CAUSE_FILES, {
      'test/keep.test.ts': "import { it } from 'vitest';\nit('keeps', () => {});\n",
    });
    const run = await fixture.flakeguard(gateAtNoSlowdown(6, 2, '--json'));
    expect(run.exitCode, run.stderr).toBe(1);
    report = JSON.parse(run.stdout) as GateReport;
  });
  afterAll(() => fixture.remove());
  const test = (name: string) => report.tests.find((t) => t.name === name);

  it('timer race (fails under load, passes unthrottled): timing, measured', () => {
    expect(test('renders the frame in time')).toMatchObject({
      verdict: 'flaky',
      cause: { class: 'timing', confidence: 'measured', evidence: [{ kind: 'factor' }] },
    });
    expect(test('renders the frame in time')?.cause?.fix).toMatch(/at test\/render\.test\.ts:\d+$/);
  });

  it('order dependence: names the test it depends on and its own line', () => {
    const t = test('reads the store');
    expect(t).toMatchObject({ verdict: 'order-dependent', cause: { class: 'order', confidence: 'measured' } });
    expect(t?.cause?.evidence[0]?.text).toContain('"fills the store" in test/order.test.ts');
    expect(t?.cause?.fix).toBe(
      'reset the module state in beforeEach, or set up what the test needs in the test itself, at test/order.test.ts:7',
    );
    expect(test('fills the store')).toMatchObject({ verdict: 'stable', cause: null });
  });

  it('unseeded random (fails unthrottled too): randomness or concurrency, measured', () => {
    expect(test('flips a coin')).toMatchObject({
      verdict: 'flaky',
      cause: { class: 'random-or-concurrency', confidence: 'measured' },
    });
    expect(test('flips a coin')?.cause?.fix).toMatch(/^seed the generator .* at test\/coin\.test\.ts:\d+$/);
  });

  it('a port already in use: network, measured, from the try errors; the fix names the source line', () => {
    const t = test('listens on its port');
    expect(t).toMatchObject({ verdict: 'flaky', cause: { class: 'network', confidence: 'measured' } });
    // The try errors decide; the two createServer() calls of its source support (core/cause/source-signals.ts).
    expect(t?.cause?.evidence.map((e) => e.kind)).toEqual(['error', 'source', 'source']);
    expect(t?.cause?.evidence[0]?.text).toMatch(/failed tries name EADDRINUSE$/);
    expect(t?.cause?.evidence[1]?.text).toBe('`createServer()` uses the real network');
    expect(t?.cause?.fix).toBe(
      `listen on port 0 and read the port back, or mock the network, instead of \`createServer()\` at test/port.test.ts:${t?.cause?.evidence[1]?.line}`,
    );
  });
});
