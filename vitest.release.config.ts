import { defineConfig } from 'vitest/config';
import { EXCLUDE, RELEASE_TESTS } from './vitest.config.js';

/**
 * The release tier (`npm run test:release`; README "Developing flakeguard"): the packed tarball
 * installed from the npm registry as a user installs it (npm with Vitest 4.1.12 and 5 on Node 22,
 * a pnpm workspace). Apart from `npm test` so that `npm test` needs no registry; `.ci/run` runs
 * both. Like the e2e tier it runs the built package, so dist/ must be fresh (the script builds).
 */
export default defineConfig({
  test: {
    name: 'release',
    include: RELEASE_TESTS,
    exclude: EXCLUDE,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default', './src/reporter/index.ts'],
    globalSetup: ['test/helpers/dist-fresh.ts', 'test/helpers/process-budget-setup.ts'],
  },
});
