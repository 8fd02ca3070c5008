import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openVitestSession } from '../../../src/io/vitest/vitest-session.js';
import { DEFAULT_SETUP } from '../../../src/io/vitest/vitest-setup.js';
import { runTestsAlone, runTestsRepeatedly } from '../../../src/io/vitest/vitest-tries.js';
import { createFixture, DIST_AS_MODULES, type Fixture } from '../../helpers/fixture.js';

// Needs `npm run build` (the session child, the runner and the Vitest driver run from dist/).
// Deterministic: the warm-repeat test fails only on its second run in one process, never by chance.
const SUITE = `import { expect, it } from 'vitest';

let ready = false;
let ranHere = 0;
it('sets up', () => { ready = true; });
it('needs setup', () => { expect(ready).toBe(true); });
it('fails when repeated in one process', () => {
  ranHere += 1;
  expect(ranHere, 'a warm repeat').toBe(1);
});
`;

describe('one Vitest for every check of a gate (vitest-session.ts)', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await createFixture({ files: { 'shop.test.ts': SUITE } });
  });
  afterAll(() => fixture.remove());

  it('runs cold tries, warm repeats and alone tries on one Vitest child; close removes its folder', async () => {
    const session = openVitestSession(fixture.root, DEFAULT_SETUP);
    const common = { env: DIST_AS_MODULES, root: fixture.root, session };
    try {
      const cold = await runTestsRepeatedly({
        ...common,
        tries: 3,
        tests: [{ file: 'shop.test.ts', fullName: 'needs setup', line: 6 }],
      });
      expect(cold.tests[0]?.tries.map((t) => [t.state, t.cold])).toEqual(Array(3).fill(['passed', true]));
      // Warm repeats: one more worker, the test run again in it (Vitest's repeats), each a try.
      const warm = await runTestsRepeatedly({
        ...common,
        tries: 2,
        maxTries: 40,
        budgetMs: 600_000,
        warm: true,
        tests: [
          { file: 'shop.test.ts', fullName: 'sets up', line: 5 },
          { file: 'shop.test.ts', fullName: 'fails when repeated in one process', line: 7 },
        ],
      });
      const [setsUp, repeated] = warm.tests;
      expect(setsUp?.tries.filter((t) => t.cold)).toHaveLength(3);
      expect(setsUp?.tries.filter((t) => !t.cold).length).toBeGreaterThanOrEqual(10);
      expect(setsUp?.tries.every((t) => t.state === 'passed')).toBe(true);
      // It passed its cold tries and failed its first warm one: then it stops (passed and failed).
      expect(repeated?.tries.filter((t) => t.cold).map((t) => t.state)).toEqual(['passed', 'passed', 'passed']);
      expect(repeated?.tries.find((t) => !t.cold)).toMatchObject({
        state: 'failed',
        error: expect.stringContaining('a warm repeat'),
      });
      const alone = await runTestsAlone({
        ...common,
        tries: 1,
        tests: [{ file: 'shop.test.ts', fullName: 'needs setup', line: 6 }],
      });
      expect(alone.tests[0]?.tries.map((t) => t.state)).toEqual(['failed']);
      expect(session.starts()).toBe(1);
    } finally {
      session.close();
    }
    await expect.poll(() => existsSync(session.folder), { timeout: 10_000 }).toBe(false);
  });

  it('a call cut short by the deadline stops the child; the next call starts another', async () => {
    const session = openVitestSession(fixture.root, DEFAULT_SETUP);
    const common = { env: DIST_AS_MODULES, root: fixture.root, session };
    try {
      const cut = await runTestsRepeatedly({
        ...common,
        tries: 50,
        deadline: performance.now() + 1500,
        tests: [{ file: 'shop.test.ts', fullName: 'sets up', line: 5 }],
      });
      expect(cut.cutShort).toBe('deadline');
      const next = await runTestsRepeatedly({
        ...common,
        tries: 1,
        tests: [{ file: 'shop.test.ts', fullName: 'sets up', line: 5 }],
      });
      expect(next.tests[0]?.tries.map((t) => t.state)).toEqual(['passed']);
      expect(session.starts()).toBe(2);
    } finally {
      session.close();
    }
  });
});
