import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PLATFORMS,
  type PlatformKey,
  type PlatformValue,
  resolvePlatformValue,
  withPlatformValue,
} from '../../src/core/platform-value.js';

const single = (value: number): PlatformValue<number> => ({ kind: 'single', value });
const map = (values: Partial<Record<PlatformKey, number>>): PlatformValue<number> => ({ kind: 'map', values });

describe('withPlatformValue (allowances add --replace)', () => {
  it('a single value replaces everything; a map sets only its keys; a single old value stays as default', () => {
    expect(withPlatformValue(map({ linux: 5, darwin: 9 }), single(7))).toEqual(single(7));
    expect(withPlatformValue(map({ linux: 5, darwin: 9 }), map({ linux: 7 }))).toEqual(map({ linux: 7, darwin: 9 }));
    expect(withPlatformValue(single(5), map({ linux: 7 }))).toEqual(map({ default: 5, linux: 7 }));
    expect(withPlatformValue(single(5), map({ default: 7 }))).toEqual(map({ default: 7 }));
  });

  const key = fc.constantFrom<PlatformKey>('default', ...PLATFORMS);
  const value = fc.oneof(
    fc.nat().map(single),
    fc.dictionary(key, fc.nat(), { minKeys: 1 }).map((values) => map(values as Partial<Record<PlatformKey, number>>)),
  );

  it('the platform set gets the new limit; every other platform keeps the limit it had', () => {
    fc.assert(
      fc.property(value, fc.constantFrom(...PLATFORMS), fc.nat(), (prev, platform, ms) => {
        const next = withPlatformValue(prev, map({ [platform]: ms }));
        expect(resolvePlatformValue(next, platform)?.value).toBe(ms);
        for (const other of PLATFORMS.filter((p) => p !== platform))
          expect(resolvePlatformValue(next, other)?.value).toBe(resolvePlatformValue(prev, other)?.value);
      }),
    );
  });
});
