/**
 * `flakeguard/seed`: the setup file of replays from CI (docs/replay.md "Replays from CI"). With
 * `seed: true` in flakeguard.yaml, the flakeguard reporter gives the workers the run's seed
 * (Vitest's provide/inject); before each attempt of every test (the first run, each retry and
 * repeat) this file seeds `Math.random`, `crypto.getRandomValues` and `crypto.randomUUID` as the
 * gate seeds a try (try-seeding.ts installSeededRandom, the seed derived from the run's seed, the
 * test's key and the attempt's number), and removes the seeding after the test's afterEach hooks.
 * The seed goes to the reporter in the test's `task.meta` (core/replay/ci-seed.ts SeedMeta).
 *
 * `test: { setupFiles: ['flakeguard/seed'] }`. Its beforeEach runs before the test file's own
 * (setup files register first) and its afterEach after them (Vitest's default `sequence.hooks`,
 * 'stack'). It does nothing when the reporter gave no seed (`seed` off, or no flakeguard reporter),
 * in a gate's or replay's Vitest (flakeguard's runner seeds those tries itself), and for a
 * concurrent test (the random source is one per worker: two tests at once would share it).
 */
import { afterEach, beforeEach, inject } from 'vitest';
import { PLAN_ENV } from '../core/gate/runner-protocol.js';
import { SEED_META_KEY, SEED_PROVIDE_KEY, type SeedMeta, type SeedProvision } from '../core/replay/ci-seed.js';
import { deriveTrySeed } from '../core/replay/seeded-random.js';
import { type InstalledSeed, installSeededRandom, seedKeyOf } from './try-seeding.js';

declare module 'vitest' {
  interface ProvidedContext {
    [SEED_PROVIDE_KEY]: SeedProvision | undefined;
  }
  interface TaskMeta {
    [SEED_META_KEY]?: SeedMeta;
  }
}

const provision: SeedProvision | undefined = process.env[PLAN_ENV] ? undefined : inject(SEED_PROVIDE_KEY);

if (provision !== undefined) {
  const installed = new WeakMap<object, InstalledSeed>();
  beforeEach(({ task }) => {
    if (task.concurrent) return;
    const earlier = task.meta[SEED_META_KEY]?.attempts ?? [];
    const key = seedKeyOf(provision.root, {
      project: task.file.projectName ?? '',
      file: task.file.filepath,
      fullName: task.fullTestName ?? task.name,
    });
    const seed = deriveTrySeed(provision.runSeed, key, earlier.length);
    const errorsBefore = task.result?.errors?.length ?? 0;
    task.meta[SEED_META_KEY] = { runSeed: provision.runSeed, attempts: [...earlier, { seed, errorsBefore }] };
    installed.set(task, installSeededRandom(seed, provision.nodeCrypto === true));
  });
  afterEach(({ task }) => {
    installed.get(task)?.remove();
    installed.delete(task);
  });
}
