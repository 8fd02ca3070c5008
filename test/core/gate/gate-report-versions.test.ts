import { describe, expect, it } from 'vitest';
import { GATE_REPORT_VERSION } from '../../../src/core/gate/gate-report.js';
import { upgradeGateReport } from '../../../src/core/gate/gate-report-versions.js';

const v2Test = {
  name: 'cart > pays',
  verdict: 'flaky',
  durationsMs: [1.2, 0.9],
  tryStates: ['passed', 'failed'],
  tries: [
    { state: 'passed', durationMs: 1.2, cold: true, slowdown: 2.04 },
    {
      state: 'failed',
      durationMs: 0.9,
      cold: true,
      slowdown: null,
      slowdownNote: 'too short to measure (0.4 ms of CPU)',
    },
  ],
};

describe('upgradeGateReport', () => {
  it('reads the current version as it is', () => {
    const report = { version: GATE_REPORT_VERSION, verdict: 'pass', tests: [] };
    expect(upgradeGateReport(report, 'shard-1.json')).toBe(report);
  });

  it('reads a version 2 shard report: its tries kept, the parallel arrays dropped', () => {
    const out = upgradeGateReport({ version: 2, verdict: 'fail', runs: 5, tests: [v2Test] }, 'shard-1.json');
    expect(out.version).toBe(GATE_REPORT_VERSION);
    expect(out.runs).toBe(5);
    expect(out.tests[0]).toEqual({ name: 'cart > pays', verdict: 'flaky', tries: v2Test.tries });
  });

  it('refuses another version, naming it, the versions it reads and how to write the report again', () => {
    expect(() => upgradeGateReport({ version: 1, tests: [] }, 'shard-1.json')).toThrow(
      'gate report shard-1.json is version 1; gate --merge reads versions 2 and 3: write it again with this flakeguard (flakeguard gate --shard <i>/<n> --json > shard-1.json)',
    );
    expect(() => upgradeGateReport({ tests: [] }, 's.json')).toThrow('is version null');
  });

  it('refuses what is not a report, and a version 2 test without tries', () => {
    expect(() => upgradeGateReport([1, 2], 's.json')).toThrow('s.json is not a flakeguard gate report');
    expect(() => upgradeGateReport({ version: 2, tests: [{ name: 'x', durationsMs: [1] }] }, 's.json')).toThrow(
      'tests[0] has no tries array',
    );
  });
});
