import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { START_ERROR_MAX, startErrorLine, vitestStartupCause } from '../../src/core/vitest-startup-cause.js';

const ESC = '\u001b';
// What Vitest 4.1 printed for a vitest.config.ts importing a missing package (shortened).
const MISSING_PACKAGE = [
  `${ESC}[38;5;246m───╯${ESC}[0m`,
  `vitest.config.ts (1:247) [UNRESOLVED_IMPORT] Could not resolve 'nope-missing-pkg' in vitest.config.ts`,
  '   ╭─[ vitest.config.ts:1:248 ]',
  '   │',
  " 1 │ import x from 'nope-missing-pkg';",
  '───╯',
  '',
  `${ESC}[31mfailed to load config from /p/vitest.config.ts${ESC}[39m`,
  "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'nope-missing-pkg' imported from /p/node_modules/.vite-temp/vitest.config.ts.mjs",
  '    at packageResolve (node:internal/modules/esm/resolve:873:9)',
  '    at moduleResolve (node:internal/modules/esm/resolve:946:18)',
].join('\n');

describe('vitestStartupCause', () => {
  it('keeps the cause lines, drops colour codes, rules, code frames and stack frames', () => {
    expect(vitestStartupCause(MISSING_PACKAGE)).toBe(
      [
        "vitest.config.ts (1:247) [UNRESOLVED_IMPORT] Could not resolve 'nope-missing-pkg' in vitest.config.ts",
        'failed to load config from /p/vitest.config.ts',
        "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'nope-missing-pkg' imported from /p/node_modules/.vite-temp/vitest.config.ts.mjs",
      ].join('\n'),
    );
  });

  it('without a recognisable error line, the last lines (no frames), at most the limit', () => {
    const text = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    expect(vitestStartupCause(text, 3)).toBe('line 17\nline 18\nline 19');
  });
});

// What Vitest 4.1.12's createVitest threw for a vitest.config.ts with a missing `]` (colours kept).
const PARSE_ERROR = [
  'Build failed with 1 error:',
  '',
  `${ESC}[31m[PARSE_ERROR] ${ESC}[0mExpected \`,\` or \`]\` but found \`}\``,
  `   ${ESC}[38;5;246m╭${ESC}[0m${ESC}[38;5;246m─${ESC}[0m${ESC}[38;5;246m[${ESC}[0m vitest.config.ts:2:69 ${ESC}[38;5;246m]${ESC}[0m`,
  `   ${ESC}[38;5;246m│${ESC}[0m`,
  ` ${ESC}[38;5;246m2 │${ESC}[0m export default defineConfig({ test: { include: ['test/**/*.test.ts' }`,
  ` ${ESC}[38;5;240m  │${ESC}[0m                                                ┬                    ┬  `,
  ` ${ESC}[38;5;240m  │${ESC}[0m                                                ╰─────────────────────── Opened here`,
  `${ESC}[38;5;246m───╯${ESC}[0m`,
  '',
].join('\n');

describe('startErrorLine (issue 48, finding 9)', () => {
  it('keeps the error and its place on one line', () => {
    expect(startErrorLine(PARSE_ERROR)).toBe(
      'vitest.config.ts:2:69: Build failed with 1 error: [PARSE_ERROR] Expected `,` or `]` but found `}`',
    );
  });

  it('a plain message stays as it is, without its full stop', () => {
    expect(startErrorLine('config boom.')).toBe('config boom');
  });

  it('is one escaped line of at most the limit, with the length when cut', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), (message) => {
        const line = startErrorLine(message, 50);
        expect(line).not.toMatch(/[\n\r\u001b]/);
        const shown = line.replace(/… \(\d+ characters\)$/, '');
        expect(shown.length).toBeLessThanOrEqual(50 * 6);
      }),
    );
    const long = startErrorLine(`Error: ${'x'.repeat(5000)}`);
    expect(long).toMatch(/^Error: x+… \(5007 characters\)$/);
    expect(long.length).toBeLessThan(START_ERROR_MAX + 30);
  });
});
