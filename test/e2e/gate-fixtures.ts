/** Fixture sources for the gate's end-to-end tests: a base commit on main, then a branch. */
import { createFixture, type Fixture } from '../helpers/fixture.js';

// A wide near-budget window (500ms..1s) so timer latency under load cannot push the near test over.
export const CONFIG = `budget:
  test: 1s
  warnAt: 50%
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

/** A counter on disk (ignored by git), so a test fails on a fixed set of tries: 2 and 5. */
const COUNTER = `function nextTry(name: string): number {
  mkdirSync('.flakeguard', { recursive: true });
  const file = '.flakeguard/counter-' + name;
  const n = existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0;
  writeFileSync(file, String(n + 1));
  return n + 1;
}`;

export const BRANCH_FILES: Record<string, string> = {
  'test/cart.test.ts': `import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  await sleep(1100);
  expect(1).toBe(1);
});
it('imports the catalogue', async () => {
  await sleep(550);
  expect(1).toBe(1);
});
`,
};

/**
 * A test that fails while the gate that runs it has its load workers up and passes without them,
 * the same on any machine: it reads the gate's own processes (ps from PATH) instead of measuring its
 * CPU share, which depended on the core count and on whatever else the machine was running (under
 * 2 busy loops per core the "idle" re-runs failed too). The load workers are flakeguard's children
 * that are not this test's ancestors.
 */
export const LOAD_FILES: Record<string, string> = {
  'test/render.test.ts': `import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';

function gateLoadRunning(): boolean {
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
}

it('renders the frame in time', () => {
  expect(gateLoadRunning(), 'the gate is running its load workers').toBe(false);
});
`,
};

export async function createGateFixture(branch: Record<string, string> = BRANCH_FILES, base: Record<string, string> = BASE_FILES): Promise<Fixture> {
  const fixture = await createFixture({ git: true, files: base });
  await fixture.git(['checkout', '-q', '-b', 'feature']);
  for (const [rel, content] of Object.entries(branch)) fixture.write(rel, content);
  await fixture.git(['add', '-A']);
  await fixture.git(['commit', '-qm', 'branch: new and changed tests']);
  return fixture;
}
