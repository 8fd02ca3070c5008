/** Fixture sources for the gate's end-to-end tests: a base commit on main, then a branch. */
import { createFixture, type Fixture } from '../helpers/fixture.js';

// A wide near-budget window (200ms..800ms) so timer latency under load cannot push the near test
// over: its 250 ms sleep has 550 ms to spare; the over-budget test sleeps 900 ms, which no timer cuts short.
const CONFIG = `budget:
  test: 800ms
  warnAt: 25%
`;

export const BASE_FILES: Record<string, string> = {
  'flakeguard.yaml': CONFIG,
  'test/cart.test.ts': `import { describe, expect, it } from 'vitest';

describe('cart', () => {
  it('keeps items', () => {
    expect(['apple'].length).toBe(1);
  });
  it('to be renamed', () => {
    expect(2 + 2).toBe(4);
  });
  it('edited', () => {
    expect('a').toBe('a');
  });
});
`,
  'test/old.test.ts': `import { expect, it } from 'vitest';

it('travels', () => {
  expect([1, 2, 3].includes(2)).toBe(true);
});
it('stays', () => {
  expect(true).toBe(true);
});
`,
  'test/session.test.ts': `import { expect, it } from 'vitest';

let user: string | null = null;
it('logs in', () => {
  user = 'ann';
  expect(user).toBe('ann');
});
`,
};

export { COUNTER } from './gate-evidence-fixtures.mjs';

import { COUNTER } from './gate-evidence-fixtures.mjs';

export const BRANCH_FILES: Record<string, string> = {
  'test/cart.test.ts': `import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

${COUNTER}

describe('cart', () => {
  it('keeps items', () => {
    expect(['apple'].length).toBe(1);
  });
  it('adds numbers', () => {
    expect(2 + 2).toBe(4);
  });
  it('edited', () => {
    expect('a'.toUpperCase()).toBe('A');
  });
  it('totals the cart', () => {
    expect([1, 2, 3].reduce((a, b) => a + b, 0)).toBe(6);
  });
  it('confirms the payment', () => {
    const n = nextTry('payment');
    expect(n === 2 || n === 5, 'payment confirmation raced the webhook').toBe(false);
  });
  it('rejects an expired coupon', () => {
    expect({ valid: true }, 'the coupon check is broken').toEqual({ valid: false });
  });
});
`,
  'test/old.test.ts': `import { expect, it } from 'vitest';

it('stays', () => {
  expect(true).toBe(true);
});
`,
  'test/new-home.test.ts': `import { expect, it } from 'vitest';

it('travels', () => {
  expect([1, 2, 3].includes(2)).toBe(true);
});
`,
  'test/session.test.ts': `import { expect, it } from 'vitest';

let user: string | null = null;
it('logs in', () => {
  user = 'ann';
  expect(user).toBe('ann');
});
it('shows the user', () => {
  expect(user, 'needs the login of the test before').toBe('ann');
});
`,
  'test/slow.test.ts': `import { expect, it } from 'vitest';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
it('exports the report', async () => {
  await sleep(900);
  expect(1).toBe(1);
});
it('imports the catalogue', async () => {
  await sleep(250);
  expect(1).toBe(1);
});
`,
};

/**
 * A test that fails while the gate that runs it has its load workers up and passes without them,
 * the same on any machine: it reads the gate's own processes (ps from PATH) instead of measuring its
 * CPU share, which depended on the core count and on whatever else the machine was running (under
 * 2 busy loops per core the "idle" re-runs failed too). The load workers are flakeguard's children
 * that are not this test's ancestors. GATE_LOAD_RUNNING is the check's source for a fixture file
 * (it needs execFileSync from node:child_process); LOAD_FILES a test file around it.
 */
export const GATE_LOAD_RUNNING = `function gateLoadRunning(): boolean {
  const rows = execFileSync('ps', ['-A', '-o', 'pid=', '-o', 'ppid=', '-o', 'args='], { encoding: 'utf8' })
    .split('\\n')
    .map((l) => /^\\s*(\\d+)\\s+(\\d+)\\s+(.*)$/.exec(l))
    .filter((m) => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] ?? '' }));
  const byPid = new Map(rows.map((r) => [r.pid, r]));
  const ancestors = new Set<number>();
  let gate;
  for (let p = byPid.get(process.pid); p !== undefined; p = byPid.get(p.ppid)) {
    ancestors.add(p.pid);
    if (/cli\\.js gate/.test(p.args)) {
      gate = p;
      break;
    }
  }
  if (gate === undefined) throw new Error('run this file with flakeguard gate');
  return rows.some((r) => r.ppid === gate.pid && !ancestors.has(r.pid));
}`;

export const LOAD_FILES: Record<string, string> = {
  'test/render.test.ts': `import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';

${GATE_LOAD_RUNNING}

it('renders the frame in time', () => {
  expect(gateLoadRunning(), 'the gate is running its load workers').toBe(false);
});
`,
};

/**
 * `flakeguard gate` for a test whose subject is not the slowdown (that is gate-contention.test.ts):
 * no stops (--slowdown 1, so the tests that hold get no tries at higher factors either), `load`
 * busy workers, exactly `tries` tries per test (--max-tries too), then `more`.
 */
