import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  classifyDuration,
  describeLimit,
  resolveFileLimit,
  resolveTestLimit,
} from '../../../src/core/budget/budget.js';
import { PLATFORMS, type PlatformKey, type PlatformValue } from '../../../src/core/platform-value.js';
import { makeConfig } from './budget-factories.js';

const single = (value: number): PlatformValue<number> => ({ kind: 'single', value });
const map = (values: Partial<Record<PlatformKey, number>>): PlatformValue<number> => ({ kind: 'map', values });

describe('resolveTestLimit', () => {
  it('takes the budget for the current platform from a map', () => {
    const config = makeConfig({ test: map({ linux: 5000, darwin: 4000, default: 6000 }) });
    expect(resolveTestLimit({ config, platform: 'darwin' })).toEqual({
      limitMs: 4000,
      source: 'budget',
      platformKey: 'darwin',
    });
    expect(resolveTestLimit({ config, platform: 'win32' })).toEqual({
      limitMs: 6000,
      source: 'budget',
      platformKey: 'default',
    });
  });

  it('falls back to the built-in 5s when a map names neither the platform nor default', () => {
    const config = makeConfig({ test: map({ darwin: 4000 }) });
    expect(resolveTestLimit({ config, platform: 'linux' })).toEqual({
      limitMs: 5000,
      source: 'budget',
      platformKey: 'built-in',
    });
  });

  it('prefers an allowance for the platform over the budget, and names it', () => {
    const config = makeConfig({ test: single(5000) });
    const allowance = { id: 'tracker-reload', budget: map({ linux: 8000 }) };
    expect(resolveTestLimit({ config, platform: 'linux', allowance })).toEqual({
      limitMs: 8000,
      source: 'allowance',
      platformKey: 'linux',
      allowanceId: 'tracker-reload',
    });
    expect(resolveTestLimit({ config, platform: 'darwin', allowance })).toEqual({
      limitMs: 5000,
      source: 'budget',
      platformKey: 'all',
    });
  });

  const platformArb = fc.constantFrom(...PLATFORMS);
  const msArb = fc.integer({ min: 1, max: 600_000 });
  const mapArb = fc
    .dictionary(fc.constantFrom<PlatformKey>(...PLATFORMS, 'default'), msArb)
    .map((values) => map(values));

  it('property: the limit is the platform value, else default, else the built-in budget', () => {
    fc.assert(
      fc.property(mapArb, platformArb, (test, platform) => {
        const limit = resolveTestLimit({ config: makeConfig({ test }), platform });
        const values = test.kind === 'map' ? test.values : {};
        const expected = values[platform] ?? values.default ?? 5000;
        expect(limit.limitMs).toBe(expected);
        expect(limit.source).toBe('budget');
      }),
    );
  });

  it('property: an allowance that covers the platform always wins; one that does not never does', () => {
    fc.assert(
      fc.property(mapArb, mapArb, platformArb, (test, budget, platform) => {
        const limit = resolveTestLimit({ config: makeConfig({ test }), platform, allowance: { id: 'a', budget } });
        const values = budget.kind === 'map' ? budget.values : {};
        const covered = values[platform] ?? values.default;
        if (covered === undefined) expect(limit.source).toBe('budget');
        else expect(limit).toMatchObject({ limitMs: covered, source: 'allowance', allowanceId: 'a' });
      }),
    );
  });
});

describe('resolveFileLimit', () => {
  it('is null without a file budget or without a value for the platform', () => {
    expect(resolveFileLimit(makeConfig({ file: null }), 'linux')).toBeNull();
    expect(resolveFileLimit(makeConfig({ file: map({ darwin: 1000 }) }), 'linux')).toBeNull();
    expect(resolveFileLimit(makeConfig({ file: single(60_000) }), 'linux')).toEqual({
      limitMs: 60_000,
      platformKey: 'all',
    });
  });
});

describe('classifyDuration', () => {
  it('is over above the limit, within at it, near from warnAt of it', () => {
    expect(classifyDuration(5310, 5000, 0.8)).toBe('over');
    expect(classifyDuration(5000, 5000, 0.8)).toBe('near');
    expect(classifyDuration(4000, 5000, 0.8)).toBe('near');
    expect(classifyDuration(3999, 5000, 0.8)).toBe('within');
    expect(classifyDuration(null, 5000, 0.8)).toBe('unchecked');
    expect(classifyDuration(10, null, 0.8)).toBe('unchecked');
  });

  it('property: a longer duration never gets a milder status', () => {
    const rank = { within: 0, near: 1, over: 2, unchecked: -1 } as const;
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.integer({ min: 1, max: 1e6 }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (a, b, limit, warnAt) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          expect(rank[classifyDuration(lo, limit, warnAt)]).toBeLessThanOrEqual(
            rank[classifyDuration(hi, limit, warnAt)],
          );
        },
      ),
    );
  });
});

describe('describeLimit', () => {
  it('names where the limit came from', () => {
    expect(describeLimit({ source: 'budget', platformKey: 'all' }, 'linux', 'test')).toBe('linux budget');
    expect(describeLimit({ source: 'budget', platformKey: 'default' }, 'linux', 'test')).toBe('default budget');
    expect(describeLimit({ source: 'budget', platformKey: 'linux' }, 'linux', 'file')).toBe('linux file budget');
    expect(describeLimit({ source: 'allowance', platformKey: 'linux', allowanceId: 'x1' }, 'linux', 'test')).toBe(
      'allowance x1, linux',
    );
  });
});
