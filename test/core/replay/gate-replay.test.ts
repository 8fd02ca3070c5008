import { describe, expect, it } from 'vitest';
import { computeGateReplay, describeReplayOutcome } from '../../../src/core/replay/gate-replay.js';

const place = { file: 'test/draw.test.ts', fullName: 'flips a coin', project: '' };
const seeded = { ...place, seed: 42, factor: 1, cold: false, alone: false, uncontrolled: 'the failure needs more' };
const tries = (...states: string[]) => states.map((state) => ({ state }));

describe('computeGateReplay', () => {
  it('a replay the row ran says k/n of its tries', () => {
    const r = computeGateReplay(seeded, tries('failed', 'failed', 'hung', 'failed', 'failed'));
    expect(r).toEqual({
      command: 'npx flakeguard replay "test/draw.test.ts" -t "flips a coin" --seed 42',
      conditions: 'seed 42',
      reproduced: '5/5',
      uncontrolled: null,
    });
    expect(describeReplayOutcome(r)).toBe('reproduced 5/5');
  });

  it('an unchecked replay is never shown as a checked one: reproduced null, "not yet run"', () => {
    for (const t of [null, []]) {
      const r = computeGateReplay(seeded, t);
      expect(r.reproduced).toBeNull();
      expect(describeReplayOutcome(r)).toBe('not yet run');
    }
  });

  it('a replay that did not fail again says so and what it could not make', () => {
    const r = computeGateReplay(seeded, tries('passed', 'passed'));
    expect(r).toMatchObject({ reproduced: '0/2', uncontrolled: 'the failure needs more' });
    expect(describeReplayOutcome(r)).toBe('did not fail again, 0/2');
  });

  it('a replay that failed some tries but not all says which condition it could not make, and still reproduced k/n', () => {
    const r = computeGateReplay(seeded, tries('failed', 'passed', 'failed', 'passed', 'passed'));
    expect(r).toMatchObject({
      reproduced: '2/5',
      uncontrolled: 'not every replay failed (2/5): the failure needs more',
    });
    expect(describeReplayOutcome(r)).toBe('reproduced 2/5');
  });

  it('a timing replay has its factor, a cold start --cold, an order one runs alone', () => {
    expect(computeGateReplay({ ...seeded, seed: null, factor: 3 }, null).command).toBe(
      'npx flakeguard replay "test/draw.test.ts" -t "flips a coin" --slowdown 3',
    );
    expect(computeGateReplay({ ...seeded, seed: null, cold: true }, null)).toMatchObject({
      command: 'npx flakeguard replay "test/draw.test.ts" -t "flips a coin" --cold',
      conditions: 'a fresh worker per try',
    });
    expect(computeGateReplay({ ...seeded, seed: null, alone: true }, null)).toMatchObject({
      command: 'npx flakeguard replay "test/draw.test.ts" -t "flips a coin"',
      conditions: 'alone, without the earlier tests of its file',
    });
  });
});
