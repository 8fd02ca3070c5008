/**
 * What `gate --json` and `gate --plan` print, built by the real builders (computeGateReport,
 * computeGatePlan, decideGateVerdict, makeCause), validates against the shipped schemas (issue 47).
 */
import { describe, expect, it } from 'vitest';
import { makeCause } from '../../src/core/cause/cause.js';
import { computeGatePlan } from '../../src/core/gate/gate-plan.js';
import { computeGateReport, type GateReportInput, toGateReportJson } from '../../src/core/gate/gate-report.js';
import type { GateTestInput } from '../../src/core/gate/gate-report-test.js';
import { upgradeGateReport } from '../../src/core/gate/gate-report-versions.js';
import { mergeGateReports } from '../../src/core/gate/gate-shard.js';
import { decideGateVerdict } from '../../src/core/gate/gate-verdict.js';
import type { GateTry } from '../../src/core/gate/runner-protocol.js';
import { decideContention } from '../../src/core/gate/slowdown.js';
import { computeGateReplay } from '../../src/core/replay/gate-replay.js';
import { schemaErrors } from '../helpers/schema-check.js';

const body = { startedAt: 1_765_000_000_000, wallMs: 1.1, own: { cpuMs: 1, waitMs: 0.1 }, alone: true };
const pass = (d: number): GateTry => ({ state: 'passed', durationMs: d, cpuMs: d, cold: true, slowdown: 2.04, body });
const fail = (d: number): GateTry => ({
  state: 'failed',
  durationMs: d,
  cold: true,
  error: 'AssertionError: raced',
  slowdown: null,
  slowdownNote: 'too short to measure (0.4 ms of CPU)',
});
const limit = { limitMs: 1000, source: 'budget' as const, platformKey: 'linux' };
const verdict = (tries: GateTry[], more: { idle?: GateTry[]; alone?: GateTry[] } = {}) =>
  decideGateVerdict({ tries, loaded: true, idle: more.idle ?? null, alone: more.alone ?? null, limit, warnAt: 0.8 });

const place = { file: 'test/cart.test.ts', line: 3 };
const flaky: GateTestInput = {
  file: 'test/cart.test.ts',
  fullName: 'cart > pays',
  line: 3,
  project: 'unit',
  selection: 'renamed',
  previous: { file: 'test/cart.test.ts', fullName: 'cart > paid' },
  result: verdict([pass(10), fail(12), pass(9)], { idle: [fail(3), pass(2)] }),
  cause: makeCause('random-or-concurrency', 'measured', [{ kind: 'factor', text: 'failed unthrottled too' }], place, [
    { line: 5, text: 'Math.random()', classes: ['random-or-concurrency'], fix: 'seed the generator' },
  ]),
};
const stable: GateTestInput = {
  file: 'test/cart.test.ts',
  fullName: 'cart > adds',
  line: 9,
  selection: 'new',
  previous: null,
  affectedBy: ['src/price.ts'],
  result: verdict([pass(1), pass(2), pass(3)], { alone: [pass(1)] }),
};
const slow: GateTestInput = { ...stable, fullName: 'cart > totals', result: verdict([pass(900), pass(990)]) };

function input(tests: GateTestInput[]): GateReportInput {
  return {
    base: 'a'.repeat(40),
    baseRef: 'origin/main',
    tries: 3,
    maxTries: 6,
    timeBudgetMs: 120_000,
    platform: 'linux',
    warnAt: 0.8,
    vitestVersion: '4.1.12',
    load: {
      workers: 2,
      pids: [11, 12],
      cpus: 2,
      loadavgBefore: [1, 1, 1],
      loadavgAfter: null,
      workersMachineShare: null,
      testsCpuShare: 0.4,
    },
    contention: {
      ...decideContention({
        target: 2,
        method: 'cgroup-v2',
        methodWhy: null,
        weight: 'cpu.weight 800 (8x the default)',
        busyWorkers: 0,
        phases: [
          { phase: 'reference', asked: 2, got: 2.04 },
          { phase: 'x4', asked: 4, got: null },
        ],
      }),
      calibration: {
        source: 'history',
        platform: 'linux',
        ratio: 2.4,
        interval: [2.1, 2.8],
        tests: 40,
        runs: 30,
        reason: null,
        local: {
          match: 'machine',
          machine: { id: '3f9a1c2b7d10', cpuModel: 'CPU', cores: 2 },
          runs: 12,
          machines: 1,
          others: 0,
        },
      },
    },
    fragile: 'block',
    tests,
    notRun: [{ file: 'test/cart.test.ts', fullName: 'cart > adds %i', line: 30, reason: 'test.each' }],
    unchanged: 3,
    proposals: [
      {
        file: 'test/cart.test.ts',
        fullName: 'cart > totals',
        id: 'a1b2c3d4',
        limitMs: 1500,
        platformKey: 'linux',
        reason: 'measured 990 ms',
        storeFile: 'allowances/test/cart.test.ts.yaml',
        yaml: '- id: a1b2c3d4\n',
        written: false,
      },
    ],
    notices: ['a notice'],
    wallMs: 5400.4,
    shard: { index: 1, count: 2 },
    cost: { loadedWallMs: 4100.2, triesMs: 6.3 },
  };
}

