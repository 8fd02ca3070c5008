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

  it('a seed with node:crypto seeded too says --seed-node-crypto, in words "(node:crypto too)"', () => {
    const c = { ...base, seed: 7, nodeCrypto: true };
    expect(replayCommand(c)).toBe(
      'npx flakeguard replay "test/draw.test.ts" -t "draw > flips a coin" --seed 7 --seed-node-crypto',
    );
    expect(describeConditions(c)).toBe('seed 7 (node:crypto too)');
  });

  it('says the conditions in words', () => {
    expect(describeConditions(base)).toBe('no condition (a plain rerun)');
    expect(describeConditions({ ...base, seed: 7, slowdown: 3, after: 'x', cold: true })).toBe(
      'seed 7, x3 slowdown, after "x", a fresh worker per try',
    );
  });
});
