/**
 * A branch of 21 selected tests in 9 files, each with a known truth (EVIDENCE_TRUTH): deadline tests
 * that pass at x1 and fail at x2 (each does a fixed amount of CPU work, measured by its own CPU
 * clock, and checks the wall time it took against a deadline), random flakes (counters on disk:
 * deterministic), an order-dependent test, a cold-start flake (a worker-global flag: the project
 * reuses its workers), a near- and an over-budget test, and stable ones. test/e2e/gate-evidence.test.ts
 * runs the gate on it; bench/gate-contention.mjs --selection 20 times it. Plain JavaScript (types in
 * gate-evidence-fixtures.d.mts) so the bench reads the same fixture.
 */

/**
 * A counter on disk (ignored by git), so a test fails on a fixed set of tries: 2 and 5. Each try
 * claims the lowest free number with mkdir, which is atomic, so tries running side by side in
 * several workers still get 1, 2, 3... once each.
 */
export const COUNTER = `function nextTry(name: string): number {
  for (let n = 1; ; n += 1) {
    try {
      mkdirSync('.flakeguard/tries-' + name + '/' + n, { recursive: false });
      return n;
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') mkdirSync('.flakeguard/tries-' + name, { recursive: true });
      else if ((error as { code?: string }).code !== 'EEXIST') throw error;
      else continue;
      n -= 1;
    }
  }
}`;

const CONFIG = `import { defineConfig } from 'vitest/config';

// Workers are reused (as many projects do): a test file's first try in a worker is cold, later ones warm.
export default defineConfig({ test: { isolate: false, maxWorkers: 2 } });
`;

const FLAKEGUARD = `budget:
  test: 1s
  warnAt: 40%
`;

/** CPU work of \`ms\` milliseconds by the worker's own CPU clock: at xF it takes F times as long by the wall clock. */
export const SPIN = `function spin(ms: number): number {
  const start = process.cpuUsage();
  let x = 0;
  for (;;) {
    for (let i = 0; i < 20_000; i += 1) x += Math.sqrt(i);
    const used = process.cpuUsage(start);
    if ((used.user + used.system) / 1000 >= ms) return x;
  }
}`;

/** @param {readonly string[]} names */
const STABLE = (names) => `import { expect, it } from 'vitest';

${names.map((n, i) => `it('${n}', () => {\n  expect([${i}, ${i + 1}].length).toBe(2);\n});\n`).join('\n')}`;

/** @type {Record<string, string>} */
export const EVIDENCE_BASE = {
  'vitest.config.ts': CONFIG,
  'flakeguard.yaml': FLAKEGUARD,
  'test/cart.test.ts': `import { expect, it } from 'vitest';

it('adds an item', () => {
  expect([1].length).toBe(1);
});
it('removes an item', () => {
  expect([].length).toBe(0);
});
`,
  'test/session.test.ts': `import { expect, it } from 'vitest';

const sessions: string[] = [];
it('logs in', () => {
  sessions.push('ann');
  expect(sessions).toHaveLength(1);
});
`,
};

