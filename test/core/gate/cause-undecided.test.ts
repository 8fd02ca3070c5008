import { describe, expect, it } from 'vitest';
import { causeUndecided } from '../../../src/core/gate/check-rules.js';
import type { GateTry } from '../../../src/core/gate/runner-protocol.js';

const tries = (passed: number, failed: number): GateTry[] => [
  ...Array.from({ length: passed }, () => ({ state: 'passed', durationMs: 5 }) as GateTry),
  ...Array.from({ length: failed }, () => ({ state: 'failed', durationMs: 5 }) as GateTry),
];

describe('causeUndecided: more tries without slowdown only where they can decide', () => {
  it('wants them for 2 failures in 10 reference tries against 5 passes without slowdown', () => {
    expect(causeUndecided(tries(8, 2), tries(5, 0), 30)).toBe(true);
  });
  it('not for 1 failure in 60 reference tries: 30 more passes cannot make the gap significant', () => {
    expect(causeUndecided(tries(59, 1), tries(30, 0), 30)).toBe(false);
  });
  it('not once decided: a failure without slowdown, or a gap already significant', () => {
    expect(causeUndecided(tries(3, 2), tries(29, 1), 30)).toBe(false);
    expect(causeUndecided(tries(3, 2), tries(30, 0), 30)).toBe(false);
  });
});
