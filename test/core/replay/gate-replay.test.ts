import { describe, expect, it } from 'vitest';
import type { CauseFinding } from '../../../src/core/cause/cause.js';
import type { GateTry } from '../../../src/core/gate/runner-protocol.js';
import { replayOfVerdict } from '../../../src/core/replay/gate-replay.js';

const cause = (c: CauseFinding['class']): CauseFinding => ({
  class: c,
  confidence: 'measured',
  evidence: [],
  fix: 'seed it',
});
const tries: GateTry[] = [
  { state: 'passed', durationMs: 3, seed: 11 },
  { state: 'failed', durationMs: 3, seed: 42 },
  { state: 'failed', durationMs: 3, seed: 43 },
] as GateTry[];
const test = { file: 'test/draw.test.ts', fullName: 'flips a coin', project: '', verdict: 'flaky', tries };

describe('replayOfVerdict', () => {
  it("a random-or-concurrency verdict gets the replay of its first failed try's seed, not yet run", () => {
    expect(replayOfVerdict({ ...test, cause: cause('random-or-concurrency') })).toEqual({
      command: 'npx flakeguard replay "test/draw.test.ts" -t "flips a coin" --seed 42',
      conditions: 'seed 42',
      reproduced: null,
    });
  });

  it('none for a stable test, another cause, or tries without a seed', () => {
    expect(replayOfVerdict({ ...test, verdict: 'stable', cause: cause('random-or-concurrency') })).toBeNull();
    expect(replayOfVerdict({ ...test, cause: cause('timing') })).toBeNull();
    const unseeded = tries.map(({ seed: _, ...t }) => t) as GateTry[];
    expect(replayOfVerdict({ ...test, tries: unseeded, cause: cause('random-or-concurrency') })).toBeNull();
  });
});