/** @type {Record<string, string>} */
export const EVIDENCE_BRANCH = {
  // Three deadline tests: a debounce and a parser in one file, a cache batch in another.
  'test/debounce.test.ts': `import { expect, it } from 'vitest';

${SPIN}

it('flushes the debounced save before its deadline', () => {
  const started = performance.now();
  const cpu = process.cpuUsage();
  spin(60);
  const used = process.cpuUsage(cpu);
  const elapsed = performance.now() - started;
  expect(elapsed, 'the debounce missed its deadline').toBeLessThan(((used.user + used.system) / 1000) * 1.5);
});

it('parses within its time limit', () => {
  const started = performance.now();
  spin(50);
  expect(performance.now() - started, 'the parser ran past its limit').toBeLessThan(85);
});
`,
  'test/cache.test.ts': `import { expect, it } from 'vitest';

${SPIN}

it('keeps a hit', () => {
  expect(new Map([['a', 1]]).get('a')).toBe(1);
});

it('writes a batch within its deadline', () => {
  const started = performance.now();
  const cpu = process.cpuUsage();
  spin(60);
  const used = process.cpuUsage(cpu);
  expect(performance.now() - started, 'the batch missed its deadline').toBeLessThan(((used.user + used.system) / 1000) * 1.5);
});
`,
  // Two random flakes: unseeded, made deterministic by a counter (every other try; every third).
  'test/draw.test.ts': `import { mkdirSync } from 'node:fs';
import { expect, it } from 'vitest';

${COUNTER}

it('flips a coin', () => {
  const heads = nextTry('coin') % 2 === 0 ? Math.random() > 2 : Math.random() < 2;
  expect(heads, 'the coin came up tails').toBe(true);
});

it('picks a winner', () => {
  const picked = nextTry('winner') % 3 === 0 ? Math.random() > 2 : Math.random() < 2;
  expect(picked, 'no winner was picked').toBe(true);
});
`,
  // Order: 'shows the user' reads what 'logs in' (unchanged) left in the module state.
  'test/session.test.ts': `import { expect, it } from 'vitest';

const sessions: string[] = [];
it('logs in', () => {
  sessions.push('ann');
  expect(sessions).toHaveLength(1);
});
it('shows the user', () => {
  expect(sessions[0], 'needs the login of the test before').toBe('ann');
});
it('formats a name', () => {
  expect('ann'.toUpperCase()).toBe('ANN');
});
`,
  // Cold start: the first request of a fresh worker misses its deadline; later ones reuse the connection.
  'test/connect.test.ts': `import { expect, it } from 'vitest';

const worker = globalThis as { connected?: boolean };
it('answers within its deadline', () => {
  const fresh = worker.connected !== true;
  worker.connected = true;
  expect(fresh, 'the first request of a fresh worker missed its deadline').toBe(false);
});
it('closes the connection', () => {
  expect([1, 2].includes(2)).toBe(true);
});
`,
  // Budget: 1s, warnAt 40%: near at 600 ms, over at 1.3 s (sleeps: the slowdown does not stretch them).
  'test/report.test.ts': `import { expect, it } from 'vitest';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
it('renders the summary', () => {
  expect('sum').toHaveLength(3);
});
it('exports the report', async () => {
  await sleep(600);
  expect(1).toBe(1);
});
it('archives the year', async () => {
  await sleep(1300);
  expect(1).toBe(1);
});
`,
  'test/cart.test.ts': `import { expect, it } from 'vitest';

it('adds an item', () => {
  expect([1, 2].length).toBe(2);
});
it('removes an item', () => {
  expect([1].filter((x) => x > 1).length).toBe(0);
});
`,
  'test/math.test.ts': STABLE(['adds', 'multiplies', 'rounds']),
  'test/text.test.ts': STABLE(['trims', 'pads', 'splits']),
};

/** What each selected test is (file, name): its verdict, and for a flake its cause and load sensitivity. */
export const EVIDENCE_TRUTH = [
  {
    file: 'test/debounce.test.ts',
    name: 'flushes the debounced save before its deadline',
    verdict: 'flaky',
    cause: 'timing',
    loadSensitive: true,
  },
  {
    file: 'test/debounce.test.ts',
    name: 'parses within its time limit',
    verdict: 'flaky',
    cause: 'timing',
    loadSensitive: true,
  },
  { file: 'test/cache.test.ts', name: 'keeps a hit', verdict: 'stable' },
  {
    file: 'test/cache.test.ts',
    name: 'writes a batch within its deadline',
    verdict: 'flaky',
    cause: 'timing',
    loadSensitive: true,
  },
  { file: 'test/draw.test.ts', name: 'flips a coin', verdict: 'flaky', cause: 'random-or-concurrency' },
  { file: 'test/draw.test.ts', name: 'picks a winner', verdict: 'flaky', cause: 'random-or-concurrency' },
  { file: 'test/session.test.ts', name: 'shows the user', verdict: 'order-dependent', cause: 'order' },
  { file: 'test/session.test.ts', name: 'formats a name', verdict: 'stable' },
  { file: 'test/connect.test.ts', name: 'answers within its deadline', verdict: 'flaky', cause: 'cold-start' },
  { file: 'test/connect.test.ts', name: 'closes the connection', verdict: 'stable' },
  { file: 'test/report.test.ts', name: 'renders the summary', verdict: 'stable' },
  { file: 'test/report.test.ts', name: 'exports the report', verdict: 'near-budget' },
  { file: 'test/report.test.ts', name: 'archives the year', verdict: 'over-budget' },
  { file: 'test/cart.test.ts', name: 'adds an item', verdict: 'stable' },
  { file: 'test/cart.test.ts', name: 'removes an item', verdict: 'stable' },
  { file: 'test/math.test.ts', name: 'adds', verdict: 'stable' },
  { file: 'test/math.test.ts', name: 'multiplies', verdict: 'stable' },
  { file: 'test/math.test.ts', name: 'rounds', verdict: 'stable' },
  { file: 'test/text.test.ts', name: 'trims', verdict: 'stable' },
  { file: 'test/text.test.ts', name: 'pads', verdict: 'stable' },
  { file: 'test/text.test.ts', name: 'splits', verdict: 'stable' },
];
