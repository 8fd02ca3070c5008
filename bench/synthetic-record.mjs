// A synthetic run record for the history benches (bench/history.mjs, bench/history-scale-lib.mjs,
// bench/reporter-wasm-tier.mjs): every field a stored run needs, with the run's own id, start,
// commit, outcome and tests, in the shape ingest takes (the run record as flakeguard holds it after
// reading: version 2, each test's `fullName`).
export function syntheticRecord({ runId, startedAt, commit, tests, exitReason = 'passed', exitCode = null }) {
  return {
    version: 2,
    runId,
    startedAt,
    endedAt: startedAt,
    root: '/p',
    platform: 'linux',
    arch: 'x64',
    cpus: 2,
    loadavgStart: [0, 0, 0],
    loadavgEnd: [0, 0, 0],
    nodeVersion: process.version,
    vitestVersion: '4.1.12',
    git: { commit, dirty: false },
    shard: null,
    merged: false,
    exitReason,
    exitCode,
    unhandledErrors: [],
    budget: { testMs: 5000, fileMs: null, warnAt: 0.8 },
    violations: [],
    tests,
    files: [],
  };
}
