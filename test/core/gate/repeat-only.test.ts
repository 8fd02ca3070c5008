import { describe, expect, it } from 'vitest';
import { leaveOutRepeatFailures, repeatOnlyFailures } from '../../../src/core/gate/repeat-only.js';
import type { GateTry } from '../../../src/core/gate/runner-protocol.js';

const at = (pid: number, n: number, state: 'passed' | 'failed'): GateTry => ({
  state,
  durationMs: 5,
  cold: n === 0,
  pid,
  startedAt: 1000 + n,
});

describe('repeatOnlyFailures', () => {
  it('counts the failures of a worker whose cold run passed and every repeat failed', () => {
    expect(repeatOnlyFailures([at(1, 0, 'passed'), at(1, 1, 'failed'), at(1, 2, 'failed')])).toBe(2);
  });
  it('is null for a failure between passing repeats (a random flake) or a cold failure', () => {
    expect(repeatOnlyFailures([at(1, 0, 'passed'), at(1, 1, 'passed'), at(1, 2, 'failed')])).toBeNull();
    expect(repeatOnlyFailures([at(1, 0, 'failed'), at(2, 0, 'passed')])).toBeNull();
  });
});

describe('leaveOutRepeatFailures', () => {
  it('keeps the cold tries once seen twice over the reference and the tries without slowdown', () => {
    const ref = [at(1, 0, 'passed'), at(2, 0, 'passed'), at(2, 1, 'failed')];
    const idle = [at(3, 0, 'passed'), at(3, 1, 'failed')];
    expect(leaveOutRepeatFailures(ref, idle)).toMatchObject({ seen: 2, reference: [ref[0], ref[1]] });
    expect(leaveOutRepeatFailures(ref, null)).toBeNull();
  });
});
