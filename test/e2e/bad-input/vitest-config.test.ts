/**
 * Bad input catalogue: a vitest.config.ts that Vitest cannot load (issue 48, finding 9). The message
 * keeps Vitest's error and its place (file:line:column), on one line of bounded length, not just
 * "Build failed with 1 error:". Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from '../../helpers/fixture.js';
import { A_ADDS, A_OLD, createGateFixture } from '../gate-fixtures.js';
import { expectBadInputInProcess as expectBadInput } from './catalogue.js';

const BROKEN =
  "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { include: ['test/**/*.test.ts' } });\n";

let fx: Fixture;
beforeAll(async () => {
  fx = await createGateFixture({ 'test/a.test.ts': A_ADDS, 'vitest.config.ts': BROKEN }, { 'test/a.test.ts': A_OLD });
});
afterAll(() => fx.remove());

describe('a vitest.config.ts with a syntax error', () => {
  it.each([[['gate', '--base', 'main']]])('flakeguard %j names the error and its place', async (args) => {
    const run = await expectBadInput(fx, args, {
      exit: 2,
      names: [
        'Vitest could not start in ',
        'vitest.config.ts:2:',
        'Build failed with 1 error: [PARSE_ERROR] Expected `,` or `]` but found `}`',
        'check the Vitest config',
      ],
    });
    expect(run.stderr).not.toContain('error:;');
  });

  it('a thrown error far longer than a line is cut, with its length', async () => {
    const copy = fx.copy();
    try {
      copy.write('vitest.config.ts', `throw new Error('config boom ${'x'.repeat(3000)}');\n`);
      await expectBadInput(copy, ['gate', '--base', 'main'], {
        exit: 2,
        names: ['Vitest could not start in ', 'config boom xxx', '… (', ' characters)', 'check the Vitest config'],
      });
    } finally {
      copy.remove();
    }
  });
});