export function gateAtNoSlowdown(tries: number, load: number, ...more: string[]): string[] {
  return [
    'gate',
    '--slowdown',
    '1',
    '--load',
    String(load),
    '--tries',
    String(tries),
    '--max-tries',
    String(tries),
    ...more,
  ];
}

/** test/a.test.ts on main in the small fixtures: one test, 'old'. */
export const A_OLD = "import { it } from 'vitest';\nit('old', () => {});\n";
/** test/a.test.ts on the branch: 'old' and a new test, 'adds', that checks a sum. */
export const A_ADDS =
  "import { expect, it } from 'vitest';\nit('old', () => {});\nit('adds', () => { expect(1 + 1).toBe(2); });\n";
/** test/a.test.ts on the branch: 'old' and a new empty test, 'adds'. */
export const A_ADDS_EMPTY = "import { it } from 'vitest';\nit('old', () => {});\nit('adds', () => {});\n";

/** A git fixture: `base` committed on main, then `branch` written and committed on the branch `feature`. */
export async function createGateFixture(
  branch: Record<string, string> = BRANCH_FILES,
  base: Record<string, string> = BASE_FILES,
): Promise<Fixture> {
  const fixture = await createFixture({ git: true, files: base });
  await fixture.git(['checkout', '-q', '-b', 'feature']);
  for (const [rel, content] of Object.entries(branch)) fixture.write(rel, content);
  await fixture.git(['add', '-A']);
  await fixture.git(['commit', '-qm', 'branch: new and changed tests']);
  return fixture;
}

/**
 * A cold-start flake, deterministic: the first request in a process is slow on the second process
 * that runs the test (a counter on disk), as when a cold HTTP stack misses a 10 ms abort. Warm
 * repeats in one process never see it; cold tries (one fresh worker each) do. Next to it, a test
 * that fails only when repeated in one process: CI never does that, so the gate must not either.
 */
/** test/server.test.ts on main: the same three tests, empty. */
export const COLD_BASE = `import { it } from 'vitest';

it('starts the server', () => {});
it('answers the first request in time', () => {});
it('serves once per process', () => {});
`;

export const COLD_FILES: Record<string, string> = {
  'test/server.test.ts': `import { mkdirSync } from 'node:fs';
import { expect, it } from 'vitest';

${COUNTER}

let warm = false;
let served = 0;
it('starts the server', () => {
  expect(warm).toBe(false);
});
it('answers the first request in time', () => {
  const first = !warm;
  warm = true;
  const n = nextTry('first-request');
  expect(first && n === 2, 'the first request in this process was slow').toBe(false);
});
it('serves once per process', () => {
  served += 1;
  expect(served, 'ran twice in one process').toBe(1);
});
`,
};

const CONFIG_HEAD = "import { defineConfig } from 'vitest/config';\n";
const PASS = (name: string): string =>
  `import { expect, it } from 'vitest';\n\nit('${name}', () => {\n  expect(1).toBe(1);\n});\n`;

/** Each: the files at base, the files the branch adds or changes. */
export const SETUP_FIXTURES = {
  include: {
    base: {
      'vitest.config.ts': `${CONFIG_HEAD}export default defineConfig({ test: { include: ['checks/**/*.check.ts'] } });\n`,
      'checks/base.check.ts': PASS('base check'),
    },
    branch: { 'checks/cart.check.ts': PASS('totals the cart'), 'test/outside.test.ts': PASS('is not a test here') },
  },
  projects: {
    base: {
      'vitest.config.ts': `${CONFIG_HEAD}export default defineConfig({ test: { projects: [
  { test: { name: 'unit', include: ['test/**/*.test.ts'] } },
  { test: { name: 'integration', include: ['test/**/*.test.ts'], env: { INTEGRATION: '1' } } },
] } });\n`,
      'test/base.test.ts': PASS('base'),
    },
    branch: {
      'test/shared.test.ts': `import { expect, it } from 'vitest';\n\nit('runs without the database', () => {\n  expect(process.env.INTEGRATION, 'needs no database').toBeUndefined();\n});\n`,
    },
  },
  workspace: {
    base: {
      'package.json': JSON.stringify({ name: 'monorepo', private: true, type: 'module', workspaces: ['packages/*'] }),
      'packages/app/package.json': JSON.stringify({ name: 'app', private: true, type: 'module' }),
      'packages/app/test/base.test.ts': PASS('base'),
    },
    branch: { 'packages/app/test/login.test.ts': PASS('logs in') },
  },
  affected: {
    base: {
      'src/price.ts': 'export const price = (n: number): number => n * 2;\n',
      'test/helpers.ts': "export { price } from '../src/price';\n",
      'test/price.test.ts':
        "import { expect, it } from 'vitest';\nimport { price } from './helpers';\n\nit('doubles', () => {\n  expect(price(2)).toBe(4);\n});\n",
      'test/other.test.ts': PASS('is unrelated'),
    },
    branch: { 'src/price.ts': 'export const price = (n: number): number => n + n;\n' },
  },
} satisfies Record<string, { base: Record<string, string>; branch: Record<string, string> }>;
