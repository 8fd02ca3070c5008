import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chooseRunSeed,
  missingSetupFileLine,
  readSeedMeta,
  runSeedOf,
  SEED_META_KEY,
  type SeedMeta,
  testSeedsOf,
} from '../../../src/core/replay/ci-seed.js';
import { deriveTrySeed, MAX_SEED } from '../../../src/core/replay/seeded-random.js';
import { testKey } from '../../../src/core/test-id.js';
import { seedKeyOf } from '../../../src/runner/try-seeding.js';

const seed = fc.integer({ min: 0, max: MAX_SEED });
/** Each attempt's outcome (true: it failed) and how many errors a failed one added. */
const outcomes = fc.array(fc.record({ failed: fc.boolean(), errors: fc.integer({ min: 1, max: 3 }) }), {
  minLength: 1,
  maxLength: 6,
});

/** The meta the setup file writes for attempts with these outcomes, and the errors the test ends with. */
function metaOf(runSeed: number, key: string, attempts: readonly { failed: boolean; errors: number }[]) {
  let errors = 0;
  const entries = attempts.map((a, i) => {
    const entry = { seed: deriveTrySeed(runSeed, key, i), errorsBefore: errors };
    if (a.failed) errors += a.errors;
    return entry;
  });
  return { meta: { runSeed, attempts: entries } satisfies SeedMeta, errorsAtEnd: errors };
}

describe('replays from CI: the seeds a test is given', () => {
  it('the same (run seed, test, attempt) gives the same seed, with the key the gate derives from', () => {
    fc.assert(
      fc.property(
        seed,
        fc.string(),
        fc.stringMatching(/^[a-z]{1,8}(\/[a-z]{1,8}){0,2}\.test\.ts$/),
        fc.string(),
        fc.nat({ max: 20 }),
        (runSeed, project, file, fullName, attempt) => {
          const root = '/work/project';
          const key = seedKeyOf(root, { project, file: path.join(root, file), fullName });
          // The gate's runner and the setup file key a test the same way (core/test-id.ts testKey).
          expect(key).toBe(testKey({ project, file, fullName }));
          expect(deriveTrySeed(runSeed, key, attempt)).toBe(deriveTrySeed(runSeed, key, attempt));
        },
      ),
    );
  });

  it('failedSeed is the seed of the first attempt that failed, from the errors or from the states', () => {
    fc.assert(
      fc.property(seed, fc.string(), outcomes, (runSeed, key, attempts) => {
        const { meta, errorsAtEnd } = metaOf(runSeed, key, attempts);
        const first = attempts.findIndex((a) => a.failed);
        const expected = first === -1 ? null : (meta.attempts[first]?.seed ?? null);
        const fromErrors = testSeedsOf(meta, errorsAtEnd);
        expect(fromErrors).toEqual({ runSeed, seeds: meta.attempts.map((a) => a.seed), failedSeed: expected });
        const states = attempts.map((a) => (a.failed ? ('failed' as const) : ('passed' as const)));
        expect(testSeedsOf(meta, errorsAtEnd, states)).toEqual(fromErrors);
      }),
    );
  });

  it('a retried flake: its first attempt failed, the retry passed', () => {
    const meta: SeedMeta = {
      runSeed: 7,
      attempts: [
        { seed: 11, errorsBefore: 0 },
        { seed: 12, errorsBefore: 1 },
      ],
    };
    expect(testSeedsOf(meta, 1)).toEqual({ runSeed: 7, seeds: [11, 12], failedSeed: 11 });
    // States that do not match the attempts one for one (a skipped attempt) are not used.
    expect(testSeedsOf(meta, 1, ['passed'])).toEqual({ runSeed: 7, seeds: [11, 12], failedSeed: 11 });
  });

  it('reads the meta the setup file wrote, and nothing else', () => {
    const meta = { runSeed: 3, attempts: [{ seed: 4, errorsBefore: 0 }] };
    expect(readSeedMeta({ [SEED_META_KEY]: meta, other: 1 })).toEqual(meta);
    for (const bad of [
      undefined,
      null,
      {},
      { [SEED_META_KEY]: null },
      { [SEED_META_KEY]: { runSeed: -1, attempts: [{ seed: 4, errorsBefore: 0 }] } },
      { [SEED_META_KEY]: { runSeed: 3, attempts: [] } },
      { [SEED_META_KEY]: { runSeed: 3, attempts: [{ seed: 2 ** 32, errorsBefore: 0 }] } },
      { [SEED_META_KEY]: { runSeed: 3, attempts: [{ seed: 4, errorsBefore: 0.5 }] } },
      { [SEED_META_KEY]: { runSeed: 3, attempts: 'x' } },
    ])
      expect(readSeedMeta(bad), JSON.stringify(bad)).toBeNull();
  });

  it("the record's runSeed: the one its tests share, null for several, the reporter's own for none", () => {
    const t = (runSeed: number) => ({ runSeed, seeds: [1], failedSeed: null });
    expect(runSeedOf([t(5), null, t(5)], 9)).toBe(5);
    expect(runSeedOf([t(5), t(6)], 9)).toBeNull();
    expect(runSeedOf([null], 9)).toBe(9);
    expect(runSeedOf([], null)).toBeNull();
  });

  it('the run seed is FLAKEGUARD_SEED when set, else the fresh one; a bad value says what to write', () => {
    expect(chooseRunSeed(undefined, 42)).toEqual({ seed: 42 });
    expect(chooseRunSeed('  ', 42)).toEqual({ seed: 42 });
    expect(chooseRunSeed('1234', 42)).toEqual({ seed: 1234 });
    expect(chooseRunSeed('4294967296', 42)).toEqual({
      error:
        'FLAKEGUARD_SEED="4294967296" is not a seed; set a whole number from 0 to 4294967295 (a run record\'s runSeed), or unset it for a fresh seed per run',
    });
    expect(chooseRunSeed('abc', 42)).toHaveProperty('error');
  });

  it('the missing setup file line names the fix and, in a projects config, the projects', () => {
    expect(missingSetupFileLine([''])).toBe(
      `flakeguard: seed: true in flakeguard.yaml, but no test of the Vitest config was seeded, so the run record keeps no seeds; add the setup file: test: { setupFiles: ['flakeguard/seed'] } (docs/replay.md "Replays from CI")`,
    );
    expect(missingSetupFileLine(['', 'jsdom'])).toContain('no test of the Vitest config of project (unnamed), "jsdom"');
  });
});
