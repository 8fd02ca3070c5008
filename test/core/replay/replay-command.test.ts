import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  describeConditions,
  plainConditions,
  type ReplayConditions,
  replayCommand,
} from '../../../src/core/replay/replay-command.js';

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

describe('replayCommand', () => {
  it('names only the conditions set', () => {
    expect(replayCommand(base)).toBe('npx flakeguard replay "test/draw.test.ts" -t "draw > flips a coin"');
    expect(
      replayCommand({
        ...base,
        project: 'node',
        seed: 1234,
        slowdown: 3,
        after: 'sets the user',
        cold: true,
        times: 20,
      }),
    ).toBe(
      'npx flakeguard replay "test/draw.test.ts" -t "draw > flips a coin" --project "node" --seed 1234 --slowdown 3 --after "sets the user" --cold --times 20',
    );
    expect(replayCommand({ ...base, slowdown: 1, times: 10 })).toBe(replayCommand(base));
  });

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

  it('says the conditions in words', () => {
    expect(describeConditions(base)).toBe('no condition (a plain rerun)');
    expect(describeConditions({ ...base, seed: 7, slowdown: 3, after: 'x', cold: true })).toBe(
      'seed 7, x3 slowdown, after "x", a fresh worker per try',
    );
  });
});
