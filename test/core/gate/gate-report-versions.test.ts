import { readFileSync } from 'node:fs';
import path from 'node:path';
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
  it('reads the current version (6) as it is, and a version 4 report with each name of a test as its fullName', () => {
    const report = {
      version: GATE_REPORT_VERSION,
      verdict: 'pass',
      tests: [{ file: 'a.test.ts', fullName: 'adds', previous: null }],
    };
    expect(upgradeGateReport(report, 'shard-1.json')).toEqual(report);
    const v4 = {
      version: 4,
      verdict: 'pass',
      tests: [{ file: 'a.test.ts', name: 'adds', previous: { file: 'a.test.ts', name: 'sums' } }],
      notRun: [{ file: 'a.test.ts', name: 'rows', line: 3, reason: 'each' }],
      proposals: [{ file: 'a.test.ts', name: 'adds', id: 'a1' }],
    };
    const out = upgradeGateReport(v4, 'shard-1.json');
    expect(out.version).toBe(GATE_REPORT_VERSION);
    expect(out.tests).toEqual([
      { file: 'a.test.ts', fullName: 'adds', previous: { file: 'a.test.ts', fullName: 'sums' } },
    ]);
    expect(out.notRun).toEqual([{ file: 'a.test.ts', fullName: 'rows', line: 3, reason: 'each' }]);
    expect(out.proposals).toMatchObject([{ fullName: 'adds', id: 'a1' }]);
  });

  it("reads a version 5 report with an unnamed project's null as '' (one meaning of null: unknown), a named one kept", () => {
    const v5 = {
      version: 5,
      verdict: 'pass',
      tests: [
        { file: 'a.test.ts', fullName: 'adds', project: null },
        { file: 'a.test.ts', fullName: 'adds', project: 'unit' },
      ],
    };
    const out = upgradeGateReport(v5, 'shard-1.json');
    expect(out).toMatchObject({ format: 'flakeguard-gate-report', version: GATE_REPORT_VERSION });
    expect(out.tests.map((t) => t.project)).toEqual(['', 'unit']);
    const v4 = upgradeGateReport({ version: 4, tests: [{ file: 'a.test.ts', name: 'x', project: null }] }, 's.json');
    expect(v4.tests).toEqual([{ file: 'a.test.ts', fullName: 'x', project: '' }]);
  });

  it('reads a version 2 shard report: its tries kept, the parallel arrays dropped, runs renamed', () => {
    const out = upgradeGateReport(
      { version: 2, verdict: 'fail', runs: 5, maxRuns: 10, tests: [{ ...v2Test, passes: 1, runs: 2 }] },
      'shard-1.json',
    );
    expect(out).toMatchObject({ version: GATE_REPORT_VERSION, tries: 5, maxTries: 10 });
    expect(out).not.toHaveProperty('runs');
    expect(out.tests[0]).toEqual({
      fullName: 'cart > pays',
      verdict: 'flaky',
      passes: 1,
      tryCount: 2,
      tries: v2Test.tries,
    });
  });

  // fixtures/gate-report-v3.json: written by computeGateReport at edfcd1c (version 3), a history
  // and a calibration (their `runs` are suite runs and stay) added as the gate adds them.
  it('reads a version 3 shard report: runs and maxRuns are tries and maxTries, every count of tries a tryCount', () => {
    const v3 = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures/gate-report-v3.json'), 'utf8'));
    const out = upgradeGateReport(v3, 'gate-report-v3.json');
    expect(out).toMatchObject({ version: GATE_REPORT_VERSION, tries: 5, maxTries: 10, verdict: 'fail' });
    expect(out).not.toHaveProperty('runs');
    expect(out).not.toHaveProperty('maxRuns');
    const [loadSensitive, orderDependent] = out.tests;
    expect(loadSensitive).toMatchObject({ passes: 0, tryCount: 5, idle: { passes: 5, tryCount: 5 }, alone: null });
    expect(loadSensitive?.tries).toHaveLength(5);
    expect(orderDependent).toMatchObject({ passes: 5, tryCount: 5, idle: null, alone: { passes: 0, tryCount: 3 } });
    for (const t of out.tests) {
      expect(t).not.toHaveProperty('runs');
      expect(t.history).toMatchObject({ runs: 40 });
    }
    expect(out.contention?.calibration).toMatchObject({ runs: 12 });
  });

  it('reads a version 6 report as 7 with the seed null (its tries were not seeded), and a 7 as it is, seeds kept', () => {
    const tries = [{ state: 'failed', durationMs: 3 }];
    const v6 = { version: 6, verdict: 'fail', tests: [{ file: 'a.test.ts', fullName: 'adds', project: '', tries }] };
    const out6 = upgradeGateReport(v6, 'shard-1.json');
    expect(out6).toMatchObject({ version: 7, seed: null });
    expect(out6.tests).toEqual(v6.tests);
    const v7 = { ...v6, version: 7, seed: 42, tests: [{ ...v6.tests[0], tries: [{ ...tries[0], seed: 9 }] }] };
    expect(upgradeGateReport(v7, 'shard-2.json')).toEqual(v7);
  });

  it('refuses another version, naming it, the versions it reads and how to write the report again', () => {
    expect(() => upgradeGateReport({ version: 1, tests: [] }, 'shard-1.json')).toThrow(
      'gate report shard-1.json is version 1; gate --merge reads versions 2, 3, 4, 5, 6, 7: write it again with this flakeguard (flakeguard gate --shard <i>/<n> --json > shard-1.json)',
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
