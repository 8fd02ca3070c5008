import { describe, expect, it } from 'vitest';
import { vitestStartupCause } from '../../src/core/vitest-startup-cause.js';

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
