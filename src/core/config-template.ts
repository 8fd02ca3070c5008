/**
 * The line an editor's YAML language server reads the file's JSON Schema from: the one the installed
 * flakeguard ships, relative to flakeguard.yaml at the project root (docs/formats.md).
 */
export const CONFIG_SCHEMA_LINE =
  '# yaml-language-server: $schema=./node_modules/flakeguard/schemas/config.schema.json';

/** The `flakeguard.yaml` that `flakeguard init` writes: the schema line, then every key present, commented. */
export function renderConfigTemplate(testBudget = '5s'): string {
  return `${CONFIG_SCHEMA_LINE}
# flakeguard configuration. Every key is optional; the values below are the defaults.
# Durations: 250ms, 5s, 1.5s, 2m. Platforms: Node's platform names (linux, darwin, win32, ...) plus default.
budget:
  # Limit for one test (its body plus beforeEach/afterEach, as Vitest measures it).
  # One duration for every platform, or a map: { linux: 5s, darwin: 4s, win32: 10s, default: 5s }
  test: ${testBudget}
  # Limit for one test file (the sum of its tests and hooks); same forms. No file budget when absent.
  # file: 60s
  # A test at or above this share of its limit is reported as near budget (a warning).
  warnAt: 80%
# Folder of allowance files, one per test file, reviewed and shipped with the tests they cover.
allowances: allowances
# Folder the reporter writes one run record (JSON) into per run; gate and triage read them.
records: .flakeguard/runs
# Flake and duration history of every run (off by default): true keeps an embedded store under the
# records folder; { url: postgres://user@host/db } (or FLAKEGUARD_HISTORY_URL) a team's PostgreSQL.
# history: true
# The gate's reference slowdown (1 to 32), or auto: how much slower CI runs the suite than this
# machine, from history (needs history on, in CI and here); the default 2 when history has too little.
# gate:
#   slowdown: 2
#   fragile: warn
# Seed every test's Math.random and crypto from the run's seed (FLAKEGUARD_SEED, else a fresh one) and
# keep each test's seed in the run record: triage then prints the replay of the attempt that failed in
# CI. Needs setupFiles: ['flakeguard/seed'] in the Vitest config (off by default).
# seed: true
# Extra log signatures for 'flakeguard triage' (literal text unless regex: true).
# triage:
#   patterns:
#     - match: "database is starting up"
#       class: infrastructure
#       cause: the test database was not ready
#       action: wait for the database health check before the tests
`;
}

export const REPORTERS_LINE = `reporters: ['default', 'flakeguard/reporter'],`;
