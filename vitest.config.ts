import { defineConfig } from 'vitest/config';

/**
 * The two tiers of flakeguard's own suite (README "Developing flakeguard", docs/architecture.md):
 * - `unit`: core logic, fast-check properties and every test that starts no process. Runs from
 *   source, no build step: `npm run test:unit`.
 * - `e2e`: every test that starts a process (real Vitest on fixture projects, the built CLI, git,
 *   PostgreSQL, Chromium, load workers). These run the built package in dist/, so the tier refuses
 *   to start when dist/ is older than src/ (test/helpers/dist-fresh.ts); `npm run test:e2e` builds
 *   first. A new test file that starts a process belongs in this list (test/boundaries.test.ts
 *   checks that no unit file does).
 */
export const E2E_TESTS = [
  'test/e2e/**/*.test.ts',
  'test/reporter/**/*.test.ts',
  'test/io/vitest/**/*.test.ts',
  'test/io/load/**/*.test.ts',
  'test/io/git/**/*.test.ts',
  'test/io/history/postgres-store.test.ts',
  'test/io/files/triage-inputs.test.ts',
  'test/io/files/allowance-lock.test.ts',
  'test/commands/html-flag.test.ts',
  'test/commands/init/**/*.test.ts',
  'test/core/triage/reproduce-command.test.ts',
];

const EXCLUDE = ['**/node_modules/**', 'test/fixtures/**'];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Dogfood: this repo's own runs are guarded by its own reporter, from source, with the budgets
    // in flakeguard.yaml and the allowances in allowances/ (both tiers, one record per run).
    reporters: ['default', './src/reporter/index.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...EXCLUDE, ...E2E_TESTS] } },
      { extends: true, test: { name: 'e2e', include: E2E_TESTS, exclude: EXCLUDE, globalSetup: ['test/helpers/dist-fresh.ts'] } },
    ],
  },
});
