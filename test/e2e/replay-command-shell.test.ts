/**
 * The replay command pastes into a shell (issue 46): every name comes back as one word, whatever
 * quotes, `$`, backticks, regex characters or line breaks it holds. Starts `sh` and `bash` from PATH.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainConditions, type ReplayConditions, replayCommand } from '../../src/core/replay/replay-command.js';

const base: ReplayConditions = plainConditions({
  file: 'test/draw.test.ts',
  fullName: 'draw > flips a coin',
  project: null,
});

/**
 * The words a shell makes of `command`'s arguments (each printed by printf, NUL-ended): POSIX sh,
 * or bash for a name with a control character (written `$'...'`, POSIX.1-2024, which dash lacks).
 */
function shellWords(command: string): string[] {
  const script = `set -- ${command.replace(/^npx flakeguard replay/, '')}; for a in "$@"; do printf '%s\\0' "$a"; done`;
  const shell = command.includes("$'") ? 'bash' : 'sh';
  return execFileSync(shell, ['-c', script], { encoding: 'utf8' }).split('\0').slice(0, -1);
}

describe('replayCommand in a shell', () => {
  it('quotes names with quotes, $, backticks and regex characters so a POSIX shell gives them back whole', () => {
    const names = ["it's (a|b)* $HOME `x`", 'a "quoted" [name]\\', 'tab\there', 'line\nbreak'];
    for (const fullName of names) {
      const words = shellWords(replayCommand({ ...base, fullName, after: fullName }));
      expect(words.slice(0, 3)).toEqual(['test/draw.test.ts', '-t', fullName]);
      expect(words.at(-1)).toBe(fullName);
    }
  });

  it('any name survives the shell (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !s.includes('\0')),
        (fullName) => {
          expect(shellWords(replayCommand({ ...base, fullName }))[2]).toBe(fullName);
        },
      ),
      { numRuns: 40 },
    );
  });
});