describe('gate report schema', () => {
  it('validates a report with a flaky, a stable and a near-budget test, contention, proposals and a shard', () => {
    const history = {
      runs: 20,
      failedRuns: 1,
      flakyRuns: 2,
      flakeRate: 0.1,
      durationMs: { median: 9, p95: 12 },
      trend: null,
    };
    const report = computeGateReport(
      input([{ ...flaky, missing: ['an alone try (cut by --time-budget)'] }, stable, slow]),
    );
    const withPast = { ...report, tests: report.tests.map((t) => ({ ...t, history, owners: ['@org/web'] })) };
    expect(report.tests.map((t) => t.verdict)).toEqual(['flaky', 'stable', 'near-budget']);
    expect(schemaErrors('gate-report', toGateReportJson(withPast))).toEqual([]);
  });

  it("validates the smallest report, and writes '' for an unnamed project", () => {
    const { contention: _c, cost: _cost, ...plain } = input([stable]);
    const report = computeGateReport({ ...plain, tests: [stable], proposals: [], notRun: [], shard: null });
    expect(report.tests[0]?.project).toBe('');
    expect(schemaErrors('gate-report', report)).toEqual([]);
  });

  it('validates a version 5 shard report as gate --merge reads it', () => {
    const v6 = computeGateReport(input([stable]));
    const { format: _f, ...v5 } = { ...v6, version: 5, tests: v6.tests.map((t) => ({ ...t, project: null })) };
    expect(schemaErrors('gate-report', upgradeGateReport(v5, 'shard.json'))).toEqual([]);
  });

  it('validates what gate --merge prints: two shard reports, one of them version 5, merged', () => {
    const one = computeGateReport(input([flaky]));
    const two = computeGateReport({ ...input([stable]), shard: { index: 2, count: 2 } });
    const { format: _f, ...old } = { ...two, version: 5, tests: two.tests.map((t) => ({ ...t, project: null })) };
    const merged = mergeGateReports([one, upgradeGateReport(old, 'shard-2.json')], ['shard-1.json', 'shard-2.json']);
    expect(merged).toMatchObject({ format: 'flakeguard-gate-report', version: 7, mergedShards: 2, shard: null });
    expect(schemaErrors('gate-report', toGateReportJson(merged))).toEqual([]);
  });

  it('validates the replays the replay row writes: run (k/n), not reproduced (uncontrolled), not run (null)', () => {
    const replay = {
      ...place,
      fullName: 'cart > pays',
      project: 'unit',
      seed: 42,
      factor: 1,
      cold: false,
      alone: false,
    };
    const run = computeGateReplay({ ...replay, uncontrolled: 'needs the load' }, [fail(1), fail(1), pass(1)]);
    const missed = computeGateReplay({ ...replay, uncontrolled: 'needs the load' }, [pass(1)]);
    const notRun = computeGateReplay({ ...replay, uncontrolled: 'needs the load' }, null);
    expect([run.reproduced, missed.uncontrolled, notRun.reproduced]).toEqual(['2/3', 'needs the load', null]);
    const report = computeGateReport(
      input([
        { ...flaky, replay: run },
        { ...flaky, fullName: 'cart > refunds', replay: missed },
        { ...flaky, fullName: 'cart > voids', replay: notRun },
      ]),
    );
    expect(report.tests.map((t) => t.replay?.reproduced)).toEqual(['2/3', '0/1', null]);
    expect(schemaErrors('gate-report', toGateReportJson(report))).toEqual([]);
    const bad = { ...report, tests: [{ ...report.tests[0], replay: { ...run, reproduced: 'twice' } }] };
    expect(schemaErrors('gate-report', bad)).not.toEqual([]);
  });

  it('refuses an unknown verdict and a field the schema does not name', () => {
    const report = computeGateReport(input([stable]));
    const test = report.tests[0];
    expect(schemaErrors('gate-report', { ...report, tests: [{ ...test, verdict: 'wobbly' }] })).not.toEqual([]);
    expect(schemaErrors('gate-report', { ...report, tests: [{ ...test, durationsMs: [1] }] })).not.toEqual([]);
  });
});

describe('gate plan schema', () => {
  it('validates a plan with a renamed and an affected test in two projects', () => {
    const plan = computeGatePlan({
      base: 'abc',
      baseRef: 'main',
      vitestConfig: 'vitest.config.ts',
      shard: { index: 1, count: 2 },
      platform: 'linux',
      limits: { tries: 5, maxTries: 10, timeBudgetMs: 120_000, slowdown: 2, loadWorkers: 0, warnAt: 0.8 },
      selected: [
        {
          kind: 'renamed',
          test: { file: 'a.test.ts', fullName: 'adds', line: 3 },
          previous: { file: 'a.test.ts', fullName: 'sums' },
        },
        { kind: 'affected', test: { file: 'b.test.ts', fullName: 'doubles', line: 2 }, previous: null },
      ],
      projectsOf: new Map([['a.test.ts', ['', 'browser']]]),
      affectedBy: new Map([['b.test.ts', ['src/price.ts']]]),
      limitFor: (t) =>
        t.file === 'a.test.ts'
          ? { limitMs: 9000, source: 'allowance', allowanceId: 'e723808e' }
          : { limitMs: 5000, source: 'budget' },
      notRun: [],
      unchanged: 0,
      changedFiles: 2,
      notices: [],
      cpus: 2,
      timeBudgetGiven: false,
    });
    expect(plan.tests.map((t) => t.project)).toEqual(['', 'browser', '']);
    expect(schemaErrors('gate-plan', plan)).toEqual([]);
  });
});
