import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runTestsAlone, runTestsRepeatedly } from '../../../src/io/vitest/vitest-tries.js';
import { createFixture, DIST_AS_MODULES, type Fixture } from '../../helpers/fixture.js';

// Needs `npm run build` (the runner and the Vitest driver run from dist/; the tries' Vitest loads
// them as a fixture run does, env DIST_AS_MODULES).
// Deterministic: counter files on disk decide which try fails, never timing or chance.
const SUITE = `import { appendFileSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const log = (what: string) => appendFileSync('hooks.log', what + '\\n');
let ready = false;
let ranHere = 0;
function nextTry(name: string): number {
  const file = 'counter-' + name;
  const n = existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0;
  writeFileSync(file, String(n + 1));
  return n + 1;
}

describe('shop', () => {
  beforeEach(() => log('before'));
  afterEach(() => log('after'));
  it('sets up', () => { ready = true; });
  it('needs setup', () => { expect(ready).toBe(true); log('pid ' + process.pid); });
  it('fails on its second try', () => {
    if (nextTry('second') === 2) throw new Error('raced the webhook on try 2');
  });
  it('fails when repeated in one process', () => {
    ranHere += 1;
    expect(ranHere, 'a warm repeat').toBe(1);
  });
  it('comes last', () => { log('last'); });
});
`;

describe('runTestsRepeatedly / runTestsAlone: cold tries', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await createFixture({ files: { 'shop.test.ts': SUITE } });
  });
  afterAll(() => fixture.remove());
  beforeEach(() => {
    for (const f of ['hooks.log', 'counter-second']) fixture.write(f, '');
  });
  const hooks = (): string[] => readFileSync(`${fixture.root}/hooks.log`, 'utf8').trim().split('\n').filter(Boolean);

  it('gives each try a fresh worker running the file up to the test, with its hooks', async () => {
    const progress: string[] = [];
    const outcome = await runTestsRepeatedly({
      env: DIST_AS_MODULES,
      root: fixture.root,
      tries: 4,
      tests: [
        { file: 'shop.test.ts', fullName: 'shop > needs setup', line: 18 },
        { file: 'shop.test.ts', fullName: 'shop > fails when repeated in one process', line: 22 },
        { file: 'shop.test.ts', fullName: 'shop > not there', line: null },
      ],
      onProgress: (p) => progress.push(`${p.file} ${p.fullName} ${p.attempt}/${p.maxTries} ${p.try.state}`),
    });
    const [setup, warm, missing] = outcome.tests;
    // Earlier tests ran before each try (state is there), each try in its own process, all cold.
    expect(setup?.tries.map((t) => [t.state, t.cold])).toEqual(Array(4).fill(['passed', true]));
    expect(new Set(hooks().filter((h) => h.startsWith('pid '))).size).toBe(4);
    // A test that fails only when run twice in one process never fails: no warm repeats.
    expect(warm?.tries.map((t) => t.state)).toEqual(Array(4).fill('passed'));
    expect(missing).toMatchObject({ found: false, tries: [] });
    // Tests after the last chosen one are skipped: they cannot change its outcome.
    expect(hooks()).not.toContain('last');
    expect(hooks().filter((h) => h === 'before')).toHaveLength(hooks().filter((h) => h === 'after').length);
    expect(progress).toContain('shop.test.ts shop > needs setup 4/4 passed');
    expect(outcome.waves[0]?.specs).toBe(4);
  });

  it('stops trying a test once it has passed and failed; a test that cannot change gets up to max tries', async () => {
    const outcome = await runTestsRepeatedly({
      env: DIST_AS_MODULES,
      root: fixture.root,
      tries: 2,
      maxTries: 6,
      budgetMs: 600_000,
      tests: [
        { file: 'shop.test.ts', fullName: 'shop > fails on its second try', line: 19 },
        { file: 'shop.test.ts', fullName: 'shop > sets up', line: 17 },
      ],
    });
    const [flaky, stable] = outcome.tests;
    expect(flaky?.tries.map((t) => t.state)).toEqual(['passed', 'failed']);
    expect(flaky?.tries[1]?.error).toBe('raced the webhook on try 2');
    expect(stable?.tries.map((t) => t.state)).toEqual(Array(6).fill('passed'));
  });

  it('spends no extra tries without a time budget', async () => {
    const outcome = await runTestsRepeatedly({
      env: DIST_AS_MODULES,
      root: fixture.root,
      tries: 2,
      maxTries: 6,
      budgetMs: 0,
      tests: [{ file: 'shop.test.ts', fullName: 'shop > sets up', line: 17 }],
    });
    expect(outcome.tests[0]?.tries).toHaveLength(2);
  });

  it('runs a test alone by its line: order dependence shows', async () => {
    const outcome = await runTestsAlone({
      env: DIST_AS_MODULES,
      root: fixture.root,
      tries: 1,
      tests: [{ file: 'shop.test.ts', fullName: 'shop > needs setup', line: 18 }],
    });
    expect(outcome.tests[0]?.tries.map((t) => t.state)).toEqual(['failed']);
  });

  it('runs a file in reverse order: a test that needs an earlier one fails, the tests written below it run first', async () => {
    const outcome = await runTestsRepeatedly({
      env: DIST_AS_MODULES,
      root: fixture.root,
      tries: 1,
      reversed: true,
      tests: [
        { file: 'shop.test.ts', fullName: 'shop > needs setup', line: 18 },
        { file: 'shop.test.ts', fullName: 'shop > comes last', line: 27 },
      ],
    });
    const states = new Map(outcome.tests.map((t) => [t.fullName, t.tries.map((x) => x.state)]));
    expect(states.get('shop > needs setup')).toEqual(['failed']);
    expect(states.get('shop > comes last')).toEqual(['passed']);
    // One worker: "comes last" first, then the tests above it up to "needs setup"; "sets up", above
    // the last planned test in that order, is skipped (it cannot change their outcomes).
    expect(hooks().slice(0, 3)).toEqual(['before', 'last', 'after']);
    expect(hooks().filter((h) => h === 'before')).toHaveLength(4);
  });

  it('replays the seeds it is given in its first tries in a worker (paired seeds), then derives its own', async () => {
    fixture.write(
      'draw.test.ts',
      `import { appendFileSync } from 'node:fs';
import { it } from 'vitest';
it('draws', () => { appendFileSync('draws.log', Math.random() + '\\n'); });
`,
    );
    fixture.write('draws.log', '');
    const outcome = await runTestsRepeatedly({
      env: DIST_AS_MODULES,
      root: fixture.root,
      tries: 1,
      repeats: 3,
      seed: { kind: 'derived', runSeed: 5, nodeCrypto: false },
      tests: [{ file: 'draw.test.ts', fullName: 'draws', line: 3, seeds: [null, 7, 7] }],
    });
    const tries = outcome.tests[0]?.tries ?? [];
    const draws = readFileSync(`${fixture.root}/draws.log`, 'utf8').trim().split('\n');
    expect(tries.map((t) => t.seed === 7)).toEqual([false, true, true, false]);
    expect(draws).toHaveLength(4);
    expect(draws[1]).toBe(draws[2]);
    expect(new Set([draws[0], draws[1], draws[3]]).size).toBe(3);
  });

  it('stops the Vitest process when aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await expect(
      runTestsRepeatedly({
        env: DIST_AS_MODULES,
        root: fixture.root,
        tries: 2,
        tests: [{ file: 'shop.test.ts', fullName: 'shop > sets up', line: 17 }],
        signal: controller.signal,
      }),
    ).rejects.toMatchObject({ code: 'INTERRUPTED', exitCode: 130 });
  });
});
