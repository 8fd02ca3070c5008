import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/fixtures/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Dogfood: this repo's own runs are guarded by its own reporter, from source, with the budgets
    // in flakeguard.yaml and the allowances in allowances/.
    reporters: ['default', './src/reporter/index.ts'],
  },
});
