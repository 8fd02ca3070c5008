/**
 * A branch of three flaky tests of known truth and what replays each (issue 46 item 2): a
 * Math.random flake at 1 in 5 (its seed), an order-dependent test whose state is left three tests
 * earlier (alone), a deadline test that fails at x3 and passes at x1 (--slowdown 3). Read by
 * test/e2e/gate-replay.test.ts and bench/replay.mjs. Plain JavaScript (types in
 * gate-replay-fixtures.d.mts) so the bench reads the same fixture.
 */

import { SPIN } from './gate-evidence-fixtures.mjs';

/** @type {Record<string, string>} */
export const REPLAY_BASE = {
  'test/keep.test.ts': "import { expect, it } from 'vitest';\nit('keeps', () => {\n  expect(1).toBe(1);\n});\n",
};

/** @type {Record<string, string>} */
export const REPLAY_BRANCH = {
  'test/coin.test.ts': `import { expect, it } from 'vitest';

it('flips a coin', () => {
  expect(Math.random() < 0.2, 'the coin came up tails').toBe(false);
});
`,
  'test/user.test.ts': `import { expect, it } from 'vitest';

const state = globalThis as { user?: string };
it('sets the user', () => {
  state.user = 'ada';
});
it('adds', () => {
  expect(1 + 1).toBe(2);
});
it('subtracts', () => {
  expect(2 - 1).toBe(1);
});
it('shows the user', () => {
  expect(state.user, 'needs the user an earlier test sets').toBe('ada');
});
`,
  'test/batch.test.ts': `import { expect, it } from 'vitest';

${SPIN}

it('writes a batch within its deadline', () => {
  const started = performance.now();
  const cpu = process.cpuUsage();
  spin(60);
  const used = process.cpuUsage(cpu);
  expect(performance.now() - started, 'the batch missed its deadline').toBeLessThan(((used.user + used.system) / 1000) * 2);
});
`,
};

/** Each flaky test: its file, name, verdict, cause and the replay the gate should run. */
export const REPLAY_TRUTH = [
  { kind: 'random', file: 'test/coin.test.ts', name: 'flips a coin', verdict: 'flaky', cause: 'random-or-concurrency' },
  { kind: 'order', file: 'test/user.test.ts', name: 'shows the user', verdict: 'order-dependent', cause: 'order' },
  {
    kind: 'timing',
    file: 'test/batch.test.ts',
    name: 'writes a batch within its deadline',
    verdict: 'flaky',
    cause: 'timing',
  },
];
