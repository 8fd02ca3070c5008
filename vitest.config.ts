import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The two tiers of `npm test` (README "Developing flakeguard", docs/architecture.md):
 * - `unit`: core logic, fast-check properties and every test that starts no process. Runs from
 *   source, no build step: `npm run test:unit`.
 * - `e2e`: every test that starts a process (real Vitest on fixture projects, the built CLI, git,
 *   PostgreSQL, Chromium, load workers) or opens a real database (PGlite). These run the built
 *   package in dist/, so the tier refuses to start when dist/ is older than src/
 *   (test/helpers/dist-fresh.ts); `npm run test:e2e` builds first. A new test file that starts a
 *   process belongs in this list (test/boundaries.test.ts checks that no unit file does).
 * A third tier, `release` (RELEASE_TESTS, its own config vitest.release.config.ts, `npm run
 * test:release`), installs the packed tarball from the npm registry with npm and pnpm. `npm test`
 * never runs it, so `npm test` needs no registry; `.ci/run` runs it after `npm test`.
 */
export const E2E_TESTS = [
  'test/e2e/**/*.test.ts',
  'test/reporter/**/*.test.ts',
  'test/io/vitest/**/*.test.ts',
  'test/io/load/**/*.test.ts',
  'test/io/git/**/*.test.ts',
  'test/io/history/postgres-store.test.ts',
  // No child process, but a real database: PGlite's WASM start-up costs seconds per open, more than
  // the rest of the unit tier together (74 s of its 321 s under load 23).
  'test/io/history/embedded-store.test.ts',
  'test/io/triage/triage-inputs.test.ts',
  'test/io/allowances/allowance-lock.test.ts',
  'test/io/allowances/allowance-lineage.test.ts',
  'test/commands/html-flag.test.ts',
  'test/commands/init/**/*.test.ts',
  'test/core/triage/reproduce-command.test.ts',
];

/** The release tier: tests that install from the npm registry (vitest.release.config.ts). */
export const RELEASE_TESTS = ['test/e2e/packed-install.test.ts', 'test/e2e/pnpm-workspace.test.ts'];

export const EXCLUDE = ['**/node_modules/**', 'test/fixtures/**'];

/**
 * The e2e files that assert a duration, a slowdown factor or a time window (whole gates under a
 * controlled slowdown and their calibration, the pacer, a try's factor against the test's own
 * clock, sleeps against budgets, a near-budget window, a factor as evidence of a cause): the
 * project `e2e-timing`, one file at a time, after the rest. The other gate files (selection, merge,
 * comment, history, cold tries, endings, signals) and allowances-lineage (a 300 ms sleep against a
 * 200 ms budget and a 3 s allowance) assert no time window the machine may miss, so they run in
 * `e2e` beside another file (their stability beside a CPU-bound file: issue 26's closing note).
 * Processes "gone within 3 s" is not such a window: each guard kills its group when its stdin pipe
 * ends (src/io/process/guard-source.ts), at once.
 */
export const E2E_TIMING = [
  'test/e2e/gate.test.ts',
  'test/e2e/gate-calibration.test.ts',
  'test/e2e/gate-contention.test.ts',
  'test/e2e/gate-cause.test.ts',
  'test/e2e/gate-evidence.test.ts',
  'test/io/load/**/*.test.ts',
  'test/io/vitest/try-factor.test.ts',
  'test/reporter/budget.test.ts',
  'test/reporter/github.test.ts',
];

/**
 * How many of the other e2e files run at once (project `e2e`): FLAKEGUARD_E2E_WORKERS, default one
 * per core. Most of them wait on their child processes (a CLI, a fixture Vitest, a store), so a
 * second file uses the core the first leaves idle: the whole `npm test` on 2 cores took 728 s with
 * two at a time at load 4-5, against 1,190-1,322 s with one at a time on a quiet machine the stop
 * before (issue 26's closing note has the same-window figures). FLAKEGUARD_E2E_WORKERS=1 runs them
 * one at a time.
 */
function e2eWorkers(): { maxWorkers?: number } {
  const text = process.env['FLAKEGUARD_E2E_WORKERS'];
  if (text === undefined || text === '') return { maxWorkers: availableParallelism() };
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(
      `FLAKEGUARD_E2E_WORKERS="${text}" must be a whole number of at least 1 (files of the e2e project at once)`,
    );
  return { maxWorkers: n };
}

// dist/ no older than src/; one migrated embedded store that fixtures copy instead of creating their
// own; the process budget (counted per file, checked when the tier ends). Both e2e projects name
// them; each is made once per run (test/helpers/per-run.ts).
const E2E_SETUP = [
  'test/helpers/dist-fresh.ts',
  'test/helpers/history-template-setup.ts',
  'test/helpers/process-budget-setup.ts',
];
// The built package that the in-process CLI imports (test/helpers/in-process-cli.ts) is loaded by
// Node, not transformed again in every test file's worker.
const E2E_SERVER = { deps: { external: [/\/dist\//] } };

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Dogfood: this repo's own runs are guarded by its own reporter, from source, with the budgets
    // in flakeguard.yaml and the allowances in allowances/ (both tiers, one record per run).
    reporters: ['default', './src/reporter/index.ts'],
    projects: [
      // unit and e2e run side by side, one file per core (e2eWorkers; Vitest runs the projects of one
      // sequence.groupOrder as one pool, so they share its worker count): the unit files fill the
      // cores while e2e files wait on their child processes, instead of running alone first with
      // one core idle. e2e-timing runs after them, one file at a time: the timing files (gates, the
      // pacer, budgets) never run beside another file: two CPU-bound fixture processes at once made
      // each 1.1-4x slower and pushed tests over budgets.
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...EXCLUDE, ...E2E_TESTS],
          // Worker processes shared by the unit files instead of a fresh fork per file: the fork
          // start, module graph and transform per file were most of the tier (quiet machine: 45.3 s
          // Vitest duration, 57 CPU s isolated; 17.0 s, 23 CPU s in one shared worker; two shared
          // workers, at load 10: 35.6 CPU s against 37.4 for one). No unit file stubs globals, mocks
          // modules or changes the cwd or environment without putting them back (the in-process CLI
          // harness restores what it changes); the tier passed shuffled (--sequence.shuffle, 2 seeds).
          isolate: false,
          ...e2eWorkers(),
          sequence: { groupOrder: 1 },
        },
      },
      // Projects run one group after another (sequence.groupOrder): unit and e2e, then e2e-timing.
      {
        extends: true,
        test: {
          name: 'e2e',
          include: E2E_TESTS,
          exclude: [...EXCLUDE, ...RELEASE_TESTS, ...E2E_TIMING],
          globalSetup: E2E_SETUP,
          server: E2E_SERVER,
          // Like the unit tier, the e2e files share their worker processes: the worker's start, the
          // test helpers and the built package the in-process CLI imports are loaded once per worker,
          // not once per file. 25 e2e files at load 9: 147.0 CPU-s isolated, 132.6 shared. No e2e
          // file mocks modules, stubs globals or leaves the cwd or the environment changed (the
          // in-process CLI harness restores what it changes). e2e-timing stays isolated.
          isolate: false,
          ...e2eWorkers(),
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e-timing',
          include: E2E_TIMING,
          exclude: [...EXCLUDE, ...RELEASE_TESTS],
          globalSetup: E2E_SETUP,
          server: E2E_SERVER,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
