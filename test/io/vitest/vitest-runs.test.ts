import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTestsAlone, runTestsRepeatedly } from '../../../src/io/vitest/vitest-runs.js';
import { createFixture, type Fixture } from '../../helpers/fixture.js';

// Needs `npm run build` (the runner and the Vitest driver run from dist/).
const SUITE = `import { appendFileSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const log = (what: string) => appendFileSync('hooks.log', what + '\\n');
let ready = false;
function nextTry(): number {
  const n = existsSync('counter') ? Number(readFileSync('counter', 'utf8')) : 0;
  writeFileSync('counter', String(n + 1));
  return n + 1;
}

describe('shop', () => {
  beforeEach(() => log('before'));
  afterEach(() => log('after'));
  it('sets up', () => { ready = true; });
  it('needs setup', () => { expect(ready).toBe(true); });
  it('fails on tries 2 and 5', () => {
    const n = nextTry();
    log('body ' + n);
    if (n === 2 || n === 5) throw new Error('raced the webhook on try ' + n);
  });
});
`;

describe('runTestsRepeatedly / runTestsAlone', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await createFixture({ files: { 'shop.test.ts': SUITE } });
  });
  afterAll(() => fixture.remove());

  it('runs each chosen test N times with its hooks, one record per try', async () => {
    const progress: string[] = [];
    const outcome = await runTestsRepeatedly({
      root: fixture.root,
      runs: 5,
      tests: [
        { file: 'shop.test.ts', fullName: 'shop > fails on tries 2 and 5', line: 17 },
        { file: 'shop.test.ts', fullName: 'shop > needs setup', line: 16 },
        { file: 'shop.test.ts', fullName: 'shop > not there', line: null },
      ],
      onProgress: (p) => progress.push(`${p.file} ${p.fullName} ${p.attempt}/${p.runs} ${p.state}`),
    });
    const [flaky, setup, missing] = outcome.tests;
    expect(flaky?.tries.map((t) => t.state)).toEqual(['passed', 'failed', 'passed', 'passed', 'failed']);
    expect(flaky?.tries[1]?.error).toBe('raced the webhook on try 2');
    expect(flaky?.tries.every((t) => t.durationMs > 0 && t.cpuMs >= 0)).toBe(true);
    expect(setup?.tries.map((t) => t.state)).toEqual(Array(5).fill('passed'));
    expect(missing).toMatchObject({ found: false, tries: [] });
    const { readFileSync } = await import('node:fs');
    const hooks = readFileSync(`${fixture.root}/hooks.log`, 'utf8').trim().split('\n');
    // 1 (sets up) + 5 (needs setup) + 5 (flaky) tries, each with beforeEach and afterEach.
    expect(hooks.filter((h) => h === 'before')).toHaveLength(11);
    expect(hooks.filter((h) => h === 'after')).toHaveLength(11);
    expect(hooks.filter((h) => h.startsWith('body'))).toHaveLength(5);
    expect(progress).toContain('shop.test.ts shop > fails on tries 2 and 5 5/5 failed');
  });

  it('runs a test alone by its line: order dependence shows', async () => {
    const outcome = await runTestsAlone({
      root: fixture.root,
      runs: 1,
      tests: [{ file: 'shop.test.ts', fullName: 'shop > needs setup', line: 16 }],
    });
    expect(outcome.tests[0]?.tries.map((t) => t.state)).toEqual(['failed']);
  });

  it('stops the Vitest process when aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await expect(
      runTestsRepeatedly({ root: fixture.root, runs: 2, tests: [{ file: 'shop.test.ts', fullName: 'shop > sets up', line: 15 }], signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'INTERRUPTED', exitCode: 130 });
  });
});
