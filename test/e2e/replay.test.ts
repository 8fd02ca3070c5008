/**
 * `flakeguard replay` on fixtures of known truth (issue 46): Math.random flakes at 1 in 5 and 1 in
 * 50 and a crypto.randomUUID one, replayed with a seed that fails, fail every try while plain
 * replays fail at their own rate; an order-dependent test with its polluter three tests earlier
 * fails every try with --after and none alone; a deadline test fails at --slowdown 3; a cold-start
 * race fails every try with --cold and only its first one warm. The failing seeds are found here with the same generator the runner
 * draws from (core/replay/seeded-random.ts), so nothing depends on chance but the plain replays'
 * counts, which are only bounded. Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeededRandom, uuidFromBytes } from '../../src/core/replay/seeded-random.js';
import { createFixture, type Fixture } from '../helpers/fixture.js';

const COIN = `import { expect, it } from 'vitest';
it('flips a coin', () => {
  expect(Math.random() < 0.2, 'the coin came up tails').toBe(false);
});
`;
const UUID = `import { expect, it } from 'vitest';
it('names a session', () => {
  expect(crypto.randomUUID().startsWith('a'), 'an id starting with a').toBe(false);
});
`;
const ORDER = `import { expect, it } from 'vitest';
const state = globalThis as { user?: string };
it('sets the user', () => { state.user = 'ada'; });
it('adds', () => { expect(1 + 1).toBe(2); });
it('subtracts', () => { expect(2 - 1).toBe(1); });
it('shows the user', () => { expect(state.user, 'a user left by an earlier test').toBeUndefined(); });
`;

const PRIZE = `import { expect, it } from 'vitest';
it('draws a rare prize', () => {
  expect(Math.random() < 0.02, 'a rare prize was drawn').toBe(false);
});
`;
// Its deadline is twice its own CPU time: it holds without slowdown, and misses it at x3 every time.
const BATCH = `import { expect, it } from 'vitest';
it('writes a batch within its deadline', () => {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let x = 0;
  for (let i = 0; i < 3e7; i += 1) x = (x + i * 7) % 1000003;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  expect(performance.now() - started, 'the batch missed its deadline (' + x + ')').toBeLessThan(cpuMs * 2);
});
`;
// A cold-start race by construction: the first run in a worker fails, every run after it passes.
const WARMUP = `import { expect, it } from 'vitest';
const state = globalThis as { warmed?: boolean };
it('answers the first request', () => {
  const cold = state.warmed !== true;
  state.warmed = true;
  expect(cold, 'the first request raced the start').toBe(false);
});
`;

/** The first seed from 0 whose first draw meets `fails`. */
function firstSeed(fails: (seed: number) => boolean): number {
  for (let seed = 0; ; seed += 1) if (fails(seed)) return seed;
}
const coinSeed = firstSeed((s) => createSeededRandom(s).next() < 0.2);
const prizeSeed = firstSeed((s) => createSeededRandom(s).next() < 0.02);
const uuidSeed = firstSeed((s) => {
  const bytes = new Uint8Array(16);
  createSeededRandom(s).fillBytes(bytes);
  return uuidFromBytes(bytes).startsWith('a');
});

const failedOf = (stdout: string): number => Number(/failed (\d+)\/10 tries/.exec(stdout)?.[1] ?? 0);
/** One line of the figures the closing notes quote: each replay's failures of 10. */
const printFigures = (kind: string, runs: Record<string, string>): void => {
  const counts = Object.entries(runs).map(([label, stdout]) => `${label} ${failedOf(stdout)}/10`);
  process.stderr.write(`replay figures: ${kind}: ${counts.join(', ')}\n`);
};

