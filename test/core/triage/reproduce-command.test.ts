/**
 * The reproduce command selects by file and line and pastes safely: whatever the test's name or
 * file holds (`$(...)`, backticks, quotes, regex characters), bash reads back exactly
 * `vitest run <file>:<line>`, and nothing runs or expands.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reproduceCommand } from '../../../src/core/triage/reproduce-command.js';
import { computeTriage } from '../../../src/core/triage/triage.js';
import { BUILT_IN_SIGNATURES } from '../../../src/core/triage/triage-signatures.js';
import type { TriageInputs } from '../../../src/core/triage/triage-types.js';
import { makeObservedTest, makeTriageInputs } from './triage-factories.js';

/**
 * The words a shell makes of `line` (the command after `npx`), without running them. bash (from
 * PATH), as a user's shell: a name with a tab or a line break is quoted `$'...'`, which bash, zsh and
 * ksh read (issue 48, finding 13), and dash, many systems' sh, does not.
 */
function shellWords(line: string): string[] {
  const out = execFileSync('bash', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

const nasty = fc.stringMatching(/^[a-z $`'"()[\]{}*?+.\\|;&<>!#~^=%@,:\-\n\t]{1,30}$/);
const fileArb = nasty.map((s) => `test/${s.replace(/\n/g, ' ')}.test.ts`);

const inputs = (file: string, name: string, line: number | null): TriageInputs =>
  makeTriageInputs({ tests: [makeObservedTest({ file, fullName: name, line, durationMs: 3 })] });

describe('reproduce command', () => {
  it('names the test by file and line, never by a name pattern', () => {
    expect(reproduceCommand('test/math.test.ts', 4)).toBe('npx vitest run "test/math.test.ts:4"');
    expect(reproduceCommand('test/math.test.ts', null)).toBe('npx vitest run "test/math.test.ts"');
    const r = computeTriage(inputs('test/math.test.ts', 'math > adds [1+1] (edge)', 4), BUILT_IN_SIGNATURES);
    expect(r.findings[0]?.action).toContain('reproduce with npx vitest run "test/math.test.ts:4"');
    expect(r.findings[0]?.action).not.toContain(' -t ');
  });

  it('a shell reads back exactly vitest run <file>:<line>, whatever the file and the test name hold', () => {
    fc.assert(
      fc.property(fileArb, nasty, fc.option(fc.integer({ min: 1, max: 9999 }), { nil: null }), (file, name, line) => {
        const action = computeTriage(inputs(file, name, line), BUILT_IN_SIGNATURES).findings[0]?.action ?? '';
        const at = action.indexOf('reproduce with npx ');
        expect(at).toBeGreaterThan(-1);
        const command = action
          .slice(at + 'reproduce with npx '.length)
          .replace(/ \(its whole file: no line is known for the test\)$/, '');
        expect(shellWords(command)).toEqual(['vitest', 'run', line === null ? file : `${file}:${line}`]);
      }),
      { numRuns: 150 },
    );
  });
});