describe('flakeguard replay', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await createFixture({
      files: {
        'test/draw.test.ts': COIN,
        'test/session.test.ts': UUID,
        'test/user.test.ts': ORDER,
        'test/prize.test.ts': PRIZE,
        'test/batch.test.ts': BATCH,
        'test/warmup.test.ts': WARMUP,
      },
    });
  });
  afterAll(() => fx.remove());

  it('a Math.random flake with its failing seed fails 10 of 10; plain, at its rate', async () => {
    const seeded = await fx.flakeguard([
      'replay',
      'test/draw.test.ts',
      '-t',
      'flips a coin',
      '--seed',
      String(coinSeed),
    ]);
    expect(seeded.exitCode, seeded.output).toBe(1);
    expect(seeded.stdout).toContain('failed 10/10 tries');
    expect(seeded.stdout).toContain(`seed ${coinSeed}`);
    const plain = await fx.flakeguard(['replay', 'test/draw.test.ts', '-t', 'flips a coin']);
    expect([0, 1], plain.output).toContain(plain.exitCode);
    // 10 of 10 at 1 in 5 is a chance of 1 in 10 million.
    expect(failedOf(plain.stdout)).toBeLessThan(10);
    printFigures('Math.random 1/5', { seeded: seeded.stdout, plain: plain.stdout });
  }, 120_000);

  it('a crypto.randomUUID flake with its failing seed fails 10 of 10, also cold', async () => {
    const args = ['replay', 'test/session.test.ts', '-t', 'names a session', '--seed', String(uuidSeed)];
    const warm = await fx.flakeguard(args);
    expect(warm.exitCode, warm.output).toBe(1);
    expect(warm.stdout).toContain('failed 10/10 tries');
    const cold = await fx.flakeguard([...args, '--cold', '--times', '3']);
    expect(cold.exitCode, cold.output).toBe(1);
    expect(cold.stdout).toMatch(/failed 3\/3 tries/);
    const plain = await fx.flakeguard(['replay', 'test/session.test.ts', '-t', 'names a session']);
    expect(failedOf(plain.stdout)).toBeLessThan(10);
    printFigures('randomUUID 1/16', { seeded: warm.stdout, plain: plain.stdout });
  }, 120_000);

  it('an order-dependent test fails 10 of 10 after its polluter, three tests earlier, and passes alone', async () => {
    const after = await fx.flakeguard([
      'replay',
      'test/user.test.ts',
      '-t',
      'shows the user',
      '--after',
      'sets the user',
    ]);
    expect(after.exitCode, after.output).toBe(1);
    expect(after.stdout).toContain('failed 10/10 tries');
    expect(after.stdout).toContain('a user left by an earlier test');
    const alone = await fx.flakeguard(['replay', 'test/user.test.ts', '-t', 'shows the user']);
    expect(alone.exitCode, alone.output).toBe(0);
    expect(alone.stdout).toContain('passed all 10 tries');
  }, 120_000);

  it('a 1-in-50 Math.random flake with its failing seed fails 10 of 10; plain, at its rate', async () => {
    const args = ['replay', 'test/prize.test.ts', '-t', 'draws a rare prize'];
    const seeded = await fx.flakeguard([...args, '--seed', String(prizeSeed)]);
    expect(seeded.exitCode, seeded.output).toBe(1);
    expect(seeded.stdout).toContain('failed 10/10 tries');
    const plain = await fx.flakeguard(args);
    expect([0, 1], plain.output).toContain(plain.exitCode);
    // 5 or more of 10 at 1 in 50 is a chance of about 1 in 4 million.
    expect(failedOf(plain.stdout)).toBeLessThan(5);
    printFigures('Math.random 1/50', { seeded: seeded.stdout, plain: plain.stdout });
  }, 120_000);

  it('a deadline test fails at least 9 of 10 at --slowdown 3, where the gate saw it fail', async () => {
    const args = ['replay', 'test/batch.test.ts', '-t', 'writes a batch within its deadline'];
    const slowed = await fx.flakeguard([...args, '--slowdown', '3']);
    expect(slowed.exitCode, slowed.output).toBe(1);
    expect(failedOf(slowed.stdout)).toBeGreaterThanOrEqual(9);
    expect(slowed.stdout).toContain('the batch missed its deadline');
    // Without slowdown it fails only when the machine's own load slows it that much.
    const plain = await fx.flakeguard(args);
    expect([0, 1], plain.output).toContain(plain.exitCode);
    printFigures('deadline', { 'at x3': slowed.stdout, plain: plain.stdout });
  }, 120_000);

  it('a cold-start race fails 10 of 10 with --cold; warm, only its first try', async () => {
    const args = ['replay', 'test/warmup.test.ts', '-t', 'answers the first request'];
    const cold = await fx.flakeguard([...args, '--cold']);
    expect(cold.exitCode, cold.output).toBe(1);
    expect(cold.stdout).toContain('failed 10/10 tries');
    const warm = await fx.flakeguard(args);
    expect(warm.exitCode, warm.output).toBe(1);
    expect(warm.stdout).toContain('failed 1/10 tries');
    printFigures('cold start', { '--cold': cold.stdout, warm: warm.stdout });
  }, 120_000);

  it('exits 2 naming the bad value and the fix, before running anything', async () => {
    const times = await fx.flakeguard(['replay', 'test/draw.test.ts', '-t', 'flips a coin', '--times', '0']);
    expect(times.exitCode).toBe(2);
    expect(times.stderr).toContain('--times "0" must be a whole number from 1 to 1000');
    const name = await fx.flakeguard(['replay', 'test/draw.test.ts', '-t', 'flips a cion']);
    expect(name.exitCode).toBe(2);
    expect(name.stderr).toContain('-t "flips a cion" is not a test of test/draw.test.ts (its tests: "flips a coin")');
    const after = await fx.flakeguard(['replay', 'test/user.test.ts', '-t', 'adds', '--after', 'shows the user']);
    expect(after.exitCode).toBe(2);
    expect(after.stderr).toContain('--after "shows the user" is not a test of test/user.test.ts before "adds"');
  }, 60_000);
});
